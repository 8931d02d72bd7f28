/**
 * Detection patterns held as data in code: a scanner's rule table (`(r"\beval\s*\(", "eval() usage")`)
 * names the techniques it looks for, and a regex literal cannot do what its text spells. The mask
 * blanks such literals so rules read the code around them; it applies only to files that never
 * execute a string (no eval/exec/system/subprocess), where a pattern could not be turned back into
 * a command.
 */
import type { ScanContext } from '../views/scan-context';
import { perFile } from './regex-rule';

/** Python raw strings, RegExp constructor arguments and JavaScript regex literals. */
const CANDIDATE_LITERAL_RE =
  /\b[rR][bB]?("(?:[^"\\\n]|\\.){1,500}"|'(?:[^'\\\n]|\\.){1,500}')|\bRegExp\(\s{0,3}(?:String\.raw)?(`(?:[^`\\\n]|\\.){1,500}`|"(?:[^"\\\n]|\\.){1,500}"|'(?:[^'\\\n]|\\.){1,500}')|(?<=[=(,[:!&|?;{}]\s{0,3}|\breturn\s{1,3})(\/(?![/*])(?:[^/\\\n[]|\\.|\[(?:[^\]\\\n]|\\.){0,100}\]){1,500}\/[dgimsuy]{0,6})/g;
/** Syntax only a regular expression has: escapes for classes and boundaries, groups, quantified sets. */
const REGEX_SYNTAX_RE = /\\[sSbBwWdD]|\(\?(?:[:=!]|<[=!]|[imsx]{1,4}\))|\][*+?{]|\.[*+]|\\[.()[\]|]/;
const STRING_LITERAL_RE = /"(?:[^"\\\n]|\\.){0,500}"|'(?:[^'\\\n]|\\.){0,500}'/g;
/** A line made of literals only (strings already reduced to "", numbers, names of constants), as a table row. */
const DATA_ROW_RE =
  /^\s{0,40}[([{]?\s{0,3}[rR]?[bB]?\s{0,200}(?:""\s{0,3})?(?:,\s{0,3}(?:""|\d{1,6}(?:\.\d{1,6})?|True|False|None|true|false|null|[A-Z][A-Z0-9_.]{0,60})\s{0,3}){1,6}[)\]}]?\s{0,3},?\s{0,3}(?:#[^\n]{0,200})?$/;
/** Anything that runs a string as code or as a command. */
const EXECUTES_STRINGS_RE =
  /(?<![.\w])(?:exec|eval|compile|execfile|system|popen|spawn\w{0,6}|exec[lv]p?e?|execSync|execFile\w{0,4}|Function)\s{0,3}\(|\bsubprocess\b|\bchild_process\b|\bshell\s{0,3}=\s{0,3}True\b|\bInvoke-Expression\b|\biex\b|\bos\.(?:system|popen|exec)|\bpty\.spawn\b|\bimportlib\b|__import__/;

const blank = (s: string): string => ' '.repeat(s.length);

/** Every candidate literal has a quote, a backtick or a slash: a line without one is left as it is, with no search. */
const LITERAL_MARK_RE = /["'`/]/;

function maskLine(line: string): string {
  if (line.length === 0 || !LITERAL_MARK_RE.test(line)) return line;
  // The line is rebuilt from pieces once: replacing each literal in place copied the whole line
  // per literal, quadratic on a long line full of them.
  const pieces: string[] = [];
  let from = 0;
  // exec on the shared pattern, not matchAll, which copies the pattern for every line of the file.
  CANDIDATE_LITERAL_RE.lastIndex = 0;
  for (let m = CANDIDATE_LITERAL_RE.exec(line); m; m = CANDIDATE_LITERAL_RE.exec(line)) {
    const literal = m[1] ?? m[2] ?? m[3] ?? '';
    if (!REGEX_SYNTAX_RE.test(literal)) continue;
    const at = (m.index ?? 0) + m[0].indexOf(literal);
    pieces.push(line.slice(from, at), blank(literal));
    from = at + literal.length;
  }
  if (pieces.length === 0) return line;
  pieces.push(line.slice(from));
  let out = pieces.join('');
  // A row of a rule table holds only literals: the pattern, its label and its severity. Its other
  // strings label the pattern ("Instruction override: ignore previous instructions").
  if (out !== line && DATA_ROW_RE.test(out.replace(STRING_LITERAL_RE, '""'))) out = out.replace(STRING_LITERAL_RE, blank);
  return out;
}

/**
 * The file's lines with detection-pattern literals blanked (same lengths), or null when the file
 * is not code or executes strings somewhere (then nothing is masked).
 */
export const patternMaskedLines = perFile((ctx: ScanContext): string[] | null => {
  if (!ctx.executable) return null;
  const masked = ctx.lines.map(maskLine);
  if (masked.every((l, i) => l === ctx.lines[i])) return null;
  // Strings only name things ("eval() usage"); a call that runs code sits outside them.
  if (masked.some((l) => EXECUTES_STRINGS_RE.test(l.replace(STRING_LITERAL_RE, '""')))) return null;
  return masked;
});

/**
 * The evidence of a hit on this 1-based line lies inside detection-pattern literals: none of its
 * words is left in the line's code once they are blanked (this also holds for evidence read from a
 * normalised or decoded view, or spanning the whole line).
 */
export function insidePatternLiteral(ctx: ScanContext, line: number, evidence: string): boolean {
  const masked = patternMaskedLines(ctx)?.[line - 1];
  if (masked === undefined || masked === ctx.lines[line - 1]) return false;
  const words = evidence.toLowerCase().match(/[a-z]{3,}/g) ?? [];
  const code = masked.toLowerCase();
  return words.length > 0 && words.every((w) => !code.includes(w));
}

export const PATTERN_LITERAL_REGEXES: readonly RegExp[] = [
  LITERAL_MARK_RE,
  CANDIDATE_LITERAL_RE,
  REGEX_SYNTAX_RE,
  EXECUTES_STRINGS_RE,
  STRING_LITERAL_RE,
  DATA_ROW_RE,
];

/**
 * Detection patterns held as data in code: a scanner's rule table (`(r"\beval\s*\(", "eval() usage")`)
 * names the techniques it looks for, and a regex literal cannot do what its text spells. The mask
 * blanks such literals so rules read the code around them; it applies only to files that never
 * execute a string (no eval/exec/system/subprocess), where a pattern could not be turned back into
 * a command.
 */
import type { ScanContext } from '../views/scan-context';
import { perFile, perLine } from './regex-rule';

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

/**
 * Forms that name a runner without running a string: an import of it, and a subprocess call whose
 * first argument is a list literal (a program and its arguments; `shell=True` still counts on its own).
 */
const IMPORT_OF_RUNNER_RE =
  /^\s{0,40}(?:import\s{1,3}subprocess\b|from\s{1,3}subprocess\s{1,3}import\b|(?:const|let|var|import)\b[^=\n]{0,80}(?:=\s{0,3}require\(\s{0,3}|from\s{1,3})["'](?:node:)?child_process["'])/;
const RUNNER_NAME_RE = /\bsubprocess\.[A-Z][A-Za-z_]{0,40}/g;
const LIST_ARG_CALL_RE = /\bsubprocess\.\w{1,20}\(\s{0,3}(?:\[|$)/;
/** A line of a table entry that holds one key and one constant (`"risk": "…",`), a bracket, or a comment. */
const ENTRY_KEY_LINE_RE =
  /^(\s{0,40}["']([A-Za-z_][\w-]{0,40})["']\s{0,3}:)\s{0,3}(?:[rRfFbBuU]{0,2}"(?:[^"\\\n]|\\.){0,500}"|[rRfFbBuU]{0,2}'(?:[^'\\\n]|\\.){0,500}'|[A-Z][\w.]{0,60}|\d{1,6}|True|False|None|true|false|null)\s{0,3},?\s{0,3}$/;
// Each run of spaces follows a character it cannot be part of, so a line that is not one fails
// without trying every split of its indentation between the optional parts.
const BRACKET_LINE_RE = /^\s{0,40}(?:[A-Za-z_]\w{0,60}\s{0,3}(?::[^=\n]{0,60})?=\s{0,3})?(?:[[{(]\s{0,3})?(?:[\]})]\s{0,3})?(?:[[{(]\s{0,3})?(?:,\s{0,3})?$/;
const COMMENT_LINE_RE = /^\s{0,40}(?:#|\/\/)/;
/** Keys whose value the model reads (a tool's description, a prompt): never blanked as a label. */
const MODEL_FACING_KEY_RE = /^(?:description|instructions?|prompt|system\w{0,20}|content|message|text|title|summary)$/i;

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
  if (masked.some((l, i) => runsStrings(l, masked[i + 1] ?? ''))) return null;
  maskEntryLabels(ctx.lines, masked);
  return masked;
});

/** The line runs a string as code or a command (imports and list-argument subprocess calls do not). */
function runsStrings(line: string, next: string): boolean {
  // Its classes and constants (`subprocess.CalledProcessError`, `subprocess.PIPE`) run nothing.
  const code = line.replace(STRING_LITERAL_RE, '""').replace(RUNNER_NAME_RE, ' ');
  if (!EXECUTES_STRINGS_RE.test(code) || IMPORT_OF_RUNNER_RE.test(code)) return false;
  const call = LIST_ARG_CALL_RE.exec(code);
  if (!call) return true;
  // A list literal opens the call's arguments (here, or on the next line); shell=True is tested on its own line.
  const opensList = call[0].endsWith('[') || next.trimStart().startsWith('[');
  return !opensList || /\bshell\s{0,3}=\s{0,3}True\b/.test(code);
}

/**
 * Entries of a rule table written one key per line (`{"regex": r"…", "category": "…", "risk": "…"}`):
 * in a run of lines made only of key–constant entries, brackets and comments that holds a masked
 * pattern, the other entries and comments label that pattern and are blanked too, except keys the
 * model reads (a description or prompt next to a schema's `pattern` stays visible to every rule).
 */
function maskEntryLabels(lines: readonly string[], masked: string[]): void {
  let start = 0;
  let hasPattern = false;
  const close = (end: number): void => {
    if (hasPattern)
      for (let i = start; i < end; i++) {
        const entry = ENTRY_KEY_LINE_RE.exec(masked[i]);
        if (entry && !MODEL_FACING_KEY_RE.test(entry[2])) masked[i] = entry[1] + blank(masked[i].slice(entry[1].length));
        else if (COMMENT_LINE_RE.test(masked[i])) masked[i] = blank(masked[i]);
      }
    hasPattern = false;
  };
  for (let i = 0; i < masked.length; i++) {
    const line = masked[i];
    const patternRow = line !== lines[i];
    if (patternRow || line.trim() === '' || ENTRY_KEY_LINE_RE.test(line) || BRACKET_LINE_RE.test(line) || COMMENT_LINE_RE.test(line)) {
      if (patternRow) hasPattern = true;
      continue;
    }
    close(i);
    start = i + 1;
  }
  close(masked.length);
}

/**
 * The evidence of a hit on this 1-based line lies inside detection-pattern literals: none of its
 * words is left in the line's code once they are blanked (this also holds for evidence read from a
 * normalised or decoded view, or spanning the whole line).
 */
export function insidePatternLiteral(ctx: ScanContext, line: number, evidence: string): boolean {
  const masked = patternMaskedLines(ctx)?.[line - 1];
  if (masked === undefined || masked === ctx.lines[line - 1]) return false;
  const words = evidence.toLowerCase().match(/[a-z]{3,}/g) ?? [];
  const inCode = wordsInCode(ctx, line);
  return words.length > 0 && words.every((w) => !inCode(w));
}

/**
 * Per masked line: does its code (lower-cased) hold this word? Read once per line and word, since
 * a long line has many hits and their evidence shares words.
 */
const wordsInCode = perLine((ctx: ScanContext, line: number): ((word: string) => boolean) => {
  const code = (patternMaskedLines(ctx)?.[line - 1] ?? '').toLowerCase();
  const known = new Map<string, boolean>();
  return (word) => {
    let found = known.get(word);
    if (found === undefined) known.set(word, (found = code.includes(word)));
    return found;
  };
});

export const PATTERN_LITERAL_REGEXES: readonly RegExp[] = [
  IMPORT_OF_RUNNER_RE,
  RUNNER_NAME_RE,
  LIST_ARG_CALL_RE,
  ENTRY_KEY_LINE_RE,
  BRACKET_LINE_RE,
  COMMENT_LINE_RE,
  MODEL_FACING_KEY_RE,
  LITERAL_MARK_RE,
  CANDIDATE_LITERAL_RE,
  REGEX_SYNTAX_RE,
  EXECUTES_STRINGS_RE,
  STRING_LITERAL_RE,
  DATA_ROW_RE,
];

/**
 * The code of a file, as units to parse: a bundled script as a whole; in Markdown, fenced blocks
 * labelled shell/Python/JS/TS/PowerShell (or unlabelled and shell-like), and the commands a
 * paragraph or list gives in inline code spans or on bare command lines, in order. Each unit is
 * cut into chunks of at most CHUNK_MAX characters at top-level line boundaries (never inside a
 * heredoc), so parsing stays linear in the input whatever the content. Each chunk row keeps its
 * line in the upload.
 */
import { codeLexicon } from '../lexicons/lexicon';
import { extractMcpServers, jsonNeedle, type McpServerEntry } from '../parsers/json-config.parser';
import type { ScanContext } from '../views/scan-context';
import type { CodeLanguage } from './tree-sitter';

export interface CodeChunk {
  lang: CodeLanguage;
  text: string;
  /** 1-based line in the upload of each row of `text`. */
  lines: number[];
  /** Which unit of the file the chunk belongs to (facts flow within a unit). */
  unit: number;
  /** Where the code came from: a script, a fence, or commands in prose. */
  origin: 'script' | 'fence' | 'prose';
}

/** Chunks are cut at a top-level line boundary once they reach this many characters. */
export const CHUNK_MAX = 2000;
/** A single line longer than this is not parsed (minified or padded); the regex rules still read it. */
const LINE_MAX = 2000;

/** A Map, not an object: a fence label is the file's text, and `constructor` must not read as a language. */
const FENCE_LANG = new Map<string, CodeLanguage>(
  Object.entries({
    bash: 'bash',
    sh: 'bash',
    shell: 'bash',
    zsh: 'bash',
    console: 'bash',
    terminal: 'bash',
    shellsession: 'bash',
    python: 'python',
    py: 'python',
    python3: 'python',
    js: 'typescript',
    javascript: 'typescript',
    ts: 'typescript',
    typescript: 'typescript',
    node: 'typescript',
    mjs: 'typescript',
    cjs: 'typescript',
    powershell: 'powershell',
    pwsh: 'powershell',
    ps1: 'powershell',
    ps: 'powershell',
  } satisfies Record<string, CodeLanguage>),
);
const SCRIPT_LANG: Partial<Record<ScanContext['language'], CodeLanguage>> = {
  shell: 'bash',
  python: 'python',
  javascript: 'typescript',
  powershell: 'powershell',
};

/** A Markdown code fence's opening or closing line, at any indentation (a fence in a list item is indented with it). */
export const FENCE_MARK = /^\s*(?:`{3}|~{3})/;
const INLINE_SPAN = /`([^`\n]{1,400})`/g;
const PROMPT = /^\s{0,8}(?:\$|>|PS [^>\n]{0,80}>)\s/;
/** A shell heredoc's start; group 1 is its terminator. */
export const HEREDOC = /<<-?\s{0,3}["']?([A-Za-z_]\w{0,40})/;
const FIRST_WORD = /^\s{0,40}(?:sudo\s{1,5})?([\w.-]{1,40})(\s|$)/;
const PS_VERB_NOUN = /^\s{0,8}[A-Z][a-z]{1,20}-[A-Z][A-Za-z]{1,40}\b/;
const ARG_LIKE = /\s(?:-|\.{0,2}\/|~|\$|https?:|[\w-]{1,80}\.\w{1,8}\b)/;
/** A line with something besides white space (what `trim()` removes), tested without building the trimmed copy. */
const NOT_BLANK = /\S/;
const NESTED_START = /^[\s)\]}]/;
const PY_COMMENT_LINE = /^\s*#/;

let shellWords: ReadonlySet<string> | null = null;
/** Command words that make a span or a bare line read as a shell command. */
function commandWords(): ReadonlySet<string> {
  shellWords ??= new Set([
    ...codeLexicon('code-fetch-tool'),
    ...codeLexicon('code-interpreter'),
    ...codeLexicon('code-destroy'),
    ...codeLexicon('code-tamper-target'),
    ...codeLexicon('code-shell-command'),
  ]);
  return shellWords;
}

/** A span or bare line that starts with a command word and has an argument (on a bare line, one that looks like a path, flag or URL). */
function shellLike(text: string, span = false): boolean {
  const m = FIRST_WORD.exec(text);
  if (!m) return false;
  const word = m[1].toLowerCase();
  if (!commandWords().has(word)) return false;
  const rest = text.slice(m[0].length - 1);
  return span ? rest.trim().length > 0 : ARG_LIKE.test(rest);
}

function unprompted(line: string): string {
  const m = PROMPT.exec(line);
  return m ? line.slice(m[0].length) : line;
}

function countOf(text: string, mark: string): number {
  let n = 0;
  for (let i = text.indexOf(mark); i !== -1; i = text.indexOf(mark, i + mark.length)) n++;
  return n;
}

/** `line` without up to `indent` leading white-space characters. */
function outdented(line: string, indent: number): string {
  let k = 0;
  while (k < indent && k < line.length && (line[k] === ' ' || line[k] === '\t')) k++;
  return k === 0 ? line : line.slice(k);
}

/** Removes the leading white space that every non-blank row shares. */
function outdentCommon(rows: { line: number; text: string }[]): void {
  let common = Infinity;
  for (const r of rows) if (NOT_BLANK.test(r.text)) common = Math.min(common, r.text.length - r.text.trimStart().length);
  if (common === Infinity || common === 0) return;
  for (const r of rows) r.text = outdented(r.text, common);
}

/** Cuts one unit's rows into chunks at top-level boundaries, outside heredocs. */
function chunkRows(
  lang: CodeLanguage,
  rows: readonly { line: number; text: string }[] | readonly string[],
  unit: number,
  origin: CodeChunk['origin'],
  out: CodeChunk[],
): void {
  let text: string[] = [];
  let lines: number[] = [];
  let size = 0;
  let heredoc: string | null = null;
  // Inside a multi-line string (Python triple quotes, JS template literal): no cut.
  let inString = false;
  const flush = (): void => {
    if (text.length > 0) out.push({ lang, text: text.join('\n'), lines, unit, origin });
    text = [];
    lines = [];
    size = 0;
  };
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k];
    // A script's lines are read in place (no object per line); blank lines carry nothing to parse.
    const raw = typeof row === 'string' ? row : row.text;
    if (raw.length === 0 || raw.length > LINE_MAX || !NOT_BLANK.test(raw)) continue;
    // A Python comment line carries no code, and a run of them makes the grammar's indentation
    // scanner re-read the rest of the run at every line: quadratic, past a parse's read budget.
    if (lang === 'python' && !inString && PY_COMMENT_LINE.test(raw)) continue;
    if (size >= CHUNK_MAX && heredoc === null && !inString && !NESTED_START.test(raw)) flush();
    text.push(raw);
    lines.push(typeof row === 'string' ? k + 1 : row.line);
    size += raw.length + 1;
    if (lang === 'python' || lang === 'typescript') {
      const marks = lang === 'python' ? countOf(raw, '"""') + countOf(raw, "'''") : countOf(raw, '`');
      if (marks % 2 === 1) inString = !inString;
    }
    if (heredoc !== null) {
      if (raw.trim() === heredoc) heredoc = null;
    } else if (lang === 'bash' && raw.includes('<<')) {
      const h = HEREDOC.exec(raw);
      if (h) heredoc = h[1];
    }
    // A heredoc that never ends still cannot make a chunk unbounded.
    if (size >= CHUNK_MAX * 4) {
      heredoc = null;
      inString = false;
      flush();
    }
  }
  flush();
}

/** The code chunks of a file, in order. */
export function codeChunksOf(ctx: ScanContext): CodeChunk[] {
  const out: CodeChunk[] = [];
  const scriptLang = SCRIPT_LANG[ctx.language];
  if (scriptLang) {
    chunkRows(scriptLang, ctx.lines, 0, 'script', out);
    return out;
  }
  if (ctx.language === 'json') {
    serverCommandChunks(ctx, out);
    return out;
  }
  if (ctx.language !== 'markdown') return out;
  let unit = 0;
  let prose: { line: number; text: string }[] = [];
  let proseWin: { line: number; text: string }[] = [];
  const flushProse = (): void => {
    if (prose.length > 0) chunkRows('bash', prose, ++unit, 'prose', out);
    if (proseWin.length > 0) chunkRows('powershell', proseWin, ++unit, 'prose', out);
    prose = [];
    proseWin = [];
  };
  let carry: { line: number; text: string } | null = null;
  // A PowerShell command (Verb-Noun) in prose is parsed as PowerShell.
  const proseRow = (row: { line: number; text: string }): void => {
    (PS_VERB_NOUN.test(row.text) ? proseWin : prose).push(row);
  };
  for (let i = 0; i < ctx.lines.length; i++) {
    const info = ctx.lineInfo[i];
    const line = ctx.lines[i];
    if (info?.inFence) {
      flushProse();
      carry = null;
      // A fence: from its opener to its closer.
      const rows: { line: number; text: string }[] = [];
      const label = (info.fenceLang ?? '').toLowerCase();
      let lang: CodeLanguage | undefined = FENCE_LANG.get(label);
      // A fence labelled with another language (JSON, YAML …) is passed over without copying its rows.
      const read = lang !== undefined || label === '';
      const strip = label === '' || lang === 'bash';
      const opener = FENCE_MARK.test(line);
      // The fence's own indentation is not part of its code (CommonMark strips it from every line).
      const indent = opener ? line.length - line.trimStart().length : 0;
      let j = opener ? i + 1 : i;
      for (; j < ctx.lines.length && ctx.lineInfo[j]?.inFence && !FENCE_MARK.test(ctx.lines[j]); j++) {
        if (!read) continue;
        const text = outdented(ctx.lines[j], indent);
        rows.push({ line: j + 1, text: strip ? unprompted(text) : text });
      }
      i = j;
      // Python reads indentation: a fragment indented as a whole (a method body) parses once outdented.
      if (lang === 'python') outdentCommon(rows);
      if (!lang && label === '' && rows.some((r) => shellLike(r.text))) lang = 'bash';
      if (lang) chunkRows(lang, rows, ++unit, 'fence', out);
      continue;
    }
    const blank = !NOT_BLANK.test(line);
    if (info?.inFrontmatter || blank) {
      carry = null;
      // A blank line ends a paragraph or list: commands flow within one.
      if (blank) flushProse();
      continue;
    }
    // Prose: inline code spans that read as commands, or a bare command line. A span left open at
    // the end of a line continues on the next line of the paragraph (Markdown allows it).
    let spans = 0;
    let rest = line;
    if (carry) {
      const close = line.indexOf('`');
      if (close !== -1 && close <= 400) {
        spans++;
        const joined = `${carry.text} ${line.slice(0, close).trim()}`;
        if (shellLike(joined, true)) proseRow({ line: carry.line, text: joined });
        rest = line.slice(close + 1);
      }
      carry = null;
    }
    if (rest.includes('`')) {
      INLINE_SPAN.lastIndex = 0;
      for (let m = INLINE_SPAN.exec(rest); m; m = INLINE_SPAN.exec(rest)) {
        spans++;
        if (shellLike(m[1], true)) proseRow({ line: i + 1, text: m[1] });
      }
      if (countOf(rest, '`') % 2 === 1) {
        const open = rest.slice(rest.lastIndexOf('`') + 1);
        if (open.length > 0 && open.length <= 400) carry = { line: i + 1, text: open.trim() };
      }
    }
    // A heading (`# …`) never reads as a command: FIRST_WORD does not start at `#`.
    if (spans === 0 && !carry && !line.includes('. ') && shellLike(line)) proseRow({ line: i + 1, text: line.trim() });
  }
  flushProse();
  return out;
}

/** `sh -c "…"`, `python3 -c "…"`, `node -e "…"`: the program a server entry runs inline, and its language. */
const INLINE_PROGRAM: ReadonlyMap<string, { flag: string; lang: CodeLanguage }> = new Map([
  ...['sh', 'bash', 'zsh', 'dash'].map((c): [string, { flag: string; lang: CodeLanguage }] => [c, { flag: '-c', lang: 'bash' }]),
  ...['python', 'python3'].map((c): [string, { flag: string; lang: CodeLanguage }] => [c, { flag: '-c', lang: 'python' }]),
  ...['node', 'bun', 'deno'].map((c): [string, { flag: string; lang: CodeLanguage }] => [c, { flag: '-e', lang: 'typescript' }]),
  ...['pwsh', 'powershell'].map((c): [string, { flag: string; lang: CodeLanguage }] => [c, { flag: '-command', lang: 'powershell' }]),
]);
const NEEDS_QUOTES = /[\s"]/;

/** The 1-based line of the first of `needles` at or below `from` (the server's own entry), else `from`. */
function lineAt(lines: readonly string[], from: number, needles: readonly string[]): number {
  for (let k = from - 1; k < lines.length && k < from + 40; k++) if (needles.some((n) => n.length > 0 && lines[k].includes(n))) return k + 1;
  return from;
}

/**
 * An MCP config's server entries are commands the client runs by itself at start-up: each entry's
 * command line (or the program it passes to `sh -c`, `python -c`, `node -e`) is parsed as a script,
 * so the code rules read a server that is itself the attack.
 */
function serverCommandChunks(ctx: ScanContext, out: CodeChunk[]): void {
  const servers: McpServerEntry[] = extractMcpServers(ctx.json, ctx.lines);
  let unit = 0;
  for (const server of servers) {
    if (server.command === null) continue;
    const base = (server.command.split(/[\\/]/).pop() ?? '').toLowerCase().replace(/\.exe$/, '');
    const inline = INLINE_PROGRAM.get(base);
    const at = inline ? server.args.findIndex((a) => a.toLowerCase() === inline.flag) : -1;
    if (inline && at !== -1 && at + 1 < server.args.length) {
      const program = server.args[at + 1];
      const line = lineAt(ctx.lines, server.line, [jsonNeedle(program.slice(0, 40))]);
      chunkRows(
        inline.lang,
        program.split('\n').map((text) => ({ line, text })),
        ++unit,
        'script',
        out,
      );
      continue;
    }
    const words = [server.command, ...server.args].map((w) => (NEEDS_QUOTES.test(w) ? `"${w.replaceAll('"', '\\"')}"` : w));
    const line = lineAt(ctx.lines, server.line, [jsonNeedle(server.command)]);
    chunkRows('bash', [{ line, text: words.join(' ') }], ++unit, 'script', out);
  }
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const CODE_UNIT_REGEXES: readonly RegExp[] = [
  FENCE_MARK,
  INLINE_SPAN,
  PROMPT,
  HEREDOC,
  FIRST_WORD,
  ARG_LIKE,
  PS_VERB_NOUN,
  NOT_BLANK,
  NESTED_START,
  NEEDS_QUOTES,
];

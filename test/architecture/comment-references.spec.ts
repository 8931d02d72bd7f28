import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as ts from 'typescript';

// Comments say why, and may point at a file that says more; that file must be in this repository.
// The project's reasons live in docs/ and docs/decisions/; documents kept outside the repository
// (a contract or design file at the root that was never committed) are dead ends for a reader.
const ROOT = join(__dirname, '..', '..');
const SCANNED = ['src', 'test', 'scripts', 'bench'];
// Agent-file samples the scanner analyses as content (rule fixtures, the red-team sets), not project code.
const NOT_PROJECT_CODE = ['test/fixtures/rules/', 'test/fixtures/red-team/', 'test/fixtures/red-team-blind/'];
// Bare upper-case Markdown names that are agent-file kinds the scanner talks about, not documents here.
const AGENT_FILE_NAMES = new Set(['SKILL.md', 'AGENTS.md', 'CLAUDE.md', 'GEMINI.md']);

/** Every comment of a TypeScript or JavaScript source, with its start offset. */
function commentsOf(fileName: string, text: string): { start: number; text: string }[] {
  const kind = fileName.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  // Outside string, template and regular-expression literals, `//` and `/*` can only open comments.
  const literals: [number, number][] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isRegularExpressionLiteral(node) ||
      ts.isTemplateLiteralToken(node) ||
      ts.isJsxText(node)
    ) {
      literals.push([node.getStart(source), node.end]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  literals.sort((a, b) => a[0] - b[0]);
  const comments: { start: number; text: string }[] = [];
  let next = 0;
  for (let i = 0; i < text.length; i++) {
    while (next < literals.length && literals[next]![1] <= i) next++;
    const literal = literals[next];
    if (literal && literal[0] <= i) {
      i = literal[1] - 1;
      continue;
    }
    if (text[i] !== '/') continue;
    if (text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      comments.push({ start: i, text: text.slice(i, stop) });
      i = stop;
    } else if (text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      comments.push({ start: i, text: text.slice(i, stop) });
      i = stop - 1;
    }
  }
  return comments;
}

const GITIGNORE = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#') && !line.startsWith('!'));

/** Top-level folders of the repository a comment may name as `folder/...` (not ignored ones such as dist/). */
function repositoryFolders(): string[] {
  const ignored = new Set(['.git', 'node_modules']);
  for (const line of GITIGNORE) {
    const folder = /^\/?([\w.-]+)\/$/.exec(line);
    if (folder) ignored.add(folder[1]!);
  }
  return readdirSync(ROOT).filter((name) => !ignored.has(name) && statSync(join(ROOT, name)).isDirectory());
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The repository paths a comment names: `folder/...` for a top-level folder of the repository,
 * a bare upper-case Markdown name (a root document such as README.md), and `decision NNNN`.
 */
function referencesIn(comment: string, folders: readonly string[]): { offset: number; path: string }[] {
  const found: { offset: number; path: string }[] = [];
  const paths = new RegExp(`(?<![\\w.@/~$-])(?:${folders.map(escape).join('|')})(?:/[\\w.@*-]+)*/?`, 'g');
  for (const m of comment.matchAll(paths)) found.push({ offset: m.index, path: m[0].replace(/[.-]+$/, '') });
  for (const m of comment.matchAll(/(?<![\w./-])[A-Z][A-Z0-9_-]*\.md\b/g)) {
    if (!AGENT_FILE_NAMES.has(m[0])) found.push({ offset: m.index, path: m[0] });
  }
  for (const m of comment.matchAll(/\bdecisions? (\d{4})\b/gi)) found.push({ offset: m.index, path: `docs/decisions/${m[1]}-*.md` });
  return found.sort((a, b) => a.offset - b.offset);
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(relative(ROOT, full).split(sep).join('/'));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** `*` within one path segment, `**` across segments; a regular expression's `.*` reads as `*`. */
function globToRegExp(glob: string): RegExp {
  const parts = glob.replace(/\.\*/g, '*').split(/(\*\*|\*)/);
  return new RegExp(`^${parts.map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : escape(part))).join('')}$`);
}

/**
 * Output the repository ignores (bench/results/*.json, packages/cli/dist/): named in comments as
 * where a tool writes, so it exists only after a run. A folder that holds only such output counts too.
 */
function isIgnoredOutput(path: string): boolean {
  const bare = path.replace(/\/$/, '');
  return GITIGNORE.some((line) => {
    const pattern = line.replace(/^\//, '').replace(/\/$/, '');
    if (!pattern.includes('/')) return false;
    return globToRegExp(pattern).test(bare) || bare.startsWith(`${pattern}/`) || pattern.startsWith(`${bare}/`);
  });
}

/** Whether a named path exists (or is ignored output); `*` and `**` are globs. */
function pathExists(path: string): boolean {
  if (isIgnoredOutput(path)) return true;
  if (!path.includes('*')) return existsSync(join(ROOT, path));
  const fixed = path.slice(0, path.indexOf('*'));
  const folder = fixed.slice(0, fixed.lastIndexOf('/') + 1);
  const pattern = globToRegExp(path);
  return filesUnder(join(ROOT, folder)).some((file) => pattern.test(file));
}

/** `file:line: path` for every path named in a comment of `file` that does not exist. */
function brokenReferences(file: string, text: string, folders: readonly string[]): string[] {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const out: string[] = [];
  for (const comment of commentsOf(file, text)) {
    for (const ref of referencesIn(comment.text, folders)) {
      if (!pathExists(ref.path)) out.push(`${file}:${lineOf(comment.start + ref.offset)}: ${ref.path}`);
    }
  }
  return out;
}

describe('paths named in comments exist in the repository', () => {
  const folders = repositoryFolders();

  it('finds a missing path in a comment, with its line, and ignores strings and regular expressions', () => {
    const text = [
      "const url = 'see docs/nowhere.md'; // docs/errors.md exists",
      'const re = /docs\\/missing\\/\\/x.md/; const t = `// src/missing.ts ${re.source}`;',
      '/**',
      ' * Reasons: DESIGN.md §3, docs/decisions/0099-nothing.md and decision 0098; SKILL.md is a kind.',
      ' * Fine: docs/decisions/0014-*.md, src/<module>/persistence/, docs/rules.md#bw-rce-001, test/fixtures/**,',
      ' * bench/results/latest.json (ignored output) and README.md. Not fine: bench/nothing.ts.',
      ' */',
      'export const x = [url, t]; // src/gone/away.ts.',
    ].join('\n');
    expect(brokenReferences('src/example.ts', text, folders)).toEqual([
      'src/example.ts:4: DESIGN.md',
      'src/example.ts:4: docs/decisions/0099-nothing.md',
      'src/example.ts:4: docs/decisions/0098-*.md',
      'src/example.ts:6: bench/nothing.ts',
      'src/example.ts:8: src/gone/away.ts',
    ]);
  });

  it('holds for every comment of src/, test/, scripts/ and bench/', () => {
    const files = SCANNED.flatMap((dir) => filesUnder(join(ROOT, dir)))
      .filter((file) => /\.(ts|js)$/.test(file) && !file.endsWith('.d.ts'))
      .filter((file) => !NOT_PROJECT_CODE.some((prefix) => file.startsWith(prefix)));
    expect(files.length).toBeGreaterThan(500);
    const broken = files.flatMap((file) => brokenReferences(file, readFileSync(join(ROOT, file), 'utf8'), folders));
    expect(broken).toEqual([]);
  });
});

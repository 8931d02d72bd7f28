/**
 * Real parse trees for code (docs/decisions/0013-code-parse-trees.md): tree-sitter's WebAssembly
 * runtime and prebuilt grammars from `@vscode/tree-sitter-wasm` (bash, Python, TypeScript for
 * JS/TS, PowerShell). Nothing is downloaded at install or run time: the grammars ship in the package.
 *
 * The runtime's initialisation is asynchronous (WebAssembly instantiation), the rule engine is
 * synchronous. `initCodeParsers()` is started when the analyzer is created and awaited by every
 * asynchronous entry point (scanUpload, the scan worker); a synchronous caller that finds the
 * parsers not ready gets `null` from `parseCode`, and the code layer reports that as an incomplete
 * analysis, never as a clean file.
 *
 * Cost is bounded per parse by work, never by time (docs/decisions/0028-deterministic-analysis-budget.md):
 * tree-sitter calls the progress callback once per 100 parser operations, a count that depends on
 * the input and the grammar only. A parse that goes past PARSE_TICKS_PER_KB callbacks per KB of its
 * input (with a floor) is cancelled, so no chunk's parse runs away, and whether it is cancelled is
 * the same on a quiet machine and a loaded one. The work of parses that meet syntax errors is
 * budgeted per file by the caller (code-facts.ts).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Language as TsLanguage, Node as TsNode, Parser as TsParser, Tree as TsTree } from '@vscode/tree-sitter-wasm';

export type CodeLanguage = 'bash' | 'python' | 'typescript' | 'powershell';
export const CODE_LANGUAGES: readonly CodeLanguage[] = ['bash', 'python', 'typescript', 'powershell'];
export type SyntaxNode = TsNode;
export type SyntaxTree = TsTree;

/**
 * Work budget of one parse, in progress callbacks (one per 100 parser operations) per KB of input.
 * The callback cannot tell a parse with errors from a clean one (this runtime passes `hasError` as
 * false throughout), so the budget sits above the densest valid code: real code takes at most ~18
 * per KB (every chunk of the four evaluation corpora), dense valid code up to ~190 (`1;2;3;…` in
 * PowerShell), runaway error recovery 50-170 per KB at up to ~20 µs per byte. The bound that
 * matters for error recovery is the file's (code-facts.ts, FILE_ERROR_TICKS); this one keeps
 * any single parse linear in its chunk.
 */
export const PARSE_TICKS_PER_KB = 256;
/** Floor of a parse's budget (callbacks), so a one-line chunk is never cancelled. */
export const PARSE_FLOOR_TICKS = 16;

/** The work budget (progress callbacks) of a parse of `chars` characters. */
export function parseBudgetTicks(chars: number): number {
  return Math.max(PARSE_FLOOR_TICKS, Math.ceil((chars * PARSE_TICKS_PER_KB) / 1024));
}

/**
 * The parser reads its input in pieces of this many characters, so how much it reads is counted:
 * a lexer that re-reads the rest of the chunk from every position (a run of NULs, `)`, `>` or `|`
 * in shell) does its work without parser operations, hence without progress callbacks.
 */
const INPUT_PIECE = 256;
/**
 * Characters a parse may read per character of its input. A parse reads each character about
 * twice (lookahead across pieces); the re-reading lexer above reads 300-4,000 times each.
 */
export const PARSE_READS_PER_CHAR = 16;
/** Floor of a parse's reading budget (characters). */
const PARSE_READS_FLOOR = 4 * 1024;

const WARM_UP: Record<CodeLanguage, string> = {
  bash: 'X=1\nif [ "$X" = 1 ]; then curl -o /tmp/a "https://a.test/$X" && bash /tmp/a; fi\necho "${X:-y}" | tee -a f >> g\n'.repeat(20),
  python: 'import os\nU = "https://a.test/" + "x"\nif os.getuid() == 0:\n    data = open(U, "rb").read()\n    print(f"{U} {data!r}")\n'.repeat(20),
  typescript: 'const u = `https://a.test/${x}`;\nif (Date.now() > 5) { fs.rmSync(path.join(os.homedir(), ".x"), { recursive: true }); }\n'.repeat(20),
  powershell: '$d = Join-Path $env:TEMP "a.exe"\nif ((Get-Date).Year -gt 1) { Invoke-WebRequest -Uri "https://a.test" -OutFile $d }\n'.repeat(20),
};

/**
 * Set by scripts/build-cli.ts (esbuild `define`) in the standalone CLI bundle, which ships the
 * runtime and grammar .wasm files in this folder beside itself: there is no node_modules to resolve from.
 */
declare const BULWARK_BUNDLED_GRAMMARS: string | undefined;

const grammarDir = (): string =>
  typeof BULWARK_BUNDLED_GRAMMARS === 'string' ? join(__dirname, BULWARK_BUNDLED_GRAMMARS) : dirname(require.resolve('@vscode/tree-sitter-wasm'));

interface Loaded {
  parser: TsParser;
  languages: Map<CodeLanguage, TsLanguage>;
  /** The language the parser is set to. */
  current?: CodeLanguage;
}

let loaded: Loaded | null = null;
let loading: Promise<void> | null = null;
let failure: string | null = null;

export interface CodeParserOptions {
  /**
   * Parse a snippet of each grammar while loading (default), so a long-lived process's first timed
   * parses do not pay each grammar's first-use cost. A short run (the CLI) skips it: a grammar its
   * files never need then costs nothing, and one they need pays that cost once, at its first parse.
   */
  warmUp?: boolean;
}

/**
 * Starts (once) and awaits loading the runtime and the grammars. Never rejects: a failure is kept
 * and reported. The options of the first call hold for the process.
 */
export function initCodeParsers(options: CodeParserOptions = {}): Promise<void> {
  if (hidden) {
    // A test hid the parsers: an awaiting caller gets them back, as it would once loading ends.
    loaded = hidden;
    hidden = null;
  }
  loading ??= (async () => {
    try {
      // WebAssembly on V8's baseline compiler only. By default V8 also recompiles the grammars with
      // its optimising compiler on background threads: ~13 s of CPU per process (per scan worker),
      // and a CLI run held its exit for 20-30 s until that finished. Parses measured no slower.
      setFlagsFromString('--liftoff-only');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const ts = require('@vscode/tree-sitter-wasm') as typeof import('@vscode/tree-sitter-wasm');
      const dir = grammarDir();
      await ts.Parser.init({ locateFile: (file: string) => join(dir, file) });
      const languages = new Map<CodeLanguage, TsLanguage>();
      for (const lang of CODE_LANGUAGES) languages.set(lang, await ts.Language.load(readFileSync(join(dir, `tree-sitter-${lang}.wasm`))));
      const parser = new ts.Parser();
      // The first parses of a grammar run before the WebAssembly is optimised: pay them here, untimed.
      if (options.warmUp !== false) {
        for (const [lang, language] of languages) {
          parser.setLanguage(language);
          for (let k = 0; k < 3; k++) parser.parse(WARM_UP[lang])?.delete();
        }
      }
      loaded = { parser, languages };
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    }
  })();
  return loading;
}

/** Whether `parseCode` can run now. */
export function codeParsersReady(): boolean {
  return loaded !== null;
}

/** Why the parsers could not be loaded, if they could not. */
export function codeParserFailure(): string | null {
  return failure;
}

/**
 * A parse's outcome. `errorTicks` is the work (progress callbacks) spent in a parse that met syntax
 * errors, which the caller budgets per file (a cancelled parse counts its whole budget); a clean
 * parse counts nothing there.
 */
export type ParseOutcome = { tree: SyntaxTree; ticks: number; errorTicks: number } | { error: 'not_ready' | 'cancelled'; ticks: number; errorTicks: number };

/**
 * Parses one chunk synchronously. The caller must `tree.delete()` the result. A parse that goes
 * past its work budget (`parseBudgetTicks`, or `budget` when given) or reads more than
 * PARSE_READS_PER_CHAR times its input stops (`cancelled`). The outcome
 * and the work counted depend on the text alone, never on the clock. A caller before
 * initialisation gets `not_ready`.
 */
export function parseCode(lang: CodeLanguage, text: string, budget = parseBudgetTicks(text.length)): ParseOutcome {
  if (!loaded) return { error: 'not_ready', ticks: 0, errorTicks: 0 };
  const language = loaded.languages.get(lang);
  if (!language) return { error: 'not_ready', ticks: 0, errorTicks: 0 };
  const { parser } = loaded;
  // Setting a language resets the parser and re-creates the grammar's external scanner: only on a change.
  if (loaded.current !== lang) {
    parser.setLanguage(language);
    loaded.current = lang;
  }
  let ticks = 0;
  // Reading is counted during the parse; afterwards the tree reads node text from the same
  // callback, in one piece, as it does for a string input.
  let parsing = true;
  let read = 0;
  let overRead = false;
  const readBudget = Math.max(PARSE_READS_FLOOR, text.length * PARSE_READS_PER_CHAR);
  const input = (index: number): string => {
    if (!parsing) return text.slice(index);
    if (overRead) return '';
    const piece = text.slice(index, index + INPUT_PIECE);
    read += piece.length;
    // Past the budget the input ends here: the parse stops soon after, and is reported cancelled.
    if (read > readBudget) overRead = true;
    return overRead ? '' : piece;
  };
  let tree: SyntaxTree | null;
  try {
    tree = parser.parse(input, null, { progressCallback: () => ++ticks > budget || overRead });
  } finally {
    parsing = false;
    parser.reset();
  }
  if (tree && overRead) {
    tree.delete();
    tree = null;
  }
  // A cancelled parse is charged its whole budget: a file of chunks that never finish runs out of
  // its own budget after a sixteenth of its size, whichever way they were stopped.
  if (!tree) return { error: 'cancelled', ticks, errorTicks: Math.max(ticks, budget) };
  return { tree, ticks, errorTicks: tree.rootNode.hasError ? ticks : 0 };
}

let hidden: Loaded | null = null;
/** For tests: make the loaded parsers unavailable (as before start-up finished), or available again. */
export function hideCodeParsersForTest(hide: boolean): void {
  if (hide && loaded) {
    hidden = loaded;
    loaded = null;
  } else if (!hide && hidden) {
    loaded = hidden;
    hidden = null;
  }
}

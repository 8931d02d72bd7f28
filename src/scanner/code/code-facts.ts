/**
 * Code facts from real parse trees: every command or call of a file's code, with its arguments
 * resolved to constant strings where the code makes them constant (assignments, concatenation,
 * `${VAR:-default}`, f-strings, arrays joined, path joins, home and temp folders), the conditions
 * that guard it, and its line in the upload. A shell string handed to subprocess/os.system/execSync
 * is read as the commands it runs; loop variables take their list's first value, a call of a
 * function defined here is resolved with its arguments bound, and decoding calls on constants are
 * evaluated (code-decode.ts). Computed once per file (`codeFactsOf`) and shared by the code rules
 * (BW-RCE-006, BW-DES-004, BW-DES-005, BW-PRIV-006, BW-PRIV-007, BW-EXF-008, BW-OBF-004).
 *
 * Cost: only chunks that mention a word of the code lexicons are parsed; each parse has a work
 * budget proportional to its size (tree-sitter.ts) and the file fixed budgets for all its parses
 * and for those with syntax errors; all count parser operations, never time, so the facts of a
 * file are the same on any machine under any load (docs/decisions/0028-deterministic-analysis-budget.md,
 * docs/decisions/0029-code-layer-work-per-file.md). A chunk whose tree is mostly error nodes
 * is not walked. A chunk that could not be parsed makes `incomplete` say so.
 */
import { codeLexicon } from '../lexicons/lexicon';
import type { ScanContext } from '../views/scan-context';
import { codeChunksOf, type CodeChunk } from './code-units';
import { asText, decodeStep, xorBytes, type DecodeStep } from './code-decode';
import { formatTemplate, fromCodes, intOf, percentFormat, sliceItems, sliceOf } from './code-idioms';
import { parseBudgetTicks, parseCode, type CodeLanguage, type SyntaxNode, type SyntaxTree } from './tree-sitter';
import { literalPattern } from '../engine/literal-pattern';

export interface CodeCall {
  /** 1-based line in the upload. */
  line: number;
  /** Command or callee, lower-cased: a shell command's base name, a call's dotted name. */
  name: string;
  /** Arguments resolved to strings (unresolvable parts keep their source text). */
  args: string[];
  /** Source text of the call, bounded. */
  text: string;
  /** Resolved text of every condition guarding the call, with the definitions of the variables it reads. */
  conds: string[];
  unit: number;
  origin: CodeChunk['origin'];
  /** Run with sudo (shell). */
  sudo: boolean;
  /** A redirect of the command's output: `>`/`>>` and the file. */
  redirects: string[];
  /** Text the code decoded (base64, hex, XOR …) that reaches this call's arguments, if any. */
  decoded?: string;
  /**
   * The callee was reached through a name the code assembles at run time (`getattr(m, "sys" + "tem")`,
   * `fs[["rm", "Sync"].join("")]`, `__import__("o" + "s")`): the source text of that lookup. `name` is
   * then the real callee.
   */
  builtName?: string;
}

export interface CodeFacts {
  calls: CodeCall[];
  /** Why part of the code was not analysed (not ready, cancelled parse, budget), or null. */
  incomplete: string | null;
  /**
   * Network addresses the code builds (reversed, joined from pieces, from character codes, formatted)
   * whose host is written nowhere in the file: a destination hidden from whoever reads it.
   */
  hiddenHosts?: HiddenHost[];
}

export interface HiddenHost {
  line: number;
  host: string;
  /** The resolved address. */
  url: string;
  /** Source text of the expression that builds it, bounded. */
  text: string;
}

/**
 * Parser work (tree-sitter progress callbacks, one per 100 parser operations) one file may spend
 * in all, and the part of it spent in parses that met syntax errors (or were cancelled); past
 * either the remaining chunks are reported as not analysed. Fixed, not per KB, so that 250 KB of
 * code costs a bounded time here whatever it holds. Every real file of the evaluation corpora and
 * of 28 public agent-file repositories (4,245 files) needs at most 344 callbacks (half the first
 * budget) and 213 with errors (docs/decisions/0029-code-layer-work-per-file.md,
 * docs/decisions/0034-code-parse-budget-at-twice-the-largest-real-file.md).
 */
export const FILE_PARSE_TICKS = 688;
export const FILE_ERROR_TICKS = 512;
/** A tree whose error nodes cover more than this share of the chunk is not walked. */
const MAX_ERROR_SHARE = 0.5;
const TEXT_MAX = 300;
/**
 * Calls recorded per file: bounds the walk (a chunk repeated through a file is parsed once but
 * walked at each occurrence) and memory. Real files record at most 184 (the 4,245 files above); a
 * file past it is reported as not fully analysed, never cut short silently (decision 0034 above).
 */
export const MAX_CALLS = 2048;
/** Longest value a resolved constant may have (a chunk is at most 8 KB, so no real constant is longer). */
const MAX_RESOLVED = 8 * 1024;
/** Elements kept of a list literal assigned to a variable. */
const MAX_LIST = 64;

const memo = new WeakMap<ScanContext, CodeFacts>();

/** Calls that send a body out (`requests.post`, `httpx.put`, `socket.sendall`): recorded so flows can reach them. */
const SEND_CALLEES = ['post', 'put', 'patch', 'sendall', 'upload', 'upload_file'];
/** What a chunk holding such a call contains. */
const SEND_TRIGGERS = ['.post(', '.put(', '.patch(', 'sendall(', 'upload_file(', '.upload('];

/**
 * What a chunk that reaches a callee by a name it builds holds: a dynamic lookup (`getattr(`,
 * `__import__(`, `globals()[`, a computed member call `obj[k](`) or a reversed or char-coded name.
 */
const LOOKUP_TRIGGERS = [
  'getattr(',
  '__import__',
  'import_module',
  '__builtins__',
  'globals()',
  'globalthis[',
  '](',
  'require([',
  '].join(',
  '[::-1]',
  '.reverse()',
  'fromcharcode',
  'chr(',
];

let triggers: RegExp | null = null;
/** One pattern of lower-case literals, one of which a chunk must contain to be worth parsing: the code lexicons' entries as written. */
function chunkTriggers(): RegExp {
  if (!triggers) {
    const words = new Set<string>([
      'rm -',
      'git push',
      'clone',
      'chmod',
      'pip install',
      'hooks',
      'remove(',
      'unlink(',
      'alias sudo',
      'dig ',
      'git commit',
      'git tag',
      'git notes',
      'git remote',
      'gh issue',
      'gh pr ',
      'gh gist',
      'gh release',
      'gh api',
      '"commit"',
      "'commit'",
      ...SEND_TRIGGERS,
      ...DECODER_TRIGGERS,
      ...LOOKUP_TRIGGERS,
    ]);
    for (const cls of [
      'code-fetch-tool',
      'code-unsafe-loader',
      'code-destroy',
      'code-tamper-target',
      'code-persist-location',
      'code-covert-sink',
      'code-network-sink',
    ] as const) {
      for (const w of codeLexicon(cls)) if (w.length >= (cls === 'code-tamper-target' ? 3 : cls === 'code-covert-sink' ? 5 : 4)) words.add(w);
    }
    // Literal alternatives only: no quantifier, so the scan is linear.
    triggers = literalPattern(words, 'i');
  }
  return triggers;
}

function worthParsing(text: string): boolean {
  return chunkTriggers().test(text);
}

let relevant: ReadonlySet<string> | null = null;
/** Last parts of the callee names a Python or JS call must have to be recorded (shell commands are all kept): what runs, fetches, sends, deletes or writes. */
export function relevantCallee(name: string): boolean {
  if (!relevant) {
    const set = new Set<string>([
      'open',
      'write',
      'writefile',
      'writefilesync',
      'createwritestream',
      'system',
      'popen',
      'run',
      'call',
      'check_call',
      'check_output',
      'execsync',
      'exec',
      'eval',
      'compile',
      'spawn',
      'spawnsync',
      'execfilesync',
      'remove',
      'unlink',
      'rmdir',
      'rm',
      ...SEND_CALLEES,
    ]);
    for (const cls of ['code-fetch-tool', 'code-unsafe-loader', 'code-destroy', 'code-interpreter', 'code-covert-sink', 'code-network-sink'] as const)
      for (const w of codeLexicon(cls)) set.add(w.slice(w.lastIndexOf('.') + 1));
    relevant = set;
  }
  return relevant.has(name.slice(name.lastIndexOf('.') + 1));
}

function bounded(s: string): string {
  return s.length > TEXT_MAX ? s.slice(0, TEXT_MAX) : s;
}

const VAR_REF = /\$\{?([A-Za-z_]\w{0,60})(?::?[-=]([^}\n]{0,200}))?\}?/g;
const HOME_WORDS = /^(?:home|userprofile)$/i;
const LOOP_VAR = /^[A-Za-z_]\w{0,60}$/;
/** A value naming a place beyond the project: the root, a home folder, a URL. */
const PLACE_VALUE = /^(?:~|\/|\$HOME\b|\$\{HOME\}|[a-z][a-z\d+.-]{0,20}:\/\/)/i;
/** A repository's history or a key folder, wherever it sits: removing it is broad (code-effects.ts). */
export const HISTORY_OR_KEY_FOLDER = /(?:^|[/\\])\.(?:git|ssh|gnupg|aws)$/i;
/** A call that adds one element to a named list: group 1 is the list's name. */
const APPEND_CALLEE = /^([A-Za-z_]\w{0,60})\.(?:append|push)$/;
const TEMP_WORDS = /^(?:tmp|temp|tmpdir)$/i;

/** `${!NAME}`: the variable whose name NAME holds (bash indirect expansion). */
const INDIRECT_REF = /\$\{!([A-Za-z_]\w{0,60})(?::?[-=][^}\n]{0,200})?\}/g;
const SHELL_NAME = /^[A-Za-z_]\w{0,60}$/;
/** A quote or a `$`: what expandShell changes. */
const SHELL_SPECIAL = /["'$]/;

/** Shell-style text with quotes removed and `$VAR`/`${VAR:-d}` replaced from the constants; `${!V}` reads as the variable V names. */
function expandShell(text: string, consts: Map<string, string>): string {
  // Most words have no quote and no expansion: nothing to remove or replace, so no copy is made.
  if (!SHELL_SPECIAL.test(text)) return text;
  let unquoted = text.replace(/["']/g, '');
  if (unquoted.includes('${!'))
    unquoted = unquoted.replace(INDIRECT_REF, (whole, name: string) => {
      const target = consts.get(name);
      return target !== undefined && SHELL_NAME.test(target) ? `\${${target}}` : whole;
    });
  // Expansions stop adding once the result is at MAX_RESOLVED: `a=$b$b$b…` must not multiply text.
  let room = MAX_RESOLVED;
  return unquoted.replace(VAR_REF, (whole, name: string, dflt: string | undefined) => {
    const known = consts.get(name);
    const value = known ?? (HOME_WORDS.test(name) ? '~' : TEMP_WORDS.test(name) ? '/tmp' : (dflt ?? whole));
    const kept = room > 0 ? value.slice(0, room) : '';
    room -= kept.length;
    return kept;
  });
}

interface WalkState {
  chunk: CodeChunk;
  consts: Map<string, string>;
  /** Raw right-hand side of each assignment, so a condition's variables carry where they came from. */
  defs: Map<string, string>;
  /** The elements of each variable assigned a list literal (bounded), for indexing and loops over it. */
  lists: Map<string, string[]>;
  /** What each function defined in the code returns (its last return statement, resolved), by lower-cased name. */
  returns: Map<string, string>;
  /** Functions of the chunk being walked: parameters and returned expression, re-resolved per call with the arguments bound. */
  fnDefs: Map<string, { params: string[]; ret: SyntaxNode }>;
  /** Texts decoded so far in this unit (bounded), so calls whose arguments carry one are marked. */
  decoded: string[];
  /** Variables bound to a function or module reached by a dynamic lookup (`purge = getattr(shutil, k)`), by name. */
  aliases?: Map<string, Callee>;
  /** Count of parts `resolve` could not make constant (identifiers it does not know, expressions it does not evaluate). */
  unresolved?: number;
  calls: CodeCall[];
}

function lineOf(state: WalkState, node: SyntaxNode): number {
  return state.chunk.lines[node.startPosition.row] ?? state.chunk.lines[state.chunk.lines.length - 1] ?? 1;
}

function calleeName(node: SyntaxNode | null): string {
  if (!node) return '';
  return node.text.replace(/\s+/g, '').toLowerCase().slice(0, 120);
}

/**
 * A node's value as a constant string, at most MAX_RESOLVED characters: every step of a
 * concatenation, join or expansion is capped, so `s = s + s` repeated cannot grow a value
 * exponentially (each value costs at most a constant to build).
 */
function resolve(node: SyntaxNode | null, state: WalkState, depth = 0): string {
  const value = resolveUncapped(node, state, depth);
  return value.length > MAX_RESOLVED ? value.slice(0, MAX_RESOLVED) : value;
}

/** Resolved parts joined, stopping once MAX_RESOLVED is reached (a list of a thousand references to one long value builds nothing past it). */
function joinCapped(nodes: readonly (SyntaxNode | null)[], state: WalkState, depth: number, sep: string): string {
  let out = '';
  for (const n of nodes) {
    if (out.length >= MAX_RESOLVED) break;
    out += (out === '' ? '' : sep) + resolve(n, state, depth);
  }
  return out;
}

function resolveUncapped(node: SyntaxNode | null, state: WalkState, depth: number): string {
  if (!node || depth > 8) return '';
  const lang = state.chunk.lang;
  // A shell word is its text expanded, whatever its type (reading the type costs a call into WebAssembly).
  if (lang === 'bash') return expandShell(node.text, state.consts);
  const t = node.type;
  if (lang === 'powershell') {
    if (t === 'variable') {
      const name = node.text.replace(/^\$/, '').replace(/^env:/i, '');
      return state.consts.get(name.toLowerCase()) ?? (HOME_WORDS.test(name) ? '~' : TEMP_WORDS.test(name) ? '/tmp' : node.text);
    }
    if (t === 'command') {
      // Join-Path a b
      const name = calleeName(node.childForFieldName('command_name'));
      const args = psArgs(node, state, depth + 1);
      if (name === 'join-path') return args.filter((a) => !a.startsWith('-')).join('/');
    }
    if (node.namedChildCount === 1 && !/string/.test(t)) {
      // The grammar wraps a value in a dozen single-child expression levels (pipeline, logical,
      // bitwise … unary): they are passed in one loop, not counted as nesting, or every assigned
      // value ran past the depth bound and read as empty.
      let inner: SyntaxNode | null = node.namedChild(0);
      for (let k = 0; k < PS_WRAPPERS_MAX && inner && inner.namedChildCount === 1 && !/string|variable|command/.test(inner.type); k++)
        inner = inner.namedChild(0);
      return resolve(inner, state, depth + 1);
    }
    return expandShell(node.text, state.consts);
  }
  switch (t) {
    case 'string':
    case 'template_string': {
      let out = '';
      for (const c of node.namedChildren) {
        if (!c || out.length >= MAX_RESOLVED) continue;
        if (c.type === 'string_content' || c.type === 'string_fragment' || c.type === 'escape_sequence') out += c.text;
        else if (c.type === 'interpolation' || c.type === 'template_substitution') out += resolve(c.namedChild(0), state, depth + 1);
      }
      return out;
    }
    case 'identifier': {
      const known = state.consts.get(node.text);
      if (known === undefined) unresolvedPart(state);
      return known ?? node.text;
    }
    case 'concatenated_string':
      // `("abc" "def")`: adjacent literals are one string.
      return joinCapped(node.namedChildren, state, depth + 1, '');
    case 'subscript':
    case 'subscript_expression': {
      // `PARTS[1]` of a known list is that element; `"…"[::-1]` is the value reversed; a slice of
      // a known value carries the value (`key[:400]`); `os.environ["X"]` keeps its text.
      const base = node.childForFieldName(t === 'subscript' ? 'value' : 'object');
      const index = node.childForFieldName(t === 'subscript' ? 'subscript' : 'index');
      const element = base && index && LIST_INDEX.test(index.text) ? state.lists.get(base.text)?.[Number(index.text)] : undefined;
      if (element !== undefined) return element;
      if (base && index?.type === 'slice') {
        const before = state.unresolved ?? 0;
        const list = base.type === 'identifier' ? state.lists.get(base.text) : undefined;
        const value = list ? null : resolve(base, state, depth + 1);
        const sliced = list ? (sliceItems(list, index.text)?.join(' ') ?? null) : (state.unresolved ?? 0) === before ? sliceOf(value!, index.text) : null;
        if (sliced !== null) return sliced;
      }
      if (base?.type === 'identifier' && state.consts.has(base.text)) return resolve(base, state, depth + 1);
      unresolvedPart(state);
      return bounded(node.text);
    }
    case 'binary_operator':
    case 'binary_expression': {
      const op = node.childForFieldName('operator')?.text;
      if (op === '+') return resolve(node.childForFieldName('left'), state, depth + 1) + resolve(node.childForFieldName('right'), state, depth + 1);
      // pathlib joins with `/`: `Path.home() / ".bashrc"`.
      if (op === '/' && lang === 'python')
        return `${resolve(node.childForFieldName('left'), state, depth + 1)}/${resolve(node.childForFieldName('right'), state, depth + 1)}`;
      // `"%s%s" % (a, b)`: a printf-style template filled in.
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (op === '%' && lang === 'python' && left?.type === 'string' && right) {
        const values = right.type === 'tuple' ? right.namedChildren.map((c) => resolve(c, state, depth + 1)) : [resolve(right, state, depth + 1)];
        const filled = percentFormat(resolve(left, state, depth + 1), values);
        if (filled !== null) return filled;
      }
      unresolvedPart(state);
      return bounded(node.text);
    }
    case 'parenthesized_expression':
      return resolve(node.namedChild(0), state, depth + 1);
    case 'list':
    case 'tuple':
    case 'array':
      return joinCapped(node.namedChildren, state, depth + 1, ' ');
    case 'call':
    case 'call_expression': {
      const fn = calleeName(node.childForFieldName('function'));
      const argsNode = node.childForFieldName('arguments');
      // `f(x for x in y)`: a lone generator is the arguments node itself.
      const args =
        argsNode?.type === 'generator_expression'
          ? [argsNode]
          : (argsNode?.namedChildren ?? []).filter((c) => c && c.type !== 'keyword_argument' && c.type !== 'object');
      if (/(?:^|\.)(?:homedir|home|expanduser)$/.test(fn)) return args.length > 0 ? resolve(args[0], state, depth + 1) : '~';
      if (/(?:^|\.)(?:tmpdir|gettempdir)$/.test(fn)) return '/tmp';
      if (/(?:^|\.)(?:join|resolve)$/.test(fn) && /path/.test(fn)) return joinCapped(args, state, depth + 1, '/');
      if (/^(?:pathlib\.)?(?:pure)?(?:posix)?path$/.test(fn) && args.length > 0) return joinCapped(args, state, depth + 1, '/');
      const decoded = resolveDecoding(node, fn, args, state, depth);
      if (decoded !== null) return decoded;
      const idiom = resolveIdiom(node, fn, args, state, depth);
      if (idiom !== null) return idiom;
      const def = state.fnDefs.get(fn);
      if (def && depth < 6)
        return withBound(
          state,
          def.params,
          args.map((a) => resolve(a, state, depth + 1)),
          () => resolve(def.ret, state, depth + 1),
        );
      // A function of this code returns what its return statement resolved to.
      const returned = state.returns.get(fn);
      if (returned === undefined) unresolvedPart(state);
      return returned ?? bounded(node.text);
    }
    default:
      unresolvedPart(state);
      return bounded(node.text);
  }
}

/** An address in a resolved value: group 1 is its host. */
const URL_HOST = /\bhttps?:\/\/([\w-]{1,63}(?:\.[\w-]{1,63}){1,8})/i;
/** Addresses built at run time kept per file for the hidden-host check (each costs a pass over the file). */
const MAX_BUILT_HOSTS = 16;
/**
 * Addresses the walk saw built, by the file's call list (the one array every unit's walk state
 * shares with the file's facts), until `codeFactsOf` checks them against the file's text.
 */
const builtHosts = new WeakMap<CodeCall[], HiddenHost[]>();

const IP_HOST = /^\d{1,3}(?:\.\d{1,3}){3}$/;
/** What of a host the file must spell for the host not to be hidden: an IP whole, a name's last two labels (`api.vendor.example` for `eu.api.vendor.example` built from a region). */
function hostKey(host: string): string {
  if (IP_HOST.test(host)) return host;
  const labels = host.split('.');
  return labels.slice(-2).join('.');
}

/**
 * Notes an address an expression builds: not one literal, resolved whole (no unknown part), with
 * a host. Whether the host is written elsewhere in the file is checked once the file is walked.
 */
function noteBuiltHost(node: SyntaxNode, value: string, fullyResolved: boolean, state: WalkState): void {
  if (!fullyResolved || node.type === 'string' || node.type === 'identifier' || !value.includes('://')) return;
  if (node.type === 'template_string' && !node.namedChildren.some((c) => c?.type === 'template_substitution')) return;
  const m = URL_HOST.exec(value);
  if (!m) return;
  let list = builtHosts.get(state.calls);
  if (!list) builtHosts.set(state.calls, (list = []));
  const host = m[1].toLowerCase();
  if (list.length >= MAX_BUILT_HOSTS || list.some((h) => h.host === host)) return;
  list.push({ line: lineOf(state, node), host, url: m[0], text: bounded(node.text) });
}

/** Single-child expression levels passed at once when resolving a PowerShell value. */
const PS_WRAPPERS_MAX = 32;

function unresolvedPart(state: WalkState): void {
  state.unresolved = (state.unresolved ?? 0) + 1;
}

/** Elements kept of a list an idiom builds (characters of a string, codes of an array). */
const MAX_ITEMS = 4096;
/** Elements of a list held in a variable that a comprehension walks (each costs a resolution of its body). */
const MAX_WALKED = 256;
/** Comprehension elements evaluated per file, in all: each is a walk of its body in the tree, so the total is bounded. */
const COMPREHENSION_BUDGET = 4096;
let comprehensionRoom = COMPREHENSION_BUDGET;

function positionalArgs(argsNode: SyntaxNode | null): SyntaxNode[] {
  if (!argsNode) return [];
  if (argsNode.type === 'generator_expression') return [argsNode];
  return argsNode.namedChildren.filter((c): c is SyntaxNode => c !== null && c.type !== 'keyword_argument' && c.type !== 'comment');
}

function memberObject(fnNode: SyntaxNode | null): SyntaxNode | null {
  return fnNode && (fnNode.type === 'attribute' || fnNode.type === 'member_expression') ? fnNode.childForFieldName('object') : null;
}

/**
 * A node's value as a list of strings, where the code makes it one: a list literal (with spreads),
 * the characters of a string, a comprehension over a spelled-out list, `reversed(x)`, `list(x)`,
 * `Array.from(x)`, `x.split(s)`, `x.reverse()`, `map(chr, codes)`, a slice of a list; else null.
 */
function listOf(node: SyntaxNode | null, state: WalkState, depth: number): string[] | null {
  if (!node || depth > 8) return null;
  switch (node.type) {
    case 'list':
    case 'tuple':
    case 'array': {
      const numbers = numbersOf(node);
      if (numbers) return numbers;
      const out: string[] = [];
      for (const c of node.namedChildren) {
        if (!c || c.type === 'comment') continue;
        if (out.length >= MAX_ITEMS) break;
        if (c.type === 'spread_element' || c.type === 'list_splat') {
          const inner = listOf(c.namedChild(0), state, depth + 1);
          if (!inner) return null;
          out.push(...inner.slice(0, MAX_ITEMS - out.length));
        } else out.push(resolve(c, state, depth + 1));
      }
      return out;
    }
    case 'string':
    case 'template_string':
    case 'concatenated_string':
      return [...resolve(node, state, depth + 1)].slice(0, MAX_ITEMS);
    case 'identifier': {
      const list = state.lists.get(node.text);
      if (list) return list;
      const value = state.consts.get(node.text);
      return value === undefined ? null : [...value].slice(0, MAX_ITEMS);
    }
    case 'parenthesized_expression':
      return listOf(node.namedChild(0), state, depth + 1);
    case 'generator_expression':
    case 'list_comprehension':
      return comprehensionValues(node, state);
    case 'subscript': {
      const index = node.childForFieldName('subscript');
      const items = index?.type === 'slice' ? listOf(node.childForFieldName('value'), state, depth + 1) : null;
      return items && index ? sliceItems(items, index.text) : null;
    }
    case 'call':
    case 'call_expression': {
      const fnNode = node.childForFieldName('function');
      const fn = calleeName(fnNode);
      const args = positionalArgs(node.childForFieldName('arguments'));
      const last = fn.slice(fn.lastIndexOf('.') + 1);
      const obj = memberObject(fnNode);
      if ((fn === 'reversed' || fn === 'list' || fn === 'tuple' || fn === 'array.from') && args.length === 1) {
        const items = listOf(args[0], state, depth + 1);
        return items && fn === 'reversed' ? items.slice().reverse() : items;
      }
      if (fn === 'map' && args.length === 2 && calleeName(args[0]) === 'chr')
        return listOf(args[1], state, depth + 1)?.map((v) => fromCodes([intOf(v)]) ?? v) ?? null;
      if (obj && last === 'reverse' && args.length === 0)
        return (
          listOf(obj, state, depth + 1)
            ?.slice()
            .reverse() ?? null
        );
      if (obj && last === 'split' && args.length <= 1) {
        const value = resolve(obj, state, depth + 1);
        if (args.length === 0) return state.chunk.lang === 'python' ? value.split(/\s+/).filter((w) => w !== '') : [value];
        if (args[0].type !== 'string' && args[0].type !== 'identifier') return null;
        return value.split(resolve(args[0], state, depth + 1)).slice(0, MAX_ITEMS);
      }
      return null;
    }
    default:
      return null;
  }
}

/** A list literal of integers only (`[104, 0x69, …]`): one text, no comments or nesting. */
const NUMBER_LIST = /^[[(]\s*(?:(?:0x[0-9a-f]{1,8}|\d{1,10})\s*,\s*)*(?:(?:0x[0-9a-f]{1,8}|\d{1,10})\s*)?[\])]$/i;

/** The elements of a list literal of integers, read from its text (one call into the tree, however long the list), or null. */
function numbersOf(node: SyntaxNode): string[] | null {
  const text = node.text;
  if (text.length > MAX_RESOLVED || !NUMBER_LIST.test(text)) return null;
  return text
    .slice(1, -1)
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w !== '')
    .slice(0, MAX_ITEMS);
}

/** Numbers as the code spells them (`104`, `0x68`, a constant), or null. */
function codesOf(nodes: readonly SyntaxNode[], state: WalkState, depth: number): (number | null)[] {
  const out: (number | null)[] = [];
  for (const n of nodes) {
    if (out.length >= MAX_ITEMS) break;
    if (n.type === 'spread_element' || n.type === 'list_splat') out.push(...(listOf(n.namedChild(0), state, depth + 1) ?? ['x']).map(intOf));
    else out.push(intOf(resolve(n, state, depth + 1)));
  }
  return out;
}

/**
 * String-building idioms on constants: `sep.join(items)` / `items.join(sep)`, `"{}".format(…)`,
 * `chr(n)`, `String.fromCharCode(…)`, `bytes([…])`, `Buffer.from([…])`, `reversed(s)`, `str(x)`,
 * `.replace(a, b)`, `.concat(…)`, case changes and trims; null for any other call.
 */
function resolveIdiom(node: SyntaxNode, fn: string, args: (SyntaxNode | null)[], state: WalkState, depth: number): string | null {
  const fnNode = node.childForFieldName('function');
  const obj = memberObject(fnNode);
  const last = fn.slice(fn.lastIndexOf('.') + 1);
  const given = args.filter((a): a is SyntaxNode => a !== null);
  const python = state.chunk.lang === 'python';
  switch (last) {
    case 'join': {
      if (!obj) return null;
      if (python) {
        const items = given.length === 1 ? listOf(given[0], state, depth + 1) : null;
        return items ? items.join(resolve(obj, state, depth + 1)) : null;
      }
      // In JavaScript a string has no join: a name holding one is not a list.
      const items = obj.type === 'identifier' && !state.lists.has(obj.text) ? null : listOf(obj, state, depth + 1);
      return items ? items.join(given.length > 0 ? resolve(given[0], state, depth + 1) : ',') : null;
    }
    case 'format': {
      if (!python || obj?.type !== 'string') return null;
      const named = new Map<string, string>();
      for (const a of node.childForFieldName('arguments')?.namedChildren ?? [])
        if (a?.type === 'keyword_argument') named.set(a.childForFieldName('name')?.text ?? '', resolve(a.childForFieldName('value'), state, depth + 1));
      return formatTemplate(
        resolve(obj, state, depth + 1),
        given.map((a) => resolve(a, state, depth + 1)),
        named,
      );
    }
    case 'fromcharcode':
    case 'fromcodepoint':
      return fn === 'string.fromcharcode' || fn === 'string.fromcodepoint' ? fromCodes(codesOf(given, state, depth)) : null;
    case 'chr':
      return fn === 'chr' && given.length === 1 ? fromCodes(codesOf(given, state, depth)) : null;
    case 'bytes':
    case 'bytearray':
    case 'from': {
      if (fn !== 'bytes' && fn !== 'bytearray' && fn !== 'buffer.from') return null;
      const list = given.length === 1 && (given[0].type === 'list' || given[0].type === 'array') ? given[0] : null;
      return list
        ? fromCodes(
            codesOf(
              list.namedChildren.filter((c): c is SyntaxNode => c !== null),
              state,
              depth,
            ),
          )
        : null;
    }
    case 'reversed':
      return fn === 'reversed' && given.length === 1
        ? (listOf(given[0], state, depth + 1)
            ?.reverse()
            .join('') ?? null)
        : null;
    case 'str':
    case 'string':
      return (fn === 'str' || fn === 'string') && given.length === 1 ? resolve(given[0], state, depth + 1) : null;
    case 'replace':
    case 'replaceall': {
      if (!obj || given.length !== 2 || given[0].type !== 'string') return null;
      const value = resolve(obj, state, depth + 1);
      const from = resolve(given[0], state, depth + 1);
      const to = resolve(given[1], state, depth + 1);
      if (from === '') return null;
      return (python || last === 'replaceall' ? value.split(from).join(to) : value.replace(from, () => to)).slice(0, MAX_RESOLVED);
    }
    case 'concat':
      return obj && (obj.type === 'string' || obj.type === 'identifier')
        ? resolve(obj, state, depth + 1) + given.map((a) => resolve(a, state, depth + 1)).join('')
        : null;
    case 'lower':
    case 'tolowercase':
      return obj && given.length === 0 ? resolve(obj, state, depth + 1).toLowerCase() : null;
    case 'upper':
    case 'touppercase':
      return obj && given.length === 0 ? resolve(obj, state, depth + 1).toUpperCase() : null;
    case 'strip':
    case 'trim':
      return obj && given.length === 0 ? resolve(obj, state, depth + 1).trim() : null;
    default:
      return null;
  }
}

/** Literals that make a chunk worth parsing for its decoding calls (the callees below). */
export const DECODER_TRIGGERS: readonly string[] = [
  'b64decode',
  'b32decode',
  'b85decode',
  'decodebytes',
  'a2b_base64',
  'fromhex',
  'unhexlify',
  'a2b_hex',
  'frombase64string',
  'atob(',
  'decompress',
  'inflatesync',
  'gunzipsync',
  'codecs.decode',
  "'base64'",
  '"base64"',
];
/**
 * Callees that decode their first argument, by the last part of their name. Maps, not objects,
 * here and below: the keys come from the scanned code, and `x.constructor(…)` must not find
 * Object's constructor (it threw, and the file's code went unanalysed).
 */
const DECODER_CALLEES = new Map<string, DecodeStep>(
  Object.entries({
    b64decode: 'base64',
    urlsafe_b64decode: 'base64',
    standard_b64decode: 'base64',
    decodebytes: 'base64',
    a2b_base64: 'base64',
    atob: 'base64',
    frombase64string: 'base64',
    b32decode: 'base32',
    b85decode: 'base85',
    fromhex: 'hex',
    unhexlify: 'hex',
    a2b_hex: 'hex',
  } satisfies Record<string, DecodeStep>),
);
/** A second argument naming the encoding: `codecs.decode(x, "rot13")`, `Buffer.from(x, "base64")`. */
const ENCODING_ARG = new Map<string, DecodeStep>(
  Object.entries({
    rot13: 'rot13',
    rot_13: 'rot13',
    hex: 'hex',
    base64: 'base64',
    base64url: 'base64',
    zlib: 'zlib',
    'utf-16': 'utf16le',
    'utf-16le': 'utf16le',
    utf16le: 'utf16le',
    ucs2: 'utf16le',
  } satisfies Record<string, DecodeStep>),
);
/** zlib, raw deflate and gzip decompressors: the zlib step tries all three containers. */
const DECOMPRESS_CALLEE = /(?:^|\.)(?:decompress|inflatesync|inflaterawsync|unzipsync|gunzipsync)$/;
const NUMBER_WORD = /^(?:\d|0x)/i;
const LIST_INDEX = /^\d{1,4}$/;
/** The operands of an XOR (`b ^ KEY`, `0x5a ^ b`): whichever is a constant byte is the key. */
const XOR_RIGHT = /\^\s{0,3}([A-Za-z_]\w{0,40}|0x[0-9a-fA-F]{1,2}|\d{1,3})\b/;
const XOR_LEFT = /\b([A-Za-z_]\w{0,40}|0x[0-9a-fA-F]{1,2}|\d{1,3})\s{0,3}\^/;
/** Decoded texts kept per unit for marking calls, and the length of each kept (every call checks them: a constant bound keeps that linear). */
const MAX_DECODED_KEPT = 8;
const DECODED_KEPT_CHARS = 2048;

function stringArg(node: SyntaxNode | undefined | null, state: WalkState, depth: number): string {
  return node
    ? resolve(node, state, depth + 1)
        .toLowerCase()
        .replace(/["']/g, '')
    : '';
}

/** A decoded value as the code holds it; text is remembered so the calls it reaches are marked. */
function decodedValue(binary: string | null, state: WalkState): string | null {
  if (binary === null) return null;
  const text = asText(binary);
  if (text === null) return binary;
  if (state.decoded.length < MAX_DECODED_KEPT && text.length >= 8) state.decoded.push(text.slice(0, DECODED_KEPT_CHARS));
  return text;
}

function keyValue(word: string, state: WalkState): number | null {
  const raw = NUMBER_WORD.test(word) ? word : state.consts.get(word);
  if (raw === undefined) return null;
  const n = Number(raw.trim());
  return Number.isInteger(n) && n > 0 && n < 256 ? n : null;
}

/** A call that decodes a resolvable constant (one step of a chain; the argument may itself be a decoding call), or null. */
function resolveDecoding(node: SyntaxNode, fn: string, args: (SyntaxNode | null)[], state: WalkState, depth: number): string | null {
  const last = fn.slice(fn.lastIndexOf('.') + 1);
  const fnNode = node.childForFieldName('function');
  // `.decode()`, `.toString()`, `.encode()` of a value: that value, re-read as UTF-16 when asked.
  if (
    (last === 'decode' || last === 'tostring' || last === 'encode') &&
    fn !== 'codecs.decode' &&
    fnNode &&
    (fnNode.type === 'attribute' || fnNode.type === 'member_expression')
  ) {
    const obj = fnNode.childForFieldName('object');
    if (obj && (obj.type === 'call' || obj.type === 'call_expression' || obj.type === 'identifier')) {
      const value = resolve(obj, state, depth + 1);
      return last !== 'encode' && ENCODING_ARG.get(stringArg(args[0], state, depth)) === 'utf16le' ? decodedValue(decodeStep('utf16le', value), state) : value;
    }
  }
  let step: DecodeStep | undefined = DECODER_CALLEES.get(last);
  if (!step && (fn === 'codecs.decode' || fn === 'buffer.from')) step = ENCODING_ARG.get(stringArg(args[1], state, depth));
  if (!step && DECOMPRESS_CALLEE.test(fn)) step = 'zlib';
  if (step && args[0]) return decodedValue(decodeStep(step, resolve(args[0], state, depth + 1)), state);
  // `"".join(chr(b ^ KEY) for b in bytes.fromhex(BLOB))`: XOR over what the loop reads.
  if (last === 'join' && args[0] && (args[0].type === 'generator_expression' || args[0].type === 'list_comprehension')) {
    const text = args[0].text;
    const right = XOR_RIGHT.exec(text);
    const left = XOR_LEFT.exec(text);
    const key = (right ? keyValue(right[1], state) : null) ?? (left ? keyValue(left[1], state) : null);
    const source = args[0].namedChildren.find((c) => c?.type === 'for_in_clause')?.childForFieldName('right');
    if (key !== null && source) return decodedValue(xorBytes(resolve(source, state, depth + 1), key), state);
  }
  return null;
}

/** Runs `read` with the parameters bound to the call's arguments, then restores what they were. */
function withBound(state: WalkState, params: readonly string[], values: readonly string[], read: () => string): string {
  const saved = params.map((p) => state.consts.get(p));
  params.forEach((p, i) => state.consts.set(p, values[i] ?? p));
  try {
    return read();
  } finally {
    params.forEach((p, i) => (saved[i] === undefined ? state.consts.delete(p) : state.consts.set(p, saved[i]!)));
  }
}

function psArgs(node: SyntaxNode, state: WalkState, depth: number): string[] {
  const elements = node.childForFieldName('command_elements');
  if (!elements) return [];
  return elements.namedChildren
    .filter((c) => c && c.type !== 'command_argument_sep')
    .map((c) => (c!.type === 'command_parameter' ? c!.text.toLowerCase() : resolve(c, state, depth)));
}

/** Objects whose attributes or items are the builtins and globals by their bare names. */
const GLOBAL_SCOPES = new Set([
  '__builtins__',
  'builtins',
  '__builtins__.__dict__',
  'builtins.__dict__',
  'globals()',
  'locals()',
  'vars()',
  'globalthis',
  'global',
  'window',
]);
/** Calls that return a module by its name: `__import__("os")`, `importlib.import_module(…)`, `require(…)`. */
const MODULE_LOADERS = new Set(['__import__', 'importlib.import_module', 'import_module', 'require', 'importlib.__import__']);
/** A lookup key that names a function, method or module. */
const MEMBER_NAME = /^[A-Za-z_$][\w$]{0,60}(?:\.[A-Za-z_$][\w$]{0,60}){0,4}$/;
/** A definition that is one plain string literal (so a lookup through the variable spells its name in the source). */
const PLAIN_LITERAL = /^(["'`])[\w$.-]{1,80}\1$/;

/** A callee as the code reaches it: its real dotted name, and whether a part of that name was assembled at run time. */
interface Callee {
  name: string;
  built: boolean;
}

/** A lookup key resolved to a name, and whether the source spells it as one literal; null when it is not constant. */
function lookupKey(node: SyntaxNode | null, state: WalkState): Callee | null {
  if (!node) return null;
  const before = state.unresolved ?? 0;
  const value = resolve(node, state, 1);
  if ((state.unresolved ?? 0) !== before || !MEMBER_NAME.test(value)) return null;
  const plain =
    (node.type === 'string' && node.namedChildren.every((c) => c?.type !== 'interpolation' && c?.type !== 'template_substitution')) ||
    (node.type === 'identifier' && PLAIN_LITERAL.test(state.defs.get(node.text) ?? ''));
  return { name: value.toLowerCase(), built: !plain };
}

function member(base: Callee, key: Callee): Callee {
  return { name: GLOBAL_SCOPES.has(base.name) ? key.name : `${base.name}.${key.name}`, built: base.built || key.built };
}

/**
 * The real callee behind dynamic lookups: `getattr(obj, key)`, `obj[key]`, `__builtins__[key]`,
 * `globals()[key]`, `globalThis[key]`, `__import__(key)`, `importlib.import_module(key)`,
 * `require(key)`, with the key resolved to a constant, and names bound to such a lookup
 * (`purge = getattr(shutil, k)`, `const cp = require(k)`). Anything else is its source text.
 */
function calleeOf(node: SyntaxNode | null, state: WalkState, depth = 0): Callee {
  const plain: Callee = { name: calleeName(node), built: false };
  const lang = state.chunk.lang;
  if (!node || depth > 6 || (lang !== 'python' && lang !== 'typescript')) return plain;
  switch (node.type) {
    case 'identifier':
      return state.aliases?.get(node.text) ?? plain;
    case 'parenthesized_expression':
    case 'as_expression':
    case 'non_null_expression':
    case 'satisfies_expression':
      return calleeOf(node.namedChild(0), state, depth + 1);
    case 'conditional_expression':
    case 'ternary_expression': {
      // `f = a if c else b`, `c ? a : b`: a branch that resolves to a looked-up callee.
      const branches =
        node.type === 'ternary_expression'
          ? [node.childForFieldName('consequence'), node.childForFieldName('alternative')]
          : [node.namedChild(0), node.namedChild(2)];
      for (const b of branches) {
        const callee = calleeOf(b, state, depth + 1);
        if (b && callee.name !== calleeName(b)) return callee;
      }
      return plain;
    }
    case 'attribute':
    case 'member_expression': {
      const obj = node.childForFieldName('object');
      const prop = node.childForFieldName(node.type === 'attribute' ? 'attribute' : 'property');
      if (!obj || !prop) return plain;
      const base = calleeOf(obj, state, depth + 1);
      if (base.name === calleeName(obj)) return plain;
      return member(base, { name: prop.text.toLowerCase(), built: false });
    }
    case 'subscript':
    case 'subscript_expression': {
      const key = lookupKey(node.childForFieldName(node.type === 'subscript' ? 'subscript' : 'index'), state);
      return key ? member(calleeOf(node.childForFieldName(node.type === 'subscript' ? 'value' : 'object'), state, depth + 1), key) : plain;
    }
    case 'call':
    case 'call_expression': {
      const fn = calleeName(node.childForFieldName('function'));
      const args = positionalArgs(node.childForFieldName('arguments'));
      if (fn === 'getattr' && args.length >= 2) {
        const key = lookupKey(args[1], state);
        return key ? member(calleeOf(args[0], state, depth + 1), key) : plain;
      }
      if (MODULE_LOADERS.has(fn) && args.length >= 1) return lookupKey(args[0], state) ?? plain;
      return plain;
    }
    default:
      return plain;
  }
}

/** Binds the names an assignment gives to a dynamically looked-up function or module (and unbinds names given anything else). */
function bindAliases(left: SyntaxNode, right: SyntaxNode, state: WalkState): void {
  if (left.type === 'identifier') {
    const callee = calleeOf(right, state);
    if (callee.name !== calleeName(right) || state.aliases?.has(right.text)) (state.aliases ??= new Map()).set(left.text, callee);
    else state.aliases?.delete(left.text);
    return;
  }
  // `const { exec } = require(k)`: each name is a member of the module.
  if (left.type === 'object_pattern') {
    const base = calleeOf(right, state);
    if (base.name === calleeName(right)) return;
    for (const p of left.namedChildren)
      if (p?.type === 'shorthand_property_identifier_pattern')
        (state.aliases ??= new Map()).set(p.text, member(base, { name: p.text.toLowerCase(), built: false }));
  }
}

const SHELL_NAMES = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);
/** `-c`, `-lc`, `-ec`: the flag after which a shell takes its script as an argument. */
const SHELL_C_FLAG = /^-[a-z]{0,3}c$/;

function baseName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1).toLowerCase();
}

/**
 * The argument vector of a process call given as a list: `run(["bash", "-c", s])`, or
 * `spawn("sh", ["-c", s])` / `execFile(cmd, [args])`; null when the call takes a command line.
 */
function processArgv(argNodes: readonly (SyntaxNode | null)[], state: WalkState): string[] | null {
  const [first, second] = argNodes;
  if (first && (first.type === 'list' || first.type === 'array')) return listOf(first, state, 1);
  if (first && second && (second.type === 'array' || second.type === 'list')) {
    const rest = listOf(second, state, 1);
    return rest ? [resolve(first, state), ...rest] : null;
  }
  return null;
}

const SHELL_PREFIX = new Set(['sudo', 'env', 'nohup', 'exec', 'time', 'command', 'doas']);
export const SHELL_CALLEE = /(?:^|\.)(?:system|popen|run|call|check_call|check_output|execsync|exec|spawnsync|spawn|execfilesync)$/;

/** Splits a shell command line given as one string (subprocess with shell=True, os.system, execSync) into commands. */
function shellWordsOf(text: string): string[][] {
  const out: string[][] = [];
  for (const part of text.split(/&&|\|\||[;|\n]/)) {
    const words = part
      .trim()
      .split(/\s+/)
      .filter((w) => w.length > 0);
    if (words.length > 0) out.push(words);
  }
  return out;
}

function pushCall(
  state: WalkState,
  node: SyntaxNode,
  rawName: string,
  args: string[],
  conds: string[],
  redirects: string[] = [],
  shell = true,
  builtName = false,
): void {
  if (state.calls.length >= MAX_CALLS) return;
  let words = [rawName, ...args];
  let sudo = false;
  // sudo, env VAR=x, nohup … run the command that follows (in a shell command, not a Python or JS call such as `exec(code)`).
  while (
    shell &&
    words.length > 1 &&
    (SHELL_PREFIX.has(words[0].toLowerCase()) || /^\w+=/.test(words[0]) || (words[0] === 'sudo' && words[1].startsWith('-')))
  ) {
    if (words[0].toLowerCase() === 'sudo' || words[0].toLowerCase() === 'doas') sudo = true;
    words = words.slice(1);
    while (sudo && words.length > 1 && words[0].startsWith('-')) words = words.slice(1);
  }
  const name = words[0].toLowerCase();
  // Marked when a decoded text reaches an argument, or the whole command is part of one (a decoded shell line, split).
  const joined = state.decoded.length > 0 ? words.join(' ') : '';
  const decoded = state.decoded.find((d) => words.some((w) => w.includes(d)) || (joined.length >= 8 && d.includes(joined)));
  state.calls.push({
    line: lineOf(state, node),
    name,
    args: words.slice(1),
    text: bounded(node.text),
    conds,
    unit: state.chunk.unit,
    origin: state.chunk.origin,
    sudo,
    redirects,
    ...(decoded ? { decoded } : {}),
    ...(builtName ? { builtName: bounded(node.childForFieldName('function')?.text ?? node.text) } : {}),
  });
}

/** Reads one condition node as text, followed by the definitions of the variables it reads. */
const IDENT = /[A-Za-z_$][\w$]{0,60}/g;

/** Reads one condition node as text, followed by the definitions of the variables it reads (one lookup per identifier). */
function condText(node: SyntaxNode, state: WalkState): string {
  const own = bounded(node.text);
  let text = own;
  const seen = new Set<string>();
  IDENT.lastIndex = 0;
  for (let m = IDENT.exec(own); m; m = IDENT.exec(own)) {
    const name = m[0].startsWith('$') ? m[0].slice(1) : m[0];
    if (seen.has(name)) continue;
    seen.add(name);
    const def = state.defs.get(name) ?? state.defs.get(`$${name.toLowerCase()}`);
    if (def !== undefined) text += ` ${def}`;
  }
  return text.toLowerCase();
}

function conditionOf(node: SyntaxNode): SyntaxNode | null {
  return node.childForFieldName('condition');
}

const EXIT_STATEMENT_TYPES = new Set(['return_statement', 'raise_statement', 'throw_statement', 'continue_statement', 'break_statement']);
const EXIT_CALLEE = /^(?:exit|return|continue|break|quit|sys\.exit|os\._exit|process\.exit)$/;

/** The statement leaves the block: return, raise/throw, continue/break, or a call to exit. */
function exitsBlock(stmt: SyntaxNode): boolean {
  if (EXIT_STATEMENT_TYPES.has(stmt.type)) return true;
  if (stmt.type === 'command') return EXIT_CALLEE.test(stmt.childForFieldName('name')?.text ?? '');
  const call = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
  return call !== null && (call.type === 'call' || call.type === 'call_expression') && EXIT_CALLEE.test(calleeName(call.childForFieldName('function')));
}

/**
 * A guard clause: `if cond: return` (or `[ cond ] || exit`) with no else. What follows in the same
 * block runs only on the condition's other side, so the condition guards it up to the block's end.
 * Returns that end, or -1.
 */
function guardClauseEnd(node: SyntaxNode, lang: CodeLanguage): number {
  const parent = node.parent;
  if (!parent) return -1;
  if (lang === 'bash' && node.type === 'list') {
    const last = node.namedChild(node.namedChildCount - 1);
    return node.namedChildCount === 2 && node.child(1)?.type === '||' && last !== null && exitsBlock(last) ? parent.endIndex : -1;
  }
  if (node.type !== 'if_statement' || node.childForFieldName('alternative')) return -1;
  let body: SyntaxNode[] = [];
  if (lang === 'bash') {
    for (let i = 0; i < node.namedChildCount; i++) {
      const child = node.namedChild(i);
      if (!child || child.type === 'comment' || node.fieldNameForNamedChild(i) === 'condition') continue;
      if (child.type === 'elif_clause' || child.type === 'else_clause') return -1;
      body.push(child);
    }
  } else {
    const consequence = node.childForFieldName('consequence');
    if (!consequence) return -1;
    body = consequence.type === 'block' || consequence.type === 'statement_block' ? consequence.namedChildren.filter((c) => c !== null) : [consequence];
    body = body.filter((c) => c.type !== 'comment');
  }
  const last = body[body.length - 1];
  return last !== undefined && exitsBlock(last) ? parent.endIndex : -1;
}

const GUARD_TYPES = ['if_statement', 'elif_clause', 'while_statement', 'conditional_expression', 'ternary_expression'];
/**
 * Node types the walk looks at, per language (only those the walk reads in it); every other node
 * is passed by the cursor without being materialised.
 */
const INTERESTING_TYPES: Record<CodeLanguage, string[]> = {
  bash: [...GUARD_TYPES, 'list', 'for_statement', 'variable_assignment', 'redirected_statement', 'command'],
  python: [...GUARD_TYPES, 'return_statement', 'for_statement', 'assignment', 'call'],
  typescript: [
    ...GUARD_TYPES,
    'return_statement',
    'for_statement',
    'for_in_statement',
    'variable_declarator',
    'assignment_expression',
    'call_expression',
    'new_expression',
  ],
  powershell: [...GUARD_TYPES, 'return_statement', 'for_statement', 'assignment_expression', 'command'],
};

const FUNCTION_TYPES = new Set(['function_definition', 'function_declaration', 'method_definition', 'function_expression', 'arrow_function']);

/** The function a node is in (a few levels up at most), with its lower-cased name, or null. */
function enclosingFunction(node: SyntaxNode): { name: string; node: SyntaxNode } | null {
  let n: SyntaxNode | null = node.parent;
  for (let depth = 0; n && depth < 12; depth++, n = n.parent) {
    if (FUNCTION_TYPES.has(n.type)) {
      const name = n.childForFieldName('name') ?? (n.parent?.type === 'variable_declarator' ? n.parent.childForFieldName('name') : null);
      return name ? { name: name.text.toLowerCase(), node: n } : null;
    }
  }
  return null;
}

/** The nodes a walk reads, in source order (`nodes`), fetched from the tree on the first walk and kept with a tree walked again. */
interface WalkNodes {
  nodes?: (SyntaxNode | null)[];
}

function walk(root: SyntaxNode, state: WalkState, kept: WalkNodes): void {
  const lang = state.chunk.lang;
  // Guards in force: the condition applies from its end to the end of its statement.
  const guards: { from: number; to: number; text: string }[] = [];
  // Shell: the redirects of each redirected statement, by the id of the statement it redirects. The
  // nodes come in source order, a statement before its body, so a command finds its redirects here
  // instead of asking for its parent (which tree-sitter finds by descending from the root again).
  const redirectsOf = new Map<number, SyntaxNode>();
  // Only the nodes the walk reads cross from WebAssembly, in source order, in one call.
  kept.nodes ??= root.descendantsOfType(INTERESTING_TYPES[lang]);
  for (const node of kept.nodes) {
    if (!node) continue;
    const t = node.type;
    const at = node.startIndex;
    while (guards.length > 0 && at >= guards[guards.length - 1].to) guards.pop();
    // Most nodes sit under no guard: no arrays or closures are made for them.
    const childConds: string[] = [];
    for (const g of guards) if (at >= g.from) childConds.push(g.text);
    if (t === 'if_statement' || t === 'elif_clause' || t === 'while_statement' || t === 'conditional_expression' || t === 'ternary_expression') {
      const c = conditionOf(node);
      // A guard clause's condition also guards the rest of its block; pushed first, as it ends last.
      const rest = c && t === 'if_statement' ? guardClauseEnd(node, lang) : -1;
      if (c && rest >= 0) guards.push({ from: node.endIndex, to: rest, text: condText(c, state) });
      if (c) guards.push({ from: c.endIndex, to: node.endIndex, text: condText(c, state) });
    } else if (lang === 'bash' && t === 'list') {
      // `[ cond ] && cmd`, `test … && cmd`: the test guards what follows; `[ cond ] || exit` guards the rest of the block.
      const first = node.namedChild(0);
      if (first && (first.type === 'test_command' || (first.type === 'command' && /^(?:\[|test)$/.test(first.childForFieldName('name')?.text ?? '')))) {
        const rest = guardClauseEnd(node, lang);
        guards.push({ from: rest >= 0 ? node.endIndex : first.endIndex, to: rest >= 0 ? rest : node.endIndex, text: condText(first, state) });
      }
    }
    if (t === 'redirected_statement') {
      const body = node.childForFieldName('body');
      if (body) redirectsOf.set(body.id, node);
      continue;
    }
    if (t === 'return_statement' && lang !== 'bash') {
      const fn = enclosingFunction(node);
      const value = node.namedChild(0);
      if (fn && value) {
        state.returns.set(fn.name, resolve(value, state));
        const params = (fn.node.childForFieldName('parameters')?.namedChildren ?? [])
          .map((p) => (p?.type === 'identifier' ? p.text : (p?.childForFieldName('name')?.text ?? p?.childForFieldName('pattern')?.text ?? '')))
          .filter((p) => p !== '');
        state.fnDefs.set(fn.name, { params, ret: value });
      }
    }
    // A loop variable takes one value of its list: enough to see what kind of path or target the
    // body uses. The first value that names a root, home or remote place (or history or keys), else the first one, so a
    // harmless first element cannot hide the others.
    if (t === 'for_statement' || t === 'for_in_statement') {
      const bashValues = lang === 'bash' ? node.childrenForFieldName('value') : [];
      const name = (lang === 'bash' ? node.childForFieldName('variable') : node.childForFieldName('left'))?.text ?? '';
      const right = lang === 'bash' ? (bashValues[0] ?? null) : node.childForFieldName('right');
      const values =
        lang === 'bash'
          ? bashValues.slice(0, MAX_LIST).map((v) => resolve(v, state))
          : right?.type === 'list' || right?.type === 'tuple' || right?.type === 'array'
            ? right.namedChildren.slice(0, MAX_LIST).map((c) => resolve(c, state))
            : right?.type === 'identifier'
              ? (state.lists.get(right.text) ?? [])
              : [];
      const value = values.find((v) => PLACE_VALUE.test(v)) ?? values.find((v) => HISTORY_OR_KEY_FOLDER.test(v)) ?? values[0];
      if (LOOP_VAR.test(name) && value !== undefined) state.consts.set(name, value);
    }
    // Assignments: constants and definitions.
    if (lang === 'bash' && t === 'variable_assignment') {
      const name = node.childForFieldName('name')?.text ?? '';
      const value = node.childForFieldName('value');
      if (name && value) {
        state.consts.set(name, resolve(value, state));
        state.defs.set(name, bounded(value.text).toLowerCase());
      }
    } else if ((lang === 'python' && t === 'assignment') || (lang === 'typescript' && (t === 'variable_declarator' || t === 'assignment_expression'))) {
      const left = node.childForFieldName(t === 'variable_declarator' ? 'name' : 'left');
      const right = node.childForFieldName(t === 'variable_declarator' ? 'value' : 'right');
      if (left && right) {
        const names = left.type === 'identifier' ? [left.text] : left.namedChildren.filter((c) => c?.type === 'identifier').map((c) => c!.text);
        // `path, _ = urlretrieve(url, dest)`: the first name is the file written.
        if (right.type === 'call' && /urlretrieve$/.test(calleeName(right.childForFieldName('function'))) && names.length > 0) {
          const dest = right.childForFieldName('arguments')?.namedChildren[1] ?? null;
          if (dest) state.consts.set(names[0], resolve(dest, state));
        }
        // An empty list too: elements appended later fill it.
        if (left.type === 'identifier' && (right.type === 'list' || right.type === 'tuple' || right.type === 'array')) {
          // A list of numbers (character codes) is read from its text whole; any other, to a bound.
          state.lists.set(left.text, numbersOf(right) ?? right.namedChildren.slice(0, MAX_LIST).map((c) => resolve(c, state)));
        }
        const built = left.type === 'identifier' && right.type === 'list_comprehension' ? comprehensionValues(right, state) : null;
        if (built) state.lists.set(left.text, built);
        for (const name of names) {
          if (left.type === 'identifier') {
            const before = state.unresolved ?? 0;
            const value = resolve(right, state);
            state.consts.set(name, value);
            noteBuiltHost(right, value, (state.unresolved ?? 0) === before, state);
          }
          state.defs.set(name, bounded(right.text).toLowerCase());
        }
        bindAliases(left, right, state);
      }
    } else if (lang === 'powershell' && t === 'assignment_expression') {
      const left = node.namedChild(0);
      const right = node.childForFieldName('value');
      const name = left?.text.replace(/^\$/, '').toLowerCase() ?? '';
      if (name && right) {
        state.consts.set(name, resolve(right, state));
        state.defs.set(`$${name}`, bounded(right.text).toLowerCase());
      }
    }
    // Calls.
    if (lang === 'bash' && t === 'command') {
      const nameNode = node.childForFieldName('name');
      if (nameNode) {
        const args = node.childrenForFieldName('argument').map((a) => resolve(a, state));
        const redirects: string[] = [];
        const parent = redirectsOf.get(node.id);
        if (parent) {
          for (const r of parent.childrenForFieldName('redirect')) {
            if (r?.type === 'file_redirect') {
              const dest = r.childForFieldName('destination');
              const op = r.text.trimStart().startsWith('>>') ? '>>' : r.text.trimStart().startsWith('>') ? '>' : '';
              if (dest && op) redirects.push(`${op}${resolve(dest, state)}`);
            }
          }
        }
        pushCall(state, node, resolve(nameNode, state), args, childConds, redirects);
      }
    } else if (lang === 'powershell' && t === 'command') {
      const nameNode = node.childForFieldName('command_name');
      if (nameNode) pushCall(state, node, nameNode.text, psArgs(node, state, 0), childConds);
    } else if ((lang === 'python' && t === 'call') || (lang === 'typescript' && (t === 'call_expression' || t === 'new_expression'))) {
      const callee = calleeOf(node.childForFieldName(t === 'new_expression' ? 'constructor' : 'function'), state);
      const name = callee.name;
      // `targets.append(x)` / `targets.push(x)` grows a list a loop may walk.
      const grown = APPEND_CALLEE.exec(node.childForFieldName('function')?.text ?? '');
      const grownList = grown ? state.lists.get(grown[1]) : undefined;
      if (grownList && grownList.length < MAX_LIST) {
        const added = node.childForFieldName('arguments')?.namedChildren[0];
        if (added) grownList.push(resolve(added, state));
      }
      if (relevantCallee(name)) {
        const argNodes = node.childForFieldName('arguments')?.namedChildren ?? [];
        const args = argNodes.map((a) => {
          if (!a) return '';
          if (a.type === 'keyword_argument') return `${a.childForFieldName('name')?.text ?? ''}=${resolve(a.childForFieldName('value'), state)}`;
          const before = state.unresolved ?? 0;
          const value = resolve(a, state);
          noteBuiltHost(a, value, (state.unresolved ?? 0) === before, state);
          return value;
        });
        pushCall(state, node, name, args, childConds, [], false, callee.built);
        // A shell command line handed to a process call is read as the commands it runs.
        // Python's own exec() runs Python, not a shell line.
        if (SHELL_CALLEE.test(name) && !(lang === 'python' && name === 'exec') && argNodes.length > 0) {
          const first = args[0];
          const argv = processArgv(argNodes, state);
          const shellLine = argv ? [argv] : argNodes[0]?.type === 'list' || argNodes[0]?.type === 'array' ? [first.split(/\s+/)] : shellWordsOf(first);
          for (const words of shellLine) if (words.length > 0 && words[0]) pushCall(state, node, words[0], words.slice(1), childConds);
          // `["bash", "-c", script]`, `spawn("sh", ["-c", script])`: the script's own commands.
          const script = argv && SHELL_NAMES.has(baseName(argv[0])) ? argv.findIndex((w) => SHELL_C_FLAG.test(w)) : -1;
          if (argv && script !== -1 && script + 1 < argv.length)
            for (const words of shellWordsOf(argv[script + 1])) if (words.length > 0 && words[0]) pushCall(state, node, words[0], words.slice(1), childConds);
        }
      }
    }
  }
}

/**
 * The values of a Python list comprehension over a list the code spells out (`[home / n for n in
 * ("Documents", ".ssh")]`), its body resolved with the loop variable bound to each element; null
 * for any other comprehension (a condition, several loops, an unknown list).
 */
function comprehensionValues(node: SyntaxNode, state: WalkState): string[] | null {
  const body = node.childForFieldName('body');
  const clauses = node.namedChildren.filter((c) => c?.type === 'for_in_clause' || c?.type === 'if_clause');
  if (!body || clauses.length !== 1 || clauses[0]!.type !== 'for_in_clause') return null;
  const variable = clauses[0]!.childForFieldName('left');
  const source = clauses[0]!.childForFieldName('right');
  if (variable?.type !== 'identifier' || !source) return null;
  // A spelled-out list is walked whole (its size is the source's); a variable's, to a bound.
  const elements =
    source.type === 'list' || source.type === 'tuple' || source.type === 'string'
      ? listOf(source, state, 1)
      : source.type === 'identifier'
        ? (listOf(source, state, 1)?.slice(0, MAX_WALKED) ?? null)
        : null;
  if (!elements || elements.length > comprehensionRoom) return null;
  comprehensionRoom -= elements.length;
  const before = state.consts.get(variable.text);
  const values = elements.map((element) => {
    state.consts.set(variable.text, element);
    return resolve(body, state);
  });
  if (before === undefined) state.consts.delete(variable.text);
  else state.consts.set(variable.text, before);
  return values;
}

function errorShare(root: SyntaxNode, size: number): number {
  if (!root.hasError || size === 0) return 0;
  let covered = 0;
  const stack: SyntaxNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.isError || n.isMissing) {
      covered += n.endIndex - n.startIndex;
      continue;
    }
    if (!n.hasError) continue;
    for (const c of n.children) if (c) stack.push(c);
  }
  return covered / size;
}

/** The code facts of a file, computed once. */
export function codeFactsOf(ctx: ScanContext): CodeFacts {
  const known = memo.get(ctx);
  if (known) return known;
  const facts: CodeFacts = { calls: [], incomplete: null };
  memo.set(ctx, facts);
  comprehensionRoom = COMPREHENSION_BUDGET;
  const chunks = codeChunksOf(ctx).filter((c) => worthParsing(c.text));
  const trees = new ParsedChunks(chunks);
  try {
    analyseChunks(ctx, chunks, trees, facts);
  } finally {
    trees.release();
  }
  const built = builtHosts.get(facts.calls);
  if (built) {
    builtHosts.delete(facts.calls);
    // One pass over the file per candidate, and the candidates are bounded.
    const lower = ctx.text.toLowerCase();
    facts.hiddenHosts = built.filter((b) => !lower.includes(hostKey(b.host)));
  }
  return facts;
}

function analyseChunks(ctx: ScanContext, chunks: readonly CodeChunk[], trees: ParsedChunks, facts: CodeFacts): void {
  // Work spent by every parse of the file, and the part of it in parses that met syntax errors.
  let parseTicks = 0;
  let errorTicks = 0;
  let state: WalkState | null = null;
  let notParsed = 0;
  let why = '';
  let capped = false;
  for (const chunk of chunks) {
    if (capped) break;
    // Work, not time: the same file stops at the same chunk on any machine (the analyzer's
    // per-file deadline still applies between rules, and the scan's deadline above it).
    if (errorTicks >= FILE_ERROR_TICKS) {
      notParsed++;
      why = 'the file\u2019s budget for code with syntax errors ran out';
      continue;
    }
    if (parseTicks >= FILE_PARSE_TICKS) {
      notParsed++;
      why = 'the file\u2019s budget for parsing code ran out';
      continue;
    }
    if (!state || state.chunk.unit !== chunk.unit)
      state = { chunk, consts: new Map(), defs: new Map(), lists: new Map(), returns: new Map(), fnDefs: new Map(), decoded: [], calls: facts.calls };
    else {
      state.chunk = chunk;
      // The previous chunk's tree is gone: its function bodies can no longer be re-resolved.
      state.fnDefs.clear();
    }
    // No parse may spend more than is left of the file's budgets, so neither is ever overrun.
    const own = parseBudgetTicks(chunk.text.length);
    const left = Math.min(FILE_ERROR_TICKS - errorTicks, FILE_PARSE_TICKS - parseTicks);
    const parsed = trees.parse(chunk, Math.min(own, left));
    errorTicks += parsed.errorTicks;
    parseTicks += 'error' in parsed ? parsed.errorTicks : parsed.ticks;
    if ('error' in parsed) {
      notParsed++;
      if (parsed.error === 'not_ready') why = 'the code parsers were not ready';
      else if (left < own) why = 'the file\u2019s budget for parsing code ran out';
      else why = 'a code block\u2019s syntax errors went past its parse budget';
      continue;
    }
    if (parsed.walkable) walk(parsed.tree.rootNode, state, parsed.walkNodes);
    // The calls past the cap were not recorded: what follows them is not analysed.
    capped = facts.calls.length >= MAX_CALLS;
  }
  if (capped)
    facts.incomplete = `code analysis incomplete: more than ${MAX_CALLS} commands and calls; the code after line ${facts.calls[facts.calls.length - 1]!.line} was not analysed`;
  else if (notParsed > 0) facts.incomplete = `code analysis incomplete: ${notParsed} code block(s) not parsed (${why})`;
}

/** Trees kept at once for chunks whose text comes again later in the file: a bound on memory, not on analysis (past it a repeat is parsed again). */
export const MAX_KEPT_TREES = 32;

/**
 * The parse of each chunk of one file. A chunk whose text (and language) comes again later in the
 * file, as in repeated or tiled content, is parsed once: its tree is kept until its last
 * occurrence and walked again there with that occurrence's own state (lines, constants, unit), so
 * the facts are those of a fresh parse. Everything is deleted at the end (`release`).
 */
class ParsedChunks {
  /** Occurrences still to come of each repeated text. */
  private readonly remaining = new Map<string, number>();
  private readonly kept = new Map<string, { tree: SyntaxTree; walkable: boolean; walkNodes: WalkNodes }>();
  /** Trees no later chunk needs: deleted once walked (at the next parse or at the end). */
  private afterWalk: SyntaxTree[] = [];

  constructor(chunks: readonly CodeChunk[]) {
    const seen = new Map<string, number>();
    for (const c of chunks) {
      const key = `${c.lang}\0${c.text}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    for (const [key, n] of seen) if (n > 1) this.remaining.set(key, n);
  }

  parse(
    chunk: CodeChunk,
    budget: number,
  ):
    | { tree: SyntaxTree; walkable: boolean; walkNodes: WalkNodes; ticks: number; errorTicks: number }
    | { error: 'not_ready' | 'cancelled'; errorTicks: number } {
    // The previous chunk has been walked: its tree goes unless a later chunk repeats it.
    for (const t of this.afterWalk) t.delete();
    this.afterWalk = [];
    const key = `${chunk.lang}\0${chunk.text}`;
    const left = this.remaining.get(key);
    if (left !== undefined) this.remaining.set(key, left - 1);
    const known = this.kept.get(key);
    if (known) {
      if (left === 1) {
        this.kept.delete(key);
        this.afterWalk.push(known.tree);
      }
      return { ...known, ticks: 0, errorTicks: 0 };
    }
    const parsed = parseCode(chunk.lang, chunk.text, budget);
    if ('error' in parsed) return parsed;
    // A tree more than half error nodes is not walked.
    const walkable = errorShare(parsed.tree.rootNode, chunk.text.length) <= MAX_ERROR_SHARE;
    const entry = { tree: parsed.tree, walkable, walkNodes: {} };
    if (left !== undefined && left > 1 && this.kept.size < MAX_KEPT_TREES) this.kept.set(key, entry);
    else this.afterWalk.push(parsed.tree);
    return { ...entry, ticks: parsed.ticks, errorTicks: parsed.errorTicks };
  }

  release(): void {
    for (const t of this.afterWalk) t.delete();
    for (const { tree } of this.kept.values()) tree.delete();
    this.afterWalk = [];
    this.kept.clear();
  }
}

/** The facts if some rule already computed them for this file (the analyzer reports `incomplete`). */
export function codeFactsIfComputed(ctx: ScanContext): CodeFacts | undefined {
  return memo.get(ctx);
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const CODE_FACT_REGEXES: readonly RegExp[] = [
  URL_HOST,
  IP_HOST,
  NUMBER_LIST,
  INDIRECT_REF,
  SHELL_NAME,
  MEMBER_NAME,
  PLAIN_LITERAL,
  SHELL_C_FLAG,
  IDENT,
  VAR_REF,
  LOOP_VAR,
  APPEND_CALLEE,
  PLACE_VALUE,
  XOR_RIGHT,
  XOR_LEFT,
  DECOMPRESS_CALLEE,
  NUMBER_WORD,
  LIST_INDEX,
  HOME_WORDS,
  TEMP_WORDS,
  SHELL_CALLEE,
  SHELL_SPECIAL,
  chunkTriggers(),
];

import { ascii, GZIP_MAGIC, hasSignature, OLE_MAGIC } from '../archive/byte-signatures';
import type { FileKind, SkipReason } from './scan-report.types';

/**
 * What a file is, from its name AND its content (docs/decisions/0022-scanner-scoring-and-judge-authority.md).
 * Content wins where names lie:
 * a `notes.txt` that starts with a shebang is a script; a `README.md` with agent frontmatter is an
 * agent file; a `SKILL.md` full of NUL bytes is binary.
 */

export interface BinaryClass {
  kind: FileKind;
  skipReason: SkipReason;
}

const ARCHIVE_MAGIC: (readonly number[])[] = [
  [0x50, 0x4b, 0x03, 0x04],
  [0x50, 0x4b, 0x05, 0x06],
  [0x50, 0x4b, 0x07, 0x08],
  GZIP_MAGIC,
  ascii('BZh'),
  [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00],
  [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c],
  ascii('Rar!'),
  [0x28, 0xb5, 0x2f, 0xfd],
];
const ARCHIVE_EXT = /\.(zip|jar|war|ear|whl|egg|nupkg|vsix|crx|xpi|apk|ipa|aar|tar|tgz|gz|bz2|xz|zst|7z|rar|cab|dmg|iso|deb|rpm)$/i;

const BYTECODE_MAGIC: { sig: number[]; at?: number }[] = [
  { sig: [0xca, 0xfe, 0xba, 0xbe] }, // Java class (also Mach-O fat; both opaque code)
  { sig: [0x00, 0x61, 0x73, 0x6d] }, // WebAssembly
  { sig: ascii('dex\n') }, // Android DEX
  { sig: [0x1b, 0x4c, 0x75, 0x61] }, // Lua bytecode
];

/** Native executables (ELF, Mach-O; PE is checked by its header): what the system runs as a program. */
const EXECUTABLE_MAGIC: readonly (readonly number[])[] = [
  [0x7f, 0x45, 0x4c, 0x46],
  [0xfe, 0xed, 0xfa, 0xce],
  [0xfe, 0xed, 0xfa, 0xcf],
  [0xce, 0xfa, 0xed, 0xfe],
  [0xcf, 0xfa, 0xed, 0xfe],
];

/** Signatures of binary formats: executables, images, documents, databases. */
const BINARY_MAGIC: readonly (readonly number[])[] = [
  ...EXECUTABLE_MAGIC,
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  ascii('GIF87a'),
  ascii('GIF89a'),
  OLE_MAGIC,
  ascii('SQLite format 3\0'),
  ascii('%PDF-'),
];

/** A PE executable: `MZ`, then the 32-bit offset at 0x3C points to `PE\0\0`. */
function isPortableExecutable(b: Uint8Array): boolean {
  if (b.length < 0x40 || b[0] !== 0x4d || b[1] !== 0x5a) return false;
  const pe = b[0x3c]! | (b[0x3d]! << 8) | (b[0x3e]! << 16) | (b[0x3f]! << 24);
  return pe > 0 && hasSignature(b, [0x50, 0x45, 0, 0], pe);
}

/** True when the bytes carry the signature of a known binary format. */
function hasBinarySignature(bytes: Uint8Array): boolean {
  return BINARY_MAGIC.some((m) => hasSignature(bytes, m)) || isPortableExecutable(bytes);
}

const BYTECODE_EXT = /\.(pyc|pyo|class|wasm|dex|luac|elc|beam|jsc)$/i;

/** Archives, compiled bytecode and binary formats, by magic bytes; archives and bytecode also by extension. */
export function classifyOpaque(path: string, bytes: Uint8Array): BinaryClass | null {
  if (ARCHIVE_MAGIC.some((m) => hasSignature(bytes, m)) || hasSignature(bytes, ascii('ustar'), 257)) {
    return { kind: 'archive', skipReason: 'nested_archive' };
  }
  // .pyc: 2-byte version magic followed by "\r\n".
  const pyc = bytes.length >= 4 && bytes[2] === 0x0d && bytes[3] === 0x0a && /\.py[co]$/i.test(path);
  if (pyc || BYTECODE_MAGIC.some((m) => hasSignature(bytes, m.sig, m.at ?? 0))) return { kind: 'binary', skipReason: 'bytecode' };
  if (hasBinarySignature(bytes)) return { kind: 'binary', skipReason: 'binary' };
  if (ARCHIVE_EXT.test(path)) return { kind: 'archive', skipReason: 'nested_archive' };
  if (BYTECODE_EXT.test(path)) return { kind: 'binary', skipReason: 'bytecode' };
  return null;
}

const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
const lower = (p: string): string => p.toLowerCase();

const AGENT_FILE_NAMES = new Set([
  'skill.md',
  'agents.md',
  'agent.md',
  'claude.md',
  'claude.local.md',
  'gemini.md',
  '.cursorrules',
  '.windsurfrules',
  '.clinerules',
  '.roorules',
  '.goosehints',
  'copilot-instructions.md',
  'conventions.md',
]);
const AGENT_DIR_MD = /(^|\/)\.(claude|cursor|windsurf|gemini|opencode|roo|kiro|continue)\/(commands|agents|rules|prompts|steering)\//i;
const AGENT_SUFFIX = /\.(mdc|instructions\.md|prompt\.md|chatmode\.md|agent\.md)$/i;
const CLINE_DIR = /(^|\/)\.clinerules\//i;
const MCP_NAMES = new Set([
  'mcp.json',
  '.mcp.json',
  'mcp_config.json',
  'mcp-config.json',
  'mcp_settings.json',
  'cline_mcp_settings.json',
  'claude_desktop_config.json',
]);
const SETTINGS_PATH = /(^|\/)\.(claude|gemini|codex|cursor|windsurf|vscode)\/settings(\.local)?\.json$|(^|\/)\.codex\/config\.toml$/i;
const TOOL_MANIFEST_NAMES = new Set(['tools.json', 'ai-plugin.json', 'tool-manifest.json', 'tool_manifest.json']);
const PACKAGE_NAMES = new Set([
  'package.json',
  'package-lock.json',
  'requirements.txt',
  'pyproject.toml',
  'pipfile',
  'pipfile.lock',
  'poetry.lock',
  'setup.cfg',
  'gemfile',
  'gemfile.lock',
  'cargo.toml',
  'cargo.lock',
  'go.mod',
  'go.sum',
  'composer.json',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'yarn.lock',
  'pnpm-lock.yaml',
  'deno.json',
  'bun.lockb',
]);
const SCRIPT_EXT =
  /\.(sh|bash|zsh|fish|ksh|ps1|psm1|psd1|bat|cmd|vbs|py|pyw|js|mjs|cjs|ts|mts|cts|jsx|tsx|rb|pl|pm|php|lua|go|rs|java|kt|swift|c|cc|cpp|h|hpp|cs|r|applescript|scpt|awk|tcl|groovy|dart|ex|exs|nu)$/i;
const SCRIPT_NAMES = new Set(['makefile', 'dockerfile', 'justfile', 'rakefile', 'vagrantfile', 'procfile']);

function parseJsonObject(text: string): Record<string, unknown> | null {
  const t = text.trim();
  if (!t.startsWith('{') || t.length > 300_000) return null;
  try {
    const v: unknown = JSON.parse(t);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function looksLikeToolList(v: unknown): boolean {
  return (
    Array.isArray(v) &&
    v.length > 0 &&
    v.some((t) => isObj(t) && typeof t.name === 'string' && ('description' in t || 'inputSchema' in t || 'input_schema' in t || 'parameters' in t))
  );
}

function kindFromJson(obj: Record<string, unknown>): FileKind | null {
  if (isObj(obj.mcpServers) || isObj(obj.mcp_servers) || (isObj(obj.mcp) && isObj((obj.mcp as Record<string, unknown>).servers))) {
    return 'mcp_config';
  }
  if (isObj(obj.servers) && Object.values(obj.servers).some((s) => isObj(s) && ('command' in s || 'url' in s))) return 'mcp_config';
  if (isObj(obj.permissions) || isObj(obj.hooks) || 'dangerouslySkipPermissions' in obj || 'apiKeyHelper' in obj) return 'agent_settings';
  if (looksLikeToolList(obj.tools) || looksLikeToolList(obj.functions)) return 'tool_manifest';
  for (const v of Object.values(obj)) if (isObj(v) && looksLikeToolList(v.tools)) return 'tool_manifest';
  if (typeof obj.name === 'string' && (isObj(obj.dependencies) || isObj(obj.scripts) || isObj(obj.devDependencies))) return 'package_manifest';
  return null;
}

/** YAML frontmatter keys typical of skills, subagents, slash commands and Cursor rules. */
function hasAgentFrontmatter(text: string): boolean {
  const m = /^(?:\uFEFF)?---\r?\n([\s\S]{0,4000}?)\r?\n---/.exec(text);
  if (!m) return false;
  const keys = new Set([...m[1].matchAll(/^([A-Za-z][\w-]*)\s*:/gm)].map((k) => k[1].toLowerCase()));
  const hasDescription = keys.has('description');
  return (
    (hasDescription && (keys.has('name') || keys.has('globs') || keys.has('alwaysapply') || keys.has('argument-hint'))) ||
    keys.has('allowed-tools') ||
    (keys.has('tools') && keys.has('name')) ||
    keys.has('applyto')
  );
}

/** Kind of a decoded text file. */
export function detectTextKind(path: string, text: string): FileKind {
  const b = lower(base(path));
  const p = lower(path);
  if (AGENT_FILE_NAMES.has(b) || AGENT_SUFFIX.test(b) || CLINE_DIR.test(p)) return 'agent_file';
  if (/\.md$|\.markdown$/i.test(b) && AGENT_DIR_MD.test(p)) return 'agent_file';
  if (SETTINGS_PATH.test(p)) return 'agent_settings';
  if (MCP_NAMES.has(b)) return 'mcp_config';
  if (TOOL_MANIFEST_NAMES.has(b)) return 'tool_manifest';

  const head = text.slice(0, 512).replace(/^\uFEFF/, '');
  if (head.startsWith('#!')) return 'script';

  const json = /\.(json|jsonc)$/i.test(b) || /^\s*\{/.test(head) ? parseJsonObject(text) : null;
  if (json) {
    const fromJson = kindFromJson(json);
    if (fromJson) return fromJson;
  }
  if (PACKAGE_NAMES.has(b) || /^requirements[-_.\w]*\.txt$/.test(b)) return 'package_manifest';
  if (SCRIPT_EXT.test(b) || SCRIPT_NAMES.has(b)) return 'script';
  if (hasAgentFrontmatter(text)) return 'agent_file';
  return 'document';
}

const TEXT_EXT = /\.(md|markdown|mdx|txt|rst|adoc|json|jsonc|json5|ya?ml|toml|ini|cfg|conf|env|xml|html?|csv)$/i;

/** The name says text or code (an agent file, script, config or document format), whatever the bytes are. */
export function nameClaimsText(path: string): boolean {
  return detectTextKind(path, '') !== 'document' || TEXT_EXT.test(base(path));
}

/** Bytes the system would run: a native executable, or a script with a shebang. */
export function isExecutableContent(bytes: Uint8Array): boolean {
  return EXECUTABLE_MAGIC.some((m) => hasSignature(bytes, m)) || isPortableExecutable(bytes) || hasSignature(bytes, ascii('#!'));
}

/** A name that runs as code when invoked: a script extension or a well-known build/run file. */
export function nameLooksExecutable(path: string): boolean {
  const b = lower(base(path));
  return SCRIPT_EXT.test(b) || SCRIPT_NAMES.has(b) || /\.(exe|dll|so|dylib|bin|app|msi|com|scr|jar|pyc|pyo|class|wasm)$/i.test(b);
}

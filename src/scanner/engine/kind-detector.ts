import type { FileKind, SkipReason } from './scan-report.types';

/**
 * What a file is, from its name AND its content (DESIGN.md §9). Content wins where names lie:
 * a `notes.txt` that starts with a shebang is a script; a `README.md` with agent frontmatter is an
 * agent file; a `SKILL.md` full of NUL bytes is binary.
 */

export interface BinaryClass {
  kind: FileKind;
  skipReason: SkipReason;
}

const startsWith = (b: Uint8Array, sig: number[], at = 0): boolean =>
  b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

const ARCHIVE_MAGIC: number[][] = [
  [0x50, 0x4b, 0x03, 0x04],
  [0x50, 0x4b, 0x05, 0x06],
  [0x50, 0x4b, 0x07, 0x08],
  [0x1f, 0x8b],
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
const BYTECODE_EXT = /\.(pyc|pyo|class|wasm|dex|luac|elc|beam|jsc)$/i;

/** Archives, compiled bytecode and other binaries, by magic bytes then by extension. */
export function classifyOpaque(path: string, bytes: Uint8Array): BinaryClass | null {
  if (ARCHIVE_MAGIC.some((m) => startsWith(bytes, m)) || startsWith(bytes, ascii('ustar'), 257)) {
    return { kind: 'archive', skipReason: 'nested_archive' };
  }
  // .pyc: 2-byte version magic followed by "\r\n".
  const pyc = bytes.length >= 4 && bytes[2] === 0x0d && bytes[3] === 0x0a && /\.py[co]$/i.test(path);
  if (pyc || BYTECODE_MAGIC.some((m) => startsWith(bytes, m.sig, m.at ?? 0))) return { kind: 'binary', skipReason: 'bytecode' };
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

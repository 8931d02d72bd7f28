/**
 * JSON configs (MCP servers, Claude settings, tool manifests) parsed with real line numbers: we
 * parse with JSON.parse (bounded input) and locate keys/values by scanning the text, which is
 * enough to point a finding at the right line without a position-tracking parser.
 */
import { firstAtLeast } from '../views/line-index';

export const JSON_MAX_BYTES = 512 * 1024;

export function parseJsonLoose(text: string): unknown {
  if (text.length > JSON_MAX_BYTES) return undefined;
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    // JSONC (comments, trailing commas) is common in editor configs.
    try {
      const stripped = trimmed
        .replace(/^[ \t]*\/\/[^\n]*$/gm, '')
        .replace(/\/\*[\s\S]{0,20000}?\*\//g, '')
        .replace(/,(\s*[}\]])/g, '$1');
      return JSON.parse(stripped) as unknown;
    } catch {
      return undefined;
    }
  }
}

const KEY_RE = /"((?:[^"\\\n]|\\.){0,400})"\s{0,3}:/g;

/**
 * The 1-based lines of each object key, as written in the file (escaped), in file order, built in
 * one pass: looking each key up with a scan of every line cost keys × lines.
 */
export class JsonKeyLines {
  private readonly byKey = new Map<string, number[]>();
  constructor(lines: readonly string[]) {
    lines.forEach((line, i) => {
      if (!line.includes('"')) return;
      for (const m of line.matchAll(KEY_RE)) {
        const list = this.byKey.get(m[1]);
        if (list) list.push(i + 1);
        else this.byKey.set(m[1], [i + 1]);
      }
    });
  }

  /** The first line at or after `fromLine` where `key` (unescaped, as parsed) is an object key, or null. */
  find(key: string, fromLine = 1): number | null {
    const list = this.byKey.get(jsonNeedle(key));
    if (!list) return null;
    return list[firstAtLeast(list, fromLine)] ?? null;
  }
}

const KEY_LINES = new WeakMap<readonly string[], JsonKeyLines>();

/** The key index of a file's lines, built once however many rules ask for it. */
export function jsonKeyLines(lines: readonly string[]): JsonKeyLines {
  let index = KEY_LINES.get(lines);
  if (!index) {
    index = new JsonKeyLines(lines);
    KEY_LINES.set(lines, index);
  }
  return index;
}

/** JSON-escape a string value the way it appears in the file. */
export function jsonNeedle(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export interface McpServerEntry {
  name: string;
  command: string | null;
  args: string[];
  env: Record<string, string>;
  url: string | null;
  headers: Record<string, string>;
  line: number;
}

/** MCP server entries from the common config shapes (`mcpServers`, VS Code `servers`, `mcp.servers`). */
export function extractMcpServers(json: unknown, lines: readonly string[]): McpServerEntry[] {
  if (!isRecord(json)) return [];
  const containers: Record<string, unknown>[] = [];
  for (const key of ['mcpServers', 'servers', 'mcp_servers', 'context_servers']) {
    if (isRecord(json[key])) containers.push(json[key]);
  }
  if (isRecord(json.mcp) && isRecord(json.mcp.servers)) containers.push(json.mcp.servers);
  const out: McpServerEntry[] = [];
  const keyLines = containers.length > 0 ? jsonKeyLines(lines) : null;
  for (const container of containers) {
    for (const [name, raw] of Object.entries(container)) {
      if (!isRecord(raw)) continue;
      const strMap = (v: unknown): Record<string, string> =>
        isRecord(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string') as [string, string][]) : {};
      out.push({
        name,
        command: typeof raw.command === 'string' ? raw.command : null,
        args: Array.isArray(raw.args) ? raw.args.filter((a): a is string => typeof a === 'string') : [],
        env: strMap(raw.env),
        url: typeof raw.url === 'string' ? raw.url : typeof raw.serverUrl === 'string' ? raw.serverUrl : null,
        headers: strMap(raw.headers),
        line: keyLines?.find(name) ?? 1,
      });
    }
  }
  return out;
}

/**
 * JSON configs (MCP servers, Claude settings, tool manifests) parsed with real line numbers: we
 * parse with JSON.parse (bounded input) and locate keys/values by scanning the text, which is
 * enough to point a finding at the right line without a position-tracking parser.
 */

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

/** First 1-based line (at or after `fromLine`) whose text contains `needle`; falls back to fromLine. */
export function findLine(lines: readonly string[], needle: string, fromLine = 1): number {
  if (!needle) return fromLine;
  const probe = needle.length > 120 ? needle.slice(0, 120) : needle;
  for (let i = Math.max(0, fromLine - 1); i < lines.length; i++) {
    if (lines[i].includes(probe)) return i + 1;
  }
  for (let i = 0; i < lines.length; i++) if (lines[i].includes(probe)) return i + 1;
  return fromLine;
}

/** JSON-escape a string value the way it appears in the file (for `findLine`). */
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
  for (const container of containers) {
    for (const [name, raw] of Object.entries(container).slice(0, 200)) {
      if (!isRecord(raw)) continue;
      const strMap = (v: unknown): Record<string, string> =>
        isRecord(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string') as [string, string][]) : {};
      out.push({
        name,
        command: typeof raw.command === 'string' ? raw.command : null,
        args: Array.isArray(raw.args) ? raw.args.filter((a): a is string => typeof a === 'string').slice(0, 200) : [],
        env: strMap(raw.env),
        url: typeof raw.url === 'string' ? raw.url : typeof raw.serverUrl === 'string' ? raw.serverUrl : null,
        headers: strMap(raw.headers),
        line: findLine(lines, `"${jsonNeedle(name)}"`),
      });
    }
  }
  return out;
}

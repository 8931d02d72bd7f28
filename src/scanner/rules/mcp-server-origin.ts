/**
 * Where an MCP server's code or endpoint comes from, as far as its config entry says: the facts
 * that make approving it without a prompt hand the machine to whoever controls that source
 * (BW-CFG-001 grades its approvals with them).
 */
import { extractMcpServers, isRecord, parseJsonLoose, type McpServerEntry } from '../parsers/json-config.parser';
import type { ScanContext } from '../views/scan-context';
import { hostOfUrl, insecureDestination, isLocalHost } from './intent-evidence';

/** A package-manager flag naming the index or registry the package is fetched from. */
const INDEX_FLAG = /^--?(?:registry|index-url|extra-index-url|index|i|find-links|f)(?:=(.{1,300}))?$/;
/** A package given as an address rather than a name: a URL, a git remote, a tarball. */
const PACKAGE_ADDRESS = /^(?:https?:\/\/|git\+|git:\/\/|ssh:\/\/)|\.(?:tgz|tar\.gz|whl|zip)$/i;
/** An environment variable whose value is a credential (`AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`). */
const CREDENTIAL_VARIABLE =
  /\b([A-Z][A-Z0-9]{1,20})_(?:[A-Z0-9]{1,20}_){0,3}(?:SECRET(?:_ACCESS)?_KEY|SECRET|TOKEN|PAT|PASSWORD|API_KEY|ACCESS_KEY(?:_ID)?)\b/g;

export const MCP_SERVER_ORIGIN_REGEXES: readonly RegExp[] = [INDEX_FLAG, PACKAGE_ADDRESS, CREDENTIAL_VARIABLE];

const remote = (url: string): boolean => {
  const host = hostOfUrl(url);
  return host !== null && !isLocalHost(host);
};

/**
 * Why nobody vouches for this server, or null: its package comes from an index other than the
 * default or from a bare address, its remote endpoint is plain http or an IP address, or its
 * remote endpoint is handed the credentials of more than one service (a server needs its own).
 */
export function foreignOrigin(s: McpServerEntry): string | null {
  for (let i = 0; i < s.args.length; i++) {
    const m = INDEX_FLAG.exec(s.args[i]);
    if (m && remote(m[1] ?? s.args[i + 1] ?? '')) return 'its package from an index other than the default';
  }
  const pkg = s.args.find((a) => !a.startsWith('-'));
  if (pkg !== undefined && PACKAGE_ADDRESS.test(pkg) && (!/^https?:/i.test(pkg) || remote(pkg))) return 'its package from a bare address';
  if (s.url !== null && insecureDestination(s.url)) return 'a remote server over plain http or an IP address';
  if (s.url !== null && remote(s.url)) {
    const services = new Set<string>();
    for (const v of Object.values(s.headers)) for (const m of v.matchAll(CREDENTIAL_VARIABLE)) services.add(m[1]);
    if (services.size >= 2) return 'a remote server handed the credentials of other services';
  }
  return null;
}

const memo = new WeakMap<ScanContext, McpServerEntry[]>();

/**
 * The MCP servers this file and its bundle declare (a settings file approves the servers of the
 * project's `.mcp.json`, which arrives beside it).
 */
export function declaredServers(ctx: ScanContext): McpServerEntry[] {
  const known = memo.get(ctx);
  if (known) return known;
  const out: McpServerEntry[] = ctx.language === 'json' ? extractMcpServers(ctx.json, ctx.lines) : [];
  for (const f of ctx.bundle.files) {
    if (f.relativePath === ctx.path || !/\.json$/i.test(f.relativePath) || !/mcpServers|"servers"/.test(f.text)) continue;
    const json = parseJsonLoose(f.text);
    if (isRecord(json)) out.push(...extractMcpServers(json, f.text.split('\n')));
  }
  memo.set(ctx, out);
  return out;
}

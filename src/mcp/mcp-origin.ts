import { isIP } from 'node:net';

/**
 * Host/Origin allow-list for /mcp (DNS-rebinding defence, which the MCP SDK leaves to the host;
 * docs/decisions/0024-dependency-pitfalls.md, 5). A browser page on an
 * attacker's domain that resolves to this server sends its own Host and Origin, so both must name
 * this server: loopback names, the PUBLIC_URL host, and (Origin only) the configured CORS origins.
 * Ports are not compared: rebinding changes the name, not the port, and proxies rewrite ports.
 */
export interface McpOriginPolicy {
  /** Host names accepted in `Host` and in `Origin` (lower case, IPv6 without brackets). */
  hosts: ReadonlySet<string>;
  /** Full origins accepted in `Origin` besides the hosts above (CORS_ORIGINS). */
  origins: ReadonlySet<string>;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

export function mcpOriginPolicy(publicUrl: string, corsOrigins: readonly string[] = []): McpOriginPolicy {
  const hosts = new Set(LOOPBACK_NAMES);
  hosts.add(stripBrackets(new URL(publicUrl).hostname.toLowerCase()));
  const origins = new Set<string>();
  for (const o of corsOrigins) {
    try {
      origins.add(new URL(o).origin.toLowerCase());
    } catch {
      // CORS_ORIGINS is validated as a list only; an entry that is not a URL never matches.
    }
  }
  return { hosts, origins };
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** Host name of a `Host` header value (`name`, `name:port`, `[v6]:port`); null when malformed. */
export function hostName(header: string): string | null {
  const value = header.trim().toLowerCase();
  if (value === '') return null;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end === -1) return null;
    const inner = value.slice(1, end);
    const rest = value.slice(end + 1);
    if (isIP(inner) !== 6 || (rest !== '' && !/^:\d{1,5}$/.test(rest))) return null;
    return inner;
  }
  const match = /^([a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value);
  return match ? match[1]! : null;
}

export type OriginVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Checks the `Host` and `Origin` headers of an /mcp request. A missing Origin is fine (non-browser
 * clients send none); a missing Host is not (HTTP/1.1 requires it, and it is what rebinding fakes).
 */
export function checkMcpOrigin(policy: McpOriginPolicy, host: string | undefined, origin: string | undefined): OriginVerdict {
  const name = host === undefined ? null : hostName(host);
  if (name === null || !policy.hosts.has(name)) return { ok: false, reason: 'Host header not allowed for /mcp' };
  if (origin === undefined) return { ok: true };
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return { ok: false, reason: 'Origin not allowed for /mcp' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: 'Origin not allowed for /mcp' };
  if (policy.origins.has(parsed.origin.toLowerCase())) return { ok: true };
  if (policy.hosts.has(stripBrackets(parsed.hostname.toLowerCase()))) return { ok: true };
  return { ok: false, reason: 'Origin not allowed for /mcp' };
}

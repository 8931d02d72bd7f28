import { BlockList, isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';

/** The parts of a request the address logic reads (Express and raw Node requests both fit). */
export interface RequestLike {
  socket?: { remoteAddress?: string } | null;
  headers: IncomingHttpHeaders;
}

/**
 * Source-network identity for per-IP buckets (docs/rate-limits.md): an IPv4 address exactly, an IPv6
 * address by its /64 (one subscriber usually owns a whole /64, so per-address buckets would be
 * trivially evaded). IPv4-mapped IPv6 (`::ffff:1.2.3.4`, what a dual-stack socket reports for IPv4
 * clients) counts as the IPv4 address.
 */
export function networkKey(address: string): string {
  const addr = stripZone(address.trim());
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  if (mapped) return mapped[1]!;
  const family = isIP(addr);
  if (family === 4) return addr;
  if (family === 6) return `${expandIPv6(addr).slice(0, 4).join(':')}::/64`;
  // Not an address (should not happen for socket peers); keep it distinct but bounded.
  return `unknown:${addr.slice(0, 64)}`;
}

function stripZone(addr: string): string {
  const pct = addr.indexOf('%');
  return pct === -1 ? addr : addr.slice(0, pct);
}

/** Eight 4-digit lower-case hex groups. Input must already be a valid IPv6 address. */
export function expandIPv6(addr: string): string[] {
  let text = addr.toLowerCase();
  // Embedded IPv4 tail (e.g. ::ffff:1.2.3.4 or 64:ff9b::1.2.3.4) becomes two hex groups.
  const v4 = /(?<!\d)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? [] : new Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...fill, ...tailGroups].map((g) => g.padStart(4, '0'));
}

/** Parsed TRUSTED_PROXIES: the peers whose X-Forwarded-For header is believed. */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly empty: boolean;

  constructor(cidrs: readonly string[]) {
    for (const entry of cidrs) {
      const [addr, bits] = entry.split('/') as [string, string | undefined];
      const family = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) this.list.addAddress(addr, family);
      else this.list.addSubnet(addr, Number(bits), family);
    }
    this.empty = cidrs.length === 0;
  }

  trusts(address: string): boolean {
    if (this.empty) return false;
    const addr = stripZone(address.trim());
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
    const plain = mapped ? mapped[1]! : addr;
    const family = isIP(plain);
    if (family === 0) return false;
    return this.list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  }
}

/**
 * The client's address: the socket peer, unless that peer is a trusted proxy, in which case
 * X-Forwarded-For is walked from the right (nearest hop) past further trusted proxies; the first
 * untrusted hop is the client. Left-most entries are client-controlled and never believed blindly.
 */
export function clientAddress(req: RequestLike, trusted: TrustedProxies): string {
  const peer = req.socket?.remoteAddress ?? '';
  if (trusted.empty || !trusted.trusts(peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const raw = Array.isArray(header) ? header.join(',') : (header ?? '');
  const hops = raw
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (isIP(stripZone(hop)) === 0) break; // garbage: stop at the last address we could verify
    client = hop;
    if (!trusted.trusts(hop)) break;
  }
  return client;
}

// Per-request cache on a symbol property, not a WeakMap: WeakMap entries for millions of
// short-lived requests are ephemerons the GC must trace specially. Without trusted proxies the
// answer depends on the connection only, so it is cached on the (keep-alive) socket instead.
const NETWORK = Symbol('bulwark.clientNetwork');

interface NetworkHolder {
  [NETWORK]?: string;
}

/** {@link networkKey} of {@link clientAddress}, computed once per request (or connection). */
export function clientNetwork(req: RequestLike, trusted: TrustedProxies): string {
  const holder = (trusted.empty && req.socket ? req.socket : req) as NetworkHolder;
  let key = holder[NETWORK];
  if (key === undefined) {
    key = networkKey(clientAddress(req, trusted));
    holder[NETWORK] = key;
  }
  return key;
}

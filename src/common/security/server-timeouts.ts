import type { Server } from 'node:http';

export interface ServerTimeouts {
  /** Time allowed to receive the request headers (slowloris). */
  headersTimeoutMs: number;
  /** Time allowed to receive the whole request, body included (slow uploads). */
  requestTimeoutMs: number;
  /** Idle time before a keep-alive connection is closed. */
  keepAliveTimeoutMs: number;
  /** How often Node sweeps connections for the two timeouts above (its default is 30 s). */
  checkIntervalMs: number;
}

/**
 * Production values. keep-alive 5 s stays above the reference nginx's upstream keepalive_timeout
 * (4 s, deploy/nginx) so the proxy always closes an idle connection first (no reset races).
 * 60 s to receive a request covers a 5 MB JSON body or a 1 MB upload on a slow link; the response
 * time (scan deadline, judge) is not part of it.
 */
export const SERVER_TIMEOUTS: ServerTimeouts = {
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
};

/**
 * Applies the timeouts to the HTTP server before it listens (Node reads the check interval when
 * listening starts). A client too slow with its headers or body gets 408 and the socket closes.
 */
export function applyServerTimeouts(server: Server, timeouts: ServerTimeouts = SERVER_TIMEOUTS): void {
  // Node requires headersTimeout <= requestTimeout.
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.headersTimeout = Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs);
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = timeouts.checkIntervalMs;
}

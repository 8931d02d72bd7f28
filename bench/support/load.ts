/**
 * Runs bench/support/load-client.cjs (autocannon) in a child process and returns its summary, so
 * the load generator never shares an event loop (or a heap) with the server it measures.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pinnedCommand } from './cpu-pinning';

export interface LoadOptions {
  url: string;
  connections?: number;
  /** Seconds of measured load (ignored when `amount` is set). */
  duration?: number;
  /** Exact number of requests instead of a duration. */
  amount?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Binary body read by the client from this file (a prepared multipart upload). */
  bodyFile?: string;
  /** Paths cycled per connection (different ids, pages). */
  paths?: string[];
  /** Seconds of unmeasured load first (JIT, pools, caches). */
  warmup?: number;
  timeout?: number;
}

export interface LoadResult {
  rps: number;
  total: number;
  duration_s: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  mean_ms: number;
  max_ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
}

const CLIENT = join(__dirname, 'load-client.cjs');

/** `pinTo`: a CPU list for the load generator (see cpu-pinning.ts), e.g. to keep it off the server's core. */
export function runLoad(opts: LoadOptions, pinTo?: string): Promise<LoadResult> {
  const [file, args] = pinnedCommand(process.execPath, [CLIENT, JSON.stringify(opts)], pinTo);
  return new Promise((resolve, reject) => {
    execFile(file, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`load client failed: ${stderr || err.message}`));
      try {
        resolve(JSON.parse(stdout.trim().split('\n').pop()!) as LoadResult);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  });
}

/** Fails loudly when a measured run was not what we meant to measure (errors, 4xx/5xx). */
export function assertClean(name: string, r: LoadResult, allowNon2xx = 0): void {
  if (r.errors > 0 || r.timeouts > 0 || r.non2xx > allowNon2xx || r.total === 0) {
    throw new Error(`${name}: ${r.total} requests, ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts, statuses ${JSON.stringify(r.statuses)}`);
  }
}

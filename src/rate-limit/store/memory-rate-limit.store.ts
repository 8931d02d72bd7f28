import { IncrementalSweep } from './incremental-sweep';
import type { BucketCheck, BucketState, EvaluateResult, RateLimitStore, Reservation } from './rate-limit-store';

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Per-process store: a Map of fixed windows. O(1) per check whatever the limit (a counter, not a
 * log of timestamps). Expiry is lazy: a window past its end is treated as empty when read, and a
 * small incremental sweep (a few entries per call) drops dead windows so memory stays bounded by
 * the buckets active within one window length.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, Window>();
  /** Windows past their end, dropped a few per call (see IncrementalSweep). */
  private readonly sweeper = new IncrementalSweep(this.windows, (w: Window, now) => w.resetAt <= now);

  /** Synchronous core, also used directly by the Redis fallback and the benchmark. */
  evaluateSync(checks: readonly BucketCheck[], now: number): EvaluateResult {
    const n = checks.length;
    this.sweeper.step(n + 1, now);
    const current: (Window | undefined)[] = new Array(n);
    const buckets: BucketState[] = new Array(n);
    let allowed = true;
    for (let i = 0; i < n; i++) {
      const c = checks[i]!;
      let w = this.windows.get(c.key);
      if (w !== undefined && w.resetAt <= now) w = undefined;
      current[i] = w;
      const count = w === undefined ? 0 : w.count;
      const ok = count + (c.cost ?? 1) <= c.limit;
      if (!ok) allowed = false;
      buckets[i] = {
        key: c.key,
        limit: c.limit,
        remaining: Math.max(0, c.limit - count),
        resetAt: w === undefined ? now + c.windowMs : w.resetAt,
        allowed: ok,
      };
    }
    if (allowed) {
      for (let i = 0; i < n; i++) {
        const c = checks[i]!;
        const cost = c.cost ?? 1;
        const w = current[i];
        const b = buckets[i]!;
        if (w === undefined) this.windows.set(c.key, { count: cost, resetAt: b.resetAt });
        else w.count += cost;
        b.remaining = Math.max(0, b.remaining - cost);
      }
    }
    return { allowed, buckets };
  }

  evaluate(checks: readonly BucketCheck[], now: number): Promise<EvaluateResult> {
    return Promise.resolve(this.evaluateSync(checks, now));
  }

  releaseSync(reservations: readonly Reservation[], now: number): void {
    for (const r of reservations) {
      const w = this.windows.get(r.key);
      if (w !== undefined && w.resetAt === r.resetAt && w.resetAt > now) w.count = Math.max(0, w.count - r.cost);
    }
  }

  release(reservations: readonly Reservation[], now: number): Promise<void> {
    this.releaseSync(reservations, now);
    return Promise.resolve();
  }

  /** Number of windows held (open or not yet swept); for tests and metrics. */
  get size(): number {
    return this.windows.size;
  }
}

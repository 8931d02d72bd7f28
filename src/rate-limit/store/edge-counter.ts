import { IncrementalSweep } from './incremental-sweep';
import type { BucketCheck, RateLimitStore } from './rate-limit-store';

/**
 * The limit of the checks a sync sends: the edge decides its allowance itself, so the shared store
 * must only add (it always admits, and `limit - remaining` is the count after the addition).
 */
const UNCAPPED = Number.MAX_SAFE_INTEGER;

export interface EdgeCounterOptions {
  /** How long counted requests wait before they are added to the shared counters. */
  flushEveryMs?: number;
  /** A failed sync (the counts are kept and retried); called at most once per 30 s. */
  onSyncError?: (message: string) => void;
}

interface EdgeBucket {
  key: string;
  windowMs: number;
  /** Window end (epoch ms): opened locally, then taken from the shared counter once synced. */
  resetAt: number;
  /** The shared count as last synced (includes this process's synced requests). */
  shared: number;
  /** Admitted here, not yet sent. */
  pending: number;
  /** Sent in the sync now in flight. */
  inflight: number;
}

export interface EdgeAdmission {
  allowed: boolean;
  resetAt: number;
}

/**
 * Counters of the edge layer (DESIGN.md §10): decided in process, with no I/O on the request path,
 * and — when a shared store is given — added to the shared counters in one batch every
 * `flushEveryMs` (write-behind). The edge is the coarse flood guard in front of everything (2,000
 * requests per 5 minutes per network), so it trades exactness across replicas for zero per-request
 * round trips: one replica alone counts exactly; N replicas may together admit at most what the
 * others admitted during one flush interval beyond the allowance. The application limits behind it
 * (per key, per endpoint, cooldowns) stay exact and shared. Without a shared store it is an exact
 * per-process fixed-window counter. Rejected requests are not counted, as in every other layer.
 */
export class EdgeCounter {
  private readonly buckets = new Map<string, EdgeBucket>();
  private readonly dirty = new Set<EdgeBucket>();
  /** Buckets of ended windows with no sync in flight, dropped two per admit (more than one admit adds). */
  private readonly sweeper = new IncrementalSweep(
    this.buckets,
    (b: EdgeBucket, now) => b.resetAt <= now && b.inflight === 0,
    (key, b) => {
      this.buckets.delete(key);
      this.dirty.delete(b);
    },
  );
  private timer: NodeJS.Timeout | null = null;
  private syncing = false;
  private closed = false;
  private lastWarn = Number.NEGATIVE_INFINITY;
  private readonly flushEveryMs: number;

  constructor(
    /** The shared store itself, not a fallback wrapper: a failed sync must fail so its counts are resent. */
    private readonly shared: RateLimitStore | null,
    private readonly clock: { now(): number },
    private readonly options: EdgeCounterOptions = {},
  ) {
    this.flushEveryMs = options.flushEveryMs ?? 100;
  }

  /** Counts the request unless it would exceed the allowance. O(1), synchronous. */
  admit(check: BucketCheck): EdgeAdmission {
    const now = this.clock.now();
    this.sweeper.step(2, now);
    let b = this.buckets.get(check.key);
    if (b === undefined) {
      b = { key: check.key, windowMs: check.windowMs, resetAt: now + check.windowMs, shared: 0, pending: 0, inflight: 0 };
      this.buckets.set(check.key, b);
    } else if (b.resetAt <= now) {
      // A new window. Counts of the old one still pending are dropped: they belonged to it.
      this.dirty.delete(b);
      b = { key: check.key, windowMs: check.windowMs, resetAt: now + check.windowMs, shared: 0, pending: 0, inflight: 0 };
      this.buckets.set(check.key, b);
    }
    const cost = check.cost ?? 1;
    if (b.shared + b.pending + b.inflight + cost > check.limit) return { allowed: false, resetAt: b.resetAt };
    b.pending += cost;
    if (this.shared !== null) {
      this.dirty.add(b);
      this.schedule();
    }
    return { allowed: true, resetAt: b.resetAt };
  }

  /** Sends what is pending now (also what the timer does). Resolves when that sync has finished. */
  async flush(): Promise<void> {
    if (this.shared === null || this.syncing || this.dirty.size === 0) return;
    const now = this.clock.now();
    // Counts of a window that has ended are not sent: the shared counter would start a new window with them.
    const batch = [...this.dirty].filter((b) => b.resetAt > now);
    this.dirty.clear();
    if (batch.length === 0) return;
    this.syncing = true;
    for (const b of batch) {
      b.inflight = b.pending;
      b.pending = 0;
    }
    try {
      const result = await this.shared.evaluate(
        batch.map((b) => ({ key: b.key, limit: UNCAPPED, windowMs: b.windowMs, cost: b.inflight })),
        now,
      );
      batch.forEach((b, i) => {
        const bucket = result.buckets[i]!;
        b.shared = UNCAPPED - bucket.remaining;
        b.resetAt = bucket.resetAt;
        b.inflight = 0;
      });
    } catch (err) {
      // Keep deciding locally and send these again with the next batch.
      for (const b of batch) {
        b.pending += b.inflight;
        b.inflight = 0;
        if (this.buckets.get(b.key) === b) this.dirty.add(b);
      }
      if (now - this.lastWarn >= 30_000) {
        this.lastWarn = now;
        this.options.onSyncError?.(`edge counters not shared (${err instanceof Error ? err.message : String(err)}); counting per process until the store answers`);
      }
    } finally {
      this.syncing = false;
      if (this.dirty.size > 0) this.schedule();
    }
  }

  /** Stops the timer; counts still pending are not sent (the process is going away). */
  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Buckets held (open windows, or expired ones not yet swept); for tests. */
  get size(): number {
    return this.buckets.size;
  }

  private schedule(): void {
    if (this.timer !== null || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.flushEveryMs);
    this.timer.unref();
  }
}

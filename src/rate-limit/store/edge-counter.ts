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

/** One network's window in this process (a new window is a new object). */
export interface EdgeBucket {
  key: string;
  windowMs: number;
  /** Window end (epoch ms): opened locally, then taken from the shared counter once synced. */
  resetAt: number;
  /** The shared count as last synced (includes this process's synced requests). */
  shared: number;
  /** Admitted here, not yet sent; below zero when more units were handed back than are unsent. */
  pending: number;
  /** Sent in the sync now in flight (below zero: a hand-back in flight). */
  inflight: number;
}

export interface EdgeAdmission {
  allowed: boolean;
  resetAt: number;
  /** The bucket that counted the request and its units, until release() hands them back; unset when not admitted. */
  bucket?: EdgeBucket;
  cost?: number;
}

/**
 * Counters of the edge layer (docs/rate-limits.md "Edge layer"): decided in process, with no I/O on the request path,
 * and — when a shared store is given — added to the shared counters in one batch every
 * `flushEveryMs` (write-behind). The edge is the coarse flood guard in front of everything (2,000
 * requests per 5 minutes per network), so it trades exactness across replicas for zero per-request
 * round trips: one replica alone counts exactly; N replicas may together admit at most what the
 * others admitted during one flush interval beyond the allowance. The application limits behind it
 * (per key, per endpoint, cooldowns) stay exact and shared. Without a shared store it is an exact
 * per-process fixed-window counter. Rejected requests are not counted, as in every other layer,
 * and a request a later limit refuses gets its unit back (release).
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
    this.markDirty(b);
    return { allowed: true, resetAt: b.resetAt, bucket: b, cost };
  }

  /**
   * Hands back the unit of an admitted request that a later limit refused (a refused request
   * consumes nothing). Only within the window that counted it; once per admission. Units already
   * sent to the shared counters are taken off them with the next batch.
   */
  release(admission: EdgeAdmission): void {
    const b = admission.bucket;
    if (b === undefined) return;
    admission.bucket = undefined;
    if (this.buckets.get(b.key) !== b || b.resetAt <= this.clock.now()) return;
    b.pending -= admission.cost ?? 1;
    this.markDirty(b);
  }

  private markDirty(b: EdgeBucket): void {
    if (this.shared === null) return;
    this.dirty.add(b);
    this.schedule();
  }

  /** Sends what is pending now (also what the timer does). Resolves when that sync has finished. */
  async flush(): Promise<void> {
    if (this.shared === null || this.syncing || this.dirty.size === 0) return;
    const now = this.clock.now();
    // Counts of a window that has ended are not sent: the shared counter would start a new window with them.
    const batch = [...this.dirty].filter((b) => b.resetAt > now && b.pending !== 0);
    this.dirty.clear();
    if (batch.length === 0) return;
    this.syncing = true;
    for (const b of batch) {
      b.inflight = b.pending;
      b.pending = 0;
    }
    const shared = this.shared;
    try {
      await Promise.all([
        this.sync(
          batch.filter((b) => b.inflight > 0),
          now,
          async (adds) => {
            const result = await shared.evaluate(
              adds.map((b) => ({ key: b.key, limit: UNCAPPED, windowMs: b.windowMs, cost: b.inflight })),
              now,
            );
            adds.forEach((b, i) => {
              const bucket = result.buckets[i]!;
              b.shared = UNCAPPED - bucket.remaining;
              b.resetAt = bucket.resetAt;
            });
          },
        ),
        // Handed-back units were sent before (a sync in flight delays this flush), so resetAt is the
        // shared window's end, which the store's release needs to match.
        this.sync(
          batch.filter((b) => b.inflight < 0),
          now,
          async (returns) => {
            await shared.release(
              returns.map((b) => ({ key: b.key, resetAt: b.resetAt, cost: -b.inflight })),
              now,
            );
            for (const b of returns) b.shared = Math.max(0, b.shared + b.inflight);
          },
        ),
      ]);
    } finally {
      this.syncing = false;
      if (this.dirty.size > 0) this.schedule();
    }
  }

  /** Runs one store call for `group`; on failure keeps deciding locally and sends them again with the next batch. */
  private async sync(group: EdgeBucket[], now: number, send: (group: EdgeBucket[]) => Promise<void>): Promise<void> {
    if (group.length === 0) return;
    try {
      await send(group);
      for (const b of group) b.inflight = 0;
    } catch (err) {
      for (const b of group) {
        b.pending += b.inflight;
        b.inflight = 0;
        if (this.buckets.get(b.key) === b) this.dirty.add(b);
      }
      if (now - this.lastWarn >= 30_000) {
        this.lastWarn = now;
        this.options.onSyncError?.(
          `edge counters not shared (${err instanceof Error ? err.message : String(err)}); counting per process until the store answers`,
        );
      }
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

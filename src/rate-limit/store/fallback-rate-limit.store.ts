import { MemoryRateLimitStore } from './memory-rate-limit.store';
import type { BucketCheck, EvaluateResult, RateLimitStore, Reservation } from './rate-limit-store';

export interface FallbackEvents {
  /** Called on every evaluation answered without the primary store (metric hook). */
  onFallback(reason: 'error' | 'not_ready', failedClosed: boolean): void;
  /** Called at most once per `warnEveryMs` while the primary keeps failing (log hook). */
  onWarn(message: string): void;
}

export interface PrimaryStore extends RateLimitStore {
  /** False while disconnected: skip the call instead of waiting for it to fail. */
  readonly ready?: boolean;
}

/**
 * Shared store with a per-process safety net (docs/decisions/0023-rate-limiting-model.md): when Redis errors or is not
 * connected, answer from memory so the API keeps serving (each replica then enforces the limits on
 * its own share of traffic), with a warning and a metric. Checks marked `failClosed`
 * (reset-password, credentials) are refused instead: there a per-replica budget would multiply
 * the allowance an attacker gets.
 */
export class FallbackRateLimitStore implements RateLimitStore {
  private lastWarn = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly primary: PrimaryStore,
    private readonly events: FallbackEvents,
    private readonly memory = new MemoryRateLimitStore(),
    private readonly warnEveryMs = 30_000,
  ) {}

  async evaluate(checks: readonly BucketCheck[], now: number): Promise<EvaluateResult> {
    if (this.primary.ready === false) return this.degrade(checks, now, 'not_ready', 'Redis not connected');
    try {
      return await this.primary.evaluate(checks, now);
    } catch (err) {
      return this.degrade(checks, now, 'error', err instanceof Error ? err.message : String(err));
    }
  }

  async release(reservations: readonly Reservation[], now: number): Promise<void> {
    // A reservation made during an outage lives in memory; one made in Redis is released there.
    this.memory.releaseSync(reservations, now);
    if (this.primary.ready === false) return;
    try {
      await this.primary.release(reservations, now);
    } catch (err) {
      this.warn(now, `rate-limit release failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private degrade(checks: readonly BucketCheck[], now: number, reason: 'error' | 'not_ready', why: string): EvaluateResult {
    const failClosed = checks.some((c) => c.failClosed === true);
    this.events.onFallback(reason, failClosed);
    this.warn(now, `rate-limit store unavailable (${why}); using per-process counters, fail-closed limits refuse`);
    if (failClosed) {
      return {
        allowed: false,
        degraded: 'unavailable',
        buckets: checks.map((c) => ({ key: c.key, limit: c.limit, remaining: 0, resetAt: now, allowed: !c.failClosed })),
      };
    }
    return { ...this.memory.evaluateSync(checks, now), degraded: 'fallback' };
  }

  private warn(now: number, message: string): void {
    // Real time would be nicer, but `now` is what we have; a fake clock just changes log cadence.
    if (now - this.lastWarn < this.warnEveryMs) return;
    this.lastWarn = now;
    this.events.onWarn(message);
  }
}

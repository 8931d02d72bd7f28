/**
 * Counter store behind every rate-limit layer (docs/decisions/0023-rate-limiting-model.md). Pluggable provider: this interface
 * plus the same-named injection token; memory (default) and Redis implementations.
 *
 * Semantics shared by every implementation (the contract suite in
 * src/rate-limit/rate-limit-contract.spec.ts runs against each):
 * - Fixed window per bucket: it opens at the first admitted request and ends `windowMs` later, when
 *   the count starts again from zero.
 * - `evaluate` is all-or-nothing: if any bucket would exceed its limit, no bucket is counted.
 * - The limit is read from the check, not stored, so a raised limit applies mid-window.
 * - `now` comes from the caller's Clock; stores never read the time themselves.
 */
export interface BucketCheck {
  /** Full bucket identity, e.g. `app:key:<apiKeyId>`; never token material. */
  key: string;
  limit: number;
  windowMs: number;
  /** Units this request costs (default 1). */
  cost?: number;
  /**
   * When the store cannot be reached, refuse the request instead of counting in per-process
   * memory (reset-password and credentials limits).
   */
  failClosed?: boolean;
}

export interface BucketState {
  key: string;
  limit: number;
  /** Requests left in the current window after this evaluation. */
  remaining: number;
  /** Epoch ms at which the current window ends (for a bucket with no open window: now + windowMs). */
  resetAt: number;
  /** Whether this bucket alone would admit the request. */
  allowed: boolean;
}

export interface EvaluateResult {
  /** True when every bucket admitted the request (and all were counted). */
  allowed: boolean;
  /** One entry per check, in the order given. */
  buckets: BucketState[];
  /**
   * Set when the shared store failed and the answer came from per-process memory, or (with
   * `allowed: false`) when a fail-closed check could not be evaluated at all.
   */
  degraded?: 'fallback' | 'unavailable';
}

/** A counted unit that may be handed back (cooldowns count only actions that succeed). */
export interface Reservation {
  key: string;
  /** The window it was counted in; a release after that window ended does nothing. */
  resetAt: number;
  cost: number;
}

export interface RateLimitStore {
  evaluate(checks: readonly BucketCheck[], now: number): Promise<EvaluateResult>;
  /**
   * Present on stores that answer without I/O (memory): the same answer with no promise, so a
   * request limited in memory never waits a microtask for its limiter.
   */
  evaluateSync?(checks: readonly BucketCheck[], now: number): EvaluateResult;
  /** Un-count reservations, each only if its window is still the current one. */
  release(reservations: readonly Reservation[], now: number): Promise<void>;
}

/** Injection token for {@link RateLimitStore}. */
export const RateLimitStore = Symbol('RateLimitStore');

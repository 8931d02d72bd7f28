/**
 * When the CLI retries (docs/cli.md "Network behaviour"):
 * honour Retry-After on 429 and 503, retry at most three times within 60 seconds, back off on its
 * own bounded schedule when the server gives no Retry-After (503 scanner down, edge 403, network
 * failure). Pure: the HTTP client feeds it outcomes and sleeps for what it returns.
 */

export interface RetryPolicyOptions {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Every retry must start within this long of the first attempt. */
  windowMs: number;
  /** First step of the client's own exponential backoff. */
  baseDelayMs: number;
  /** Upper bound of one backoff step. */
  maxDelayMs: number;
  /** 0 ≤ x < 1, for jitter (injected in tests). */
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicyOptions> = Object.freeze({
  maxRetries: 3,
  windowMs: 60_000,
  baseDelayMs: 1_000,
  maxDelayMs: 20_000,
  random: Math.random,
});

export type AttemptOutcome =
  | {
      kind: 'response';
      status: number;
      /** The raw Retry-After header, if any. */
      retryAfter: string | null;
      /** The body parsed as JSON with a `detail` (the service's error shape). */
      hasDetailBody: boolean;
    }
  | { kind: 'network_error' };

export type RetryReason = 'rate_limited' | 'capacity' | 'unavailable' | 'edge_limit' | 'network';

export type RetryDecision =
  | { retry: true; delayMs: number; reason: RetryReason; serverAsked: boolean }
  | { retry: false; reason: RetryReason | 'not_retryable'; giveUp?: 'retries_exhausted' | 'retry_after_beyond_window' | 'window_exhausted'; delayMs?: number };

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unparseable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (/^\d+\.\d+$/.test(v)) return Math.ceil(Number(v) * 1000);
  const date = Date.parse(v);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}

/** Exponential backoff with jitter in [50 %, 100 %] of the step, bounded by maxDelayMs. */
export function backoffDelay(retryIndex: number, o: RetryPolicyOptions): number {
  const step = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** retryIndex);
  return Math.round(step * (0.5 + 0.5 * o.random()));
}

/** Which outcomes are worth another attempt, and why (null: not retryable). */
export function classifyOutcome(outcome: AttemptOutcome): RetryReason | null {
  if (outcome.kind === 'network_error') return 'network';
  switch (outcome.status) {
    case 429:
      return 'rate_limited';
    case 503:
      return outcome.retryAfter !== null ? 'capacity' : 'unavailable';
    case 403:
      // The service's own 403 (missing scope) has a JSON detail; an edge block has no body (docs/errors.md).
      return outcome.hasDetailBody ? null : 'edge_limit';
    default:
      return null;
  }
}

/**
 * Decides what to do after an attempt. `retriesSoFar` counts retries already made; `elapsedMs` is
 * the time since the first attempt started.
 */
export function decideRetry(
  outcome: AttemptOutcome,
  state: { retriesSoFar: number; elapsedMs: number; nowMs: number },
  o: RetryPolicyOptions = DEFAULT_RETRY_POLICY,
): RetryDecision {
  const reason = classifyOutcome(outcome);
  if (reason === null) return { retry: false, reason: 'not_retryable' };
  if (state.retriesSoFar >= o.maxRetries) return { retry: false, reason, giveUp: 'retries_exhausted' };
  const left = o.windowMs - state.elapsedMs;
  const asked = outcome.kind === 'response' && (outcome.status === 429 || outcome.status === 503) ? parseRetryAfter(outcome.retryAfter, state.nowMs) : null;
  if (asked !== null) {
    // The server's word wins; if it cannot be honoured inside the window, waiting is pointless.
    if (asked > left) return { retry: false, reason, giveUp: 'retry_after_beyond_window', delayMs: asked };
    return { retry: true, delayMs: asked, reason, serverAsked: true };
  }
  if (left <= 0) return { retry: false, reason, giveUp: 'window_exhausted' };
  return { retry: true, delayMs: Math.min(backoffDelay(state.retriesSoFar, o), left), reason, serverAsked: false };
}

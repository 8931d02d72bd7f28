import { backoffDelay, decideRetry, DEFAULT_RETRY_POLICY, parseRetryAfter, type AttemptOutcome } from './retry-policy';

const o = { ...DEFAULT_RETRY_POLICY, random: () => 0.5 };
const res = (status: number, retryAfter: string | null = null, hasDetailBody = true): AttemptOutcome => ({
  kind: 'response',
  status,
  retryAfter,
  hasDetailBody,
});
const at = (retriesSoFar: number, elapsedMs = 0) => ({ retriesSoFar, elapsedMs, nowMs: Date.parse('2026-01-01T00:00:00Z') });

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates, rejects junk', () => {
    expect(parseRetryAfter('7', 0)).toBe(7000);
    expect(parseRetryAfter(' 0 ', 0)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(5000);
    expect(parseRetryAfter('Thu, 01 Jan 2025 00:00:05 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(0);
    expect(parseRetryAfter('soon', 0)).toBeNull();
    expect(parseRetryAfter(null, 0)).toBeNull();
  });
});

describe('decideRetry', () => {
  it('honours Retry-After on 429 and on saturated 503', () => {
    expect(decideRetry(res(429, '3'), at(0), o)).toEqual({ retry: true, delayMs: 3000, reason: 'rate_limited', serverAsked: true });
    expect(decideRetry(res(503, '2'), at(1), o)).toEqual({ retry: true, delayMs: 2000, reason: 'capacity', serverAsked: true });
  });

  it('retries at most three times', () => {
    expect(decideRetry(res(429, '1'), at(2), o).retry).toBe(true);
    expect(decideRetry(res(429, '1'), at(3), o)).toMatchObject({ retry: false, giveUp: 'retries_exhausted' });
  });

  it('gives up at once when Retry-After cannot be honoured within 60 s of the first attempt', () => {
    expect(decideRetry(res(429, '120'), at(0), o)).toMatchObject({ retry: false, giveUp: 'retry_after_beyond_window', delayMs: 120_000 });
    expect(decideRetry(res(429, '20'), at(1, 45_000), o)).toMatchObject({ retry: false, giveUp: 'retry_after_beyond_window' });
    expect(decideRetry(res(429, '15'), at(1, 45_000), o).retry).toBe(true);
  });

  it('backs off on its own bounded schedule without Retry-After (503 down, edge 403, network)', () => {
    expect(decideRetry(res(503), at(0), o)).toEqual({ retry: true, delayMs: 750, reason: 'unavailable', serverAsked: false });
    expect(decideRetry(res(403, null, false), at(1), o)).toEqual({ retry: true, delayMs: 1500, reason: 'edge_limit', serverAsked: false });
    expect(decideRetry({ kind: 'network_error' }, at(2), o)).toEqual({ retry: true, delayMs: 3000, reason: 'network', serverAsked: false });
    // Never past the end of the window.
    expect(decideRetry(res(503), at(2, 59_500), o)).toMatchObject({ retry: true, delayMs: 500 });
    expect(decideRetry(res(503), at(2, 60_000), o)).toMatchObject({ retry: false, giveUp: 'window_exhausted' });
  });

  it('does not retry what retrying cannot fix', () => {
    for (const s of [400, 401, 404, 413, 422, 500, 502]) expect(decideRetry(res(s), at(0), o)).toEqual({ retry: false, reason: 'not_retryable' });
    // A 403 with the service's JSON detail is a missing scope, not an edge block.
    expect(decideRetry(res(403, null, true), at(0), o)).toEqual({ retry: false, reason: 'not_retryable' });
  });

  it('jitters each step within [50 %, 100 %] and caps it', () => {
    expect(backoffDelay(0, { ...o, random: () => 0 })).toBe(500);
    expect(backoffDelay(0, { ...o, random: () => 0.999999 })).toBe(1000);
    expect(backoffDelay(10, { ...o, random: () => 0.999999 })).toBe(o.maxDelayMs);
  });
});

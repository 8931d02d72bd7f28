/**
 * Slows the CLI down as X-RateLimit-Remaining approaches zero (docs/rate-limits.md), so a large
 * scan spreads its last requests over the rest of the window instead of running into 429s. Shared
 * by every request of one run; the delays it returns are waited with the cancellable sleep.
 */
export interface RatePacerOptions {
  /** Start pacing when fewer than this share of the window's budget is left. */
  fraction: number;
  /** ...or fewer than this many requests, whichever is larger. */
  minThreshold: number;
  /** Extra wait after the window resets, for clock skew. */
  resetMarginMs: number;
}

const DEFAULTS: RatePacerOptions = { fraction: 0.1, minThreshold: 8, resetMarginMs: 250 };

interface Observation {
  limit: number;
  remaining: number;
  windowEndsAt: number;
}

const headerInt = (h: Headers, name: string): number | null => {
  const v = h.get(name);
  return v !== null && /^\d+$/.test(v.trim()) ? Number(v.trim()) : null;
};

export class RatePacer {
  private last: Observation | null = null;
  /** Requests started since the last observation (they will use budget the headers do not show yet). */
  private started = 0;
  private readonly o: RatePacerOptions;

  constructor(
    private readonly now: () => number = Date.now,
    options: Partial<RatePacerOptions> = {},
  ) {
    this.o = { ...DEFAULTS, ...options };
  }

  /** Records the budget a response reports (ignored when the headers are absent or malformed). */
  observe(headers: Headers): void {
    const limit = headerInt(headers, 'x-ratelimit-limit');
    const remaining = headerInt(headers, 'x-ratelimit-remaining');
    const reset = headerInt(headers, 'x-ratelimit-reset');
    if (limit === null || remaining === null || reset === null) return;
    this.last = { limit, remaining, windowEndsAt: this.now() + reset * 1000 };
    this.started = 0;
  }

  /** How long to wait before starting the next request; reserves a slot of the budget. */
  reserve(): number {
    const obs = this.last;
    const now = this.now();
    if (!obs || now >= obs.windowEndsAt) return 0;
    const left = obs.remaining - this.started;
    this.started += 1;
    const threshold = Math.max(this.o.minThreshold, Math.ceil(obs.limit * this.o.fraction));
    if (left > threshold) return 0;
    const windowLeft = obs.windowEndsAt - now;
    if (left <= 0) return windowLeft + this.o.resetMarginMs;
    // Spread what is left evenly over the rest of the window; the closer to zero, the slower.
    return Math.round(windowLeft / (left + 1));
  }

  /** The latest observation, for messages. */
  get state(): Readonly<Observation> | null {
    return this.last;
  }
}

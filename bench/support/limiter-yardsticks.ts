/**
 * The yardsticks bench:rate-limit measures the limiter against, served by the limiter probe
 * (limiter-probe-app.ts) in place of the limiter. Kept in a file of their own so a CPU profile can
 * tell their code from the probe's ({@link YARDSTICK_CODE}), as it tells ours by src/rate-limit/.
 *
 * `headers-only`: no limiter, but every request gets the three X-RateLimit-* headers the API
 * contract requires (docs/rate-limits.md "Headers"), with values like the limiter's, from a raw middleware mounted where the limiter's is:
 * what the headers cost on their own, which no limiter implementation can avoid.
 *
 * `minimal`: the least a limiter with our edge and app-budget layers does per request: a raw
 * middleware counting the source address's edge window, and a guard after auth counting the API
 * key's budget window and setting the three headers, each a fixed-window counter in a Map. No
 * route rules (per-endpoint limits, cooldowns, the control-plane budget), no IPv6 /64s, no shared
 * store, no all-or-nothing evaluation: it is not a limiter to ship, only the floor under one.
 */
import { CanActivate, ExecutionContext, HttpException, type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Request } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WindowLimit } from '../../src/rate-limit/rate-limit.policy';

/** The scripts of this file in a V8 CPU profile (see cpu-profile-share.ts). */
export const YARDSTICK_CODE = /bench\/support\/limiter-yardsticks\.ts/;

type RawMiddleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

interface BareWindow {
  end: number;
  used: number;
}

/** The three X-RateLimit-* headers for a fixed window, as the limiter sets them. */
function setBudgetHeaders(res: ServerResponse, limit: number, window: BareWindow, now: number): void {
  res.setHeader('X-RateLimit-Limit', String(limit));
  res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - window.used)));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil((window.end - now) / 1000)));
}

/** Counts one request in `window` at `now`, opening a new window when the last one has ended. */
function countIn(window: BareWindow, windowMs: number, now: number): BareWindow {
  if (now >= window.end) {
    window.end = now + windowMs;
    window.used = 0;
  }
  window.used++;
  return window;
}

/** Fixed windows by key in a Map: the bare minimum of a rate-limit counter (never swept: the probe has one key each). */
class BareWindows {
  private readonly windows = new Map<string, BareWindow>();

  constructor(private readonly windowMs: number) {}

  count(key: string, now: number): BareWindow {
    let window = this.windows.get(key);
    if (window === undefined) this.windows.set(key, (window = { end: 0, used: 0 }));
    return countIn(window, this.windowMs, now);
  }
}

/** `headers-only`: the headers of one budget window, counted down per request. */
export function rateLimitHeadersAlone({ limit, windowMs }: WindowLimit): RawMiddleware {
  const window: BareWindow = { end: 0, used: 0 };
  return (_req, res, next) => {
    const now = Date.now();
    setBudgetHeaders(res, limit, countIn(window, windowMs, now), now);
    next();
  };
}

/** `minimal`'s edge layer: per source address, before body parsing and auth; over the allowance, 403 with no body. */
export function minimalEdge({ limit, windowMs }: WindowLimit): RawMiddleware {
  const windows = new BareWindows(windowMs);
  return (req, res, next) => {
    if (windows.count(req.socket.remoteAddress ?? '', Date.now()).used <= limit) return next();
    res.statusCode = 403;
    res.setHeader('Content-Length', '0');
    res.end();
  };
}

/** `minimal`'s app-budget layer: per API key, after auth, with the three headers; over the budget, 429. */
class MinimalBudgetGuard implements CanActivate {
  private readonly windows: BareWindows;

  /** `budget.limit`: for a key without a raised `rateLimitPerMinute`. */
  constructor(private readonly budget: WindowLimit) {
    this.windows = new BareWindows(budget.windowMs);
  }

  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.getArgByIndex<Request>(0);
    const principal = req.principal;
    if (principal?.kind !== 'api_key') return true;
    const limit = principal.rateLimitPerMinute ?? this.budget.limit;
    const now = Date.now();
    const window = this.windows.count(principal.apiKeyId, now);
    setBudgetHeaders(ctx.getArgByIndex<ServerResponse>(1), limit, window, now);
    if (window.used > limit) throw new HttpException({ detail: 'Rate limit exceeded' }, 429);
    return true;
  }
}

/** Registers `minimal`'s guard globally: import it after the auth module (global guards run in registration order). */
@Module({})
export class MinimalLimiterModule {
  static forRoot(apiKeyBudget: WindowLimit): DynamicModule {
    return { module: MinimalLimiterModule, providers: [{ provide: APP_GUARD, useValue: new MinimalBudgetGuard(apiKeyBudget) }] };
  }
}

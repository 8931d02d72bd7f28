/**
 * The trivial authenticated endpoint of bench:rate-limit, with the limiter off or on: a minimal Nest
 * app (bearer check → principal → [edge + per-endpoint middleware → rate-limit guard] → handler).
 * Served in its own process by bench/support/bench-server.ts (kind `limiter-probe`); the bench's
 * in-process figures use the same principal and policy.
 */
import { CanActivate, Controller, ExecutionContext, Get, HttpException, Injectable, Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Redis from 'ioredis';
import type { Principal } from '../../src/auth/principal';
import { ClockModule } from '../../src/common/clock/clock.module';
import { SystemClock } from '../../src/common/clock/system-clock';
import { createHttpAdapter } from '../../src/create-app';
import { REDIS_CLIENT_OPTIONS } from '../../src/database/redis.module';
import { installRateLimiting, RateLimitModule } from '../../src/rate-limit/rate-limit.module';
import { RATE_LIMIT_POLICY, type RateLimitPolicy } from '../../src/rate-limit/rate-limit.policy';

/**
 * `headers-only`: the limiter off, but every request gets the three X-RateLimit-* headers SPEC.md
 * requires, with values like the limiter's, from a raw middleware mounted where the limiter's is:
 * what the headers cost on their own, which no limiter implementation can avoid.
 *
 * `minimal`: a yardstick for ours, the least a limiter with SPEC.md's edge and app-budget layers
 * does per request: a raw middleware counting the source address's edge window, and a guard after
 * auth counting the API key's budget window and setting the three headers, each a fixed-window
 * counter in a Map. No route rules (per-endpoint limits, cooldowns, the control-plane budget), no
 * IPv6 /64s, no shared store, no all-or-nothing evaluation: it is not a limiter to ship, only the
 * floor under one.
 */
export type LimiterMode = 'off' | 'headers-only' | 'minimal' | 'memory' | 'redis';

export const PROBE_TOKEN = `bwk_${'b'.repeat(40)}`;
export const PROBE_PATH = '/api/bench/ping';
/** Budget far above what the load can spend: every request is evaluated, none is refused. */
export const PROBE_PRINCIPAL: Principal = { kind: 'api_key', tenantId: 'bench', apiKeyId: 'bench-key', scopes: ['scan'], rateLimitPerMinute: 1_000_000_000 };

/** The edge allowance raised so the load (all from 127.0.0.1) is counted but never blocked. */
export const PROBE_POLICY: RateLimitPolicy = {
  ...RATE_LIMIT_POLICY,
  edge: { ...RATE_LIMIT_POLICY.edge, api: { ...RATE_LIMIT_POLICY.edge.api, limit: 1_000_000_000 } },
};

/**
 * Where the limiter's CPU goes in a V8 profile of the probe: our rate-limit code, the clock and
 * principal helpers it calls, and (Redis mode) its Redis client. Other code is Express, Nest, the
 * handler or the bench.
 */
export const LIMITER_CODE = /src\/rate-limit\/|src\/common\/clock\/|src\/auth\/principal|node_modules\/(ioredis|redis-parser|denque|standard-as-callback)\//;
export const OTHER_CODE = /node_modules\/|bench\//;

/** Stand-in for the real auth guard (whose cost is not the limiter's): bearer check, then principal. */
@Injectable()
class ProbeAuthGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<Request>();
    if (req.headers.authorization !== `Bearer ${PROBE_TOKEN}`) return false;
    req.principal = PROBE_PRINCIPAL;
    return true;
  }
}

@Controller('api/bench')
class ProbeController {
  @Get('ping')
  ping() {
    return { ok: true };
  }
}

@Module({ controllers: [ProbeController], providers: [{ provide: APP_GUARD, useClass: ProbeAuthGuard }] })
class ProbeAuthModule {}

interface BareWindow {
  end: number;
  used: number;
}

/** SPEC.md's three headers for a fixed window, as the limiter sets them. */
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

/** The headers of the API-key budget's fixed window with PROBE_PRINCIPAL's limit, counted down per request. */
function rateLimitHeadersAlone(): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const limit = PROBE_PRINCIPAL.rateLimitPerMinute!;
  const windowMs = PROBE_POLICY.appBudget.apiKey.windowMs;
  const window: BareWindow = { end: 0, used: 0 };
  return (_req, res, next) => {
    const now = Date.now();
    setBudgetHeaders(res, limit, countIn(window, windowMs, now), now);
    next();
  };
}

/** `minimal`'s edge layer: per source address, before body parsing and auth; over the allowance, 403 with no body. */
function minimalEdge(): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const { limit } = PROBE_POLICY.edge.api;
  const windows = new BareWindows(PROBE_POLICY.edge.windowMs);
  return (req, res, next) => {
    if (windows.count(req.socket.remoteAddress ?? '', Date.now()).used <= limit) return next();
    res.statusCode = 403;
    res.setHeader('Content-Length', '0');
    res.end();
  };
}

/** `minimal`'s app-budget layer: per API key, after auth, with the three headers; over the budget, 429. */
@Injectable()
class MinimalBudgetGuard implements CanActivate {
  private readonly windows = new BareWindows(PROBE_POLICY.appBudget.apiKey.windowMs);

  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.getArgByIndex<Request>(0);
    const principal = req.principal;
    if (principal?.kind !== 'api_key') return true;
    const limit = principal.rateLimitPerMinute ?? PROBE_POLICY.appBudget.apiKey.limit;
    const now = Date.now();
    const window = this.windows.count(principal.apiKeyId, now);
    setBudgetHeaders(ctx.getArgByIndex<ServerResponse>(1), limit, window, now);
    if (window.used > limit) throw new HttpException({ detail: 'Rate limit exceeded' }, 429);
    return true;
  }
}

// Imported after ProbeAuthModule: global guards run in registration order, so auth comes first.
@Module({ providers: [{ provide: APP_GUARD, useClass: MinimalBudgetGuard }] })
class MinimalLimiterModule {}

/** Builds and listens; `close()` also ends the Redis connection it opened. */
export async function startLimiterProbe(mode: LimiterMode, redisUrl: string | undefined, keyPrefix: string): Promise<{ port: number; close: () => Promise<void> }> {
  const imports: DynamicModule['imports'] = [ProbeAuthModule];
  let redis: Redis | null = null;
  const limited = mode === 'memory' || mode === 'redis';
  if (limited) {
    if (mode === 'redis') {
      if (!redisUrl) throw new Error('limiter-probe: redis mode needs REDIS_URL');
      // The app's client options (auto-pipelining above all), so the figure is what the service runs.
      redis = new Redis(redisUrl, REDIS_CLIENT_OPTIONS);
    }
    imports.push(ClockModule.forRoot({ clock: new SystemClock() }));
    imports.push(RateLimitModule.forRoot({ redis, keyPrefix, edgeLimits: 'on', trustedProxies: [], policy: PROBE_POLICY }));
  }
  if (mode === 'minimal') imports.push(MinimalLimiterModule);
  @Module({ imports })
  class ProbeAppModule {}
  const app = await NestFactory.create<NestExpressApplication>(ProbeAppModule, createHttpAdapter(), { logger: false, bodyParser: false });
  if (limited) installRateLimiting(app);
  if (mode === 'headers-only') app.use(rateLimitHeadersAlone());
  if (mode === 'minimal') app.use(minimalEdge());
  app.useBodyParser('json');
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return {
    port,
    close: async () => {
      await app.close();
      redis?.disconnect();
    },
  };
}

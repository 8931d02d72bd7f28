/**
 * The trivial authenticated endpoint of bench:rate-limit, with the limiter off or on: a minimal Nest
 * app (bearer check → principal → [edge + per-endpoint middleware → rate-limit guard] → handler).
 * Served in its own process by bench/support/bench-server.ts (kind `limiter-probe`); the bench's
 * in-process figures use the same principal and policy.
 */
import { CanActivate, Controller, ExecutionContext, Get, Injectable, Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request } from 'express';
import Redis from 'ioredis';
import type { Principal } from '../../src/auth/principal';
import { ClockModule } from '../../src/common/clock/clock.module';
import { SystemClock } from '../../src/common/clock/system-clock';
import { createHttpAdapter } from '../../src/create-app';
import { REDIS_CLIENT_OPTIONS } from '../../src/database/redis.module';
import { RateLimitGuard } from '../../src/rate-limit/rate-limit.guard';
import { installRateLimiting, RateLimitModule } from '../../src/rate-limit/rate-limit.module';
import { RATE_LIMIT_POLICY, type RateLimitPolicy } from '../../src/rate-limit/rate-limit.policy';
import { minimalEdge, MinimalLimiterModule, rateLimitHeadersAlone } from './limiter-yardsticks';

/** `headers-only` and `minimal` are yardsticks, not limiters: see limiter-yardsticks.ts. */
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

/** Builds and listens; `close()` also ends the Redis connection it opened. */
export async function startLimiterProbe(
  mode: LimiterMode,
  redisUrl: string | undefined,
  keyPrefix: string,
): Promise<{ port: number; close: () => Promise<void> }> {
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
    // After ProbeAuthModule: global guards run in registration order, so auth comes first.
    @Module({
      imports: [RateLimitModule.forRoot({ redis, keyPrefix, edgeLimits: 'on', trustedProxies: [], policy: PROBE_POLICY })],
      providers: [{ provide: APP_GUARD, useExisting: RateLimitGuard }],
    })
    class ProbeRateLimitModule {}
    imports.push(ProbeRateLimitModule);
  }
  // Imported after ProbeAuthModule: global guards run in registration order, so auth comes first.
  if (mode === 'minimal') imports.push(MinimalLimiterModule.forRoot(PROBE_POLICY.appBudget.apiKey));
  @Module({ imports })
  class ProbeAppModule {}
  const app = await NestFactory.create<NestExpressApplication>(ProbeAppModule, createHttpAdapter(), { logger: false, bodyParser: false });
  if (limited) installRateLimiting(app);
  // The API key's budget window with PROBE_PRINCIPAL's raised limit, as the limiter applies it.
  if (mode === 'headers-only') app.use(rateLimitHeadersAlone({ limit: PROBE_PRINCIPAL.rateLimitPerMinute!, windowMs: PROBE_POLICY.appBudget.apiKey.windowMs }));
  if (mode === 'minimal') app.use(minimalEdge({ limit: PROBE_POLICY.edge.api.limit, windowMs: PROBE_POLICY.edge.windowMs }));
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

/**
 * The whole app's rate limiting as bench:rate-limit's service pairs run it (bench-server.ts, kind
 * `app` with a `limiter`): off, or the app's own limiter with the probe's policy.
 */
import type { CanActivate } from '@nestjs/common';
import type { TestingModuleBuilder } from '@nestjs/testing';
import type { AppConfig } from '../../src/config/app-config';
import { APP_CONFIG } from '../../src/config/config.module';
import { REDIS_CLIENT, type RedisClient } from '../../src/database/redis.module';
import { RateLimitGuard } from '../../src/rate-limit/rate-limit.guard';
import { RateLimitMiddleware } from '../../src/rate-limit/rate-limit.middleware';
import { RATE_LIMIT_OPTIONS, rateLimitOptionsFromConfig } from '../../src/rate-limit/rate-limit.options';
import { PROBE_POLICY, type LimiterMode } from './limiter-probe-app';

/** The service's trivial authenticated endpoint: API-key auth (admin scope), no database read. */
export const SERVICE_PATH = '/api/internal/application/features';

/**
 * The app's rate limiting for bench:rate-limit's service pairs (see ServerSpec.limiter). `off`
 * leaves a no-op middleware and guard where the limiter's were (Nest calls each once per request),
 * so the off server keeps that much of the limiter's cost: the loss it yields errs low by it.
 */
export function serviceLimiter(mode: LimiterMode): (builder: TestingModuleBuilder) => TestingModuleBuilder {
  if (mode === 'off') {
    const passThrough: Pick<RateLimitMiddleware, 'handle' | 'onModuleDestroy'> = { handle: (_req, _res, next) => next(), onModuleDestroy: () => undefined };
    const admitAll: CanActivate = { canActivate: () => true };
    return (builder) => builder.overrideProvider(RateLimitMiddleware).useValue(passThrough).overrideProvider(RateLimitGuard).useValue(admitAll);
  }
  if (mode !== 'memory' && mode !== 'redis') throw new Error(`app: limiter ${mode} is a probe yardstick, not the app's`);
  return (builder) =>
    builder.overrideProvider(RATE_LIMIT_OPTIONS).useFactory({
      inject: [APP_CONFIG, REDIS_CLIENT],
      factory: (config: AppConfig, redis: RedisClient) => ({ ...rateLimitOptionsFromConfig(config, redis), policy: PROBE_POLICY }),
    });
}

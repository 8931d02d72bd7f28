import { DynamicModule, INestApplication, Logger, Module, Provider } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { REDIS_CLIENT, type RedisClient } from '../database/redis.module';
import { MetricsService } from '../metrics/metrics.service';
import { TrustedProxies } from './client-address';
import { RateLimitMiddleware } from './rate-limit.middleware';
import { RateLimitGuard } from './rate-limit.guard';
import { RATE_LIMIT_OPTIONS, rateLimitOptionsFromConfig, type RateLimitModuleOptions } from './rate-limit.options';
import { RATE_LIMIT_POLICY } from './rate-limit.policy';
import { RateLimiter } from './rate-limiter';
import { EdgeCounter } from './store/edge-counter';
import { FallbackRateLimitStore } from './store/fallback-rate-limit.store';
import { MemoryRateLimitStore } from './store/memory-rate-limit.store';
import { RateLimitStore } from './store/rate-limit-store';
import { RedisRateLimitStore } from './store/redis-rate-limit.store';

/** The Redis store itself (null without REDIS_URL): wrapped by the fallback, and the edge's sync target. */
const SHARED_STORE = Symbol('RATE_LIMIT_SHARED_STORE');

/** Memory store, or Redis with the per-process fallback (warning + metric; fail-closed rules refuse). */
function createStore(shared: RedisRateLimitStore | null, metrics: MetricsService | undefined): RateLimitStore {
  if (shared === null) return new MemoryRateLimitStore();
  const logger = new Logger('RateLimit');
  const fallbacks = metrics?.counter(
    'bulwark_rate_limit_store_fallbacks_total',
    'Rate-limit evaluations answered without Redis (per-process memory, or refused when fail-closed)',
    ['reason', 'fail_closed'],
  );
  return new FallbackRateLimitStore(shared, {
    onFallback: (reason, failClosed) => fallbacks?.inc({ reason, fail_closed: String(failClosed) }),
    onWarn: (message) => logger.warn(message),
  });
}

const providers: Provider[] = [
  {
    provide: SHARED_STORE,
    inject: [RATE_LIMIT_OPTIONS],
    useFactory: (options: RateLimitModuleOptions) => (options.redis === null ? null : new RedisRateLimitStore(options.redis, { keyPrefix: options.keyPrefix })),
  },
  {
    provide: RateLimitStore,
    inject: [SHARED_STORE, { token: MetricsService, optional: true }],
    useFactory: (shared: RedisRateLimitStore | null, metrics?: MetricsService) => createStore(shared, metrics),
  },
  {
    provide: RateLimiter,
    inject: [RateLimitStore, Clock, RATE_LIMIT_OPTIONS],
    useFactory: (store: RateLimitStore, clock: Clock, options: RateLimitModuleOptions) =>
      new RateLimiter(store, clock, { policy: options.policy ?? RATE_LIMIT_POLICY, apiKeyLimitPerMinute: options.apiKeyRateLimitPerMinute }),
  },
  {
    provide: TrustedProxies,
    inject: [RATE_LIMIT_OPTIONS],
    useFactory: (options: RateLimitModuleOptions) => new TrustedProxies(options.trustedProxies),
  },
  {
    provide: EdgeCounter,
    inject: [SHARED_STORE, Clock],
    useFactory: (shared: RedisRateLimitStore | null, clock: Clock) => {
      const logger = new Logger('EdgeLimit');
      return new EdgeCounter(shared, clock, { onSyncError: (message) => logger.warn(message) });
    },
  },
  RateLimitMiddleware,
  RateLimitGuard,
];

const exportsList = [RateLimitStore, RateLimiter, TrustedProxies, EdgeCounter, RateLimitMiddleware, RateLimitGuard];

/** Rate limiting with explicit options (benchmarks): see {@link RateLimitModule.forRoot}. */
@Module({})
export class ExplicitRateLimitModule {}

/**
 * Rate limiting (docs/decisions/0023-rate-limiting-model.md), configured from AppConfig and the shared Redis client. Needs a global
 * Clock (ClockModule). Mount the raw middleware with {@link installRateLimiting} before body parsers;
 * the guard runs globally through AppGuard (src/app-guard.ts), after authentication. A static module:
 * AppModule and CliApiModule import it and share one instance, so one set of counters.
 */
@Module({
  providers: [
    {
      provide: RATE_LIMIT_OPTIONS,
      inject: [APP_CONFIG, REDIS_CLIENT],
      useFactory: (config: AppConfig, redis: RedisClient) => rateLimitOptionsFromConfig(config, redis),
    },
    ...providers,
  ],
  exports: exportsList,
})
export class RateLimitModule {
  /** Explicit options instead of the app's (AppConfig, the shared Redis client). */
  static forRoot(options: RateLimitModuleOptions): DynamicModule {
    return { module: ExplicitRateLimitModule, providers: [{ provide: RATE_LIMIT_OPTIONS, useValue: options }, ...providers], exports: exportsList };
  }
}

/**
 * Mounts the edge and per-endpoint limits as raw Express middleware. Call before any body parser
 * (configureApp does), so floods are refused before a body is read or a key looked up.
 */
export function installRateLimiting(app: INestApplication): void {
  app.use(app.get(RateLimitMiddleware).handle);
}

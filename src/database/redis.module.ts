import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis, { type RedisOptions } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/** Injection token of the shared ioredis client, or null when REDIS_URL is unset. */
export const REDIS_CLIENT = Symbol('REDIS_CLIENT');
export type RedisClient = Redis | null;

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: RedisClient) {}
  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}

/**
 * How every replica's client talks to Redis (the benchmarks use the same, so they measure what
 * runs). Commands fail fast while Redis is down (no offline queue), so callers can fall back
 * instead of piling up requests.
 */
export const REDIS_CLIENT_OPTIONS: RedisOptions = {
  lazyConnect: false,
  enableOfflineQueue: false,
  // Concurrent requests' rate-limit scripts share socket writes (measured: about a third less
  // limiter CPU under load; bench/rate-limit.bench.ts).
  enableAutoPipelining: true,
  maxRetriesPerRequest: 1,
  connectTimeout: 2000,
  retryStrategy: (times) => Math.min(times * 200, 2000),
};

/** One Redis connection per replica (shared rate-limit counters), or none without REDIS_URL. */
@Global()
@Module({
  providers: [
    {
      provide: REDIS_CLIENT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): RedisClient => (config.redisUrl ? new Redis(config.redisUrl, REDIS_CLIENT_OPTIONS) : null),
    },
    RedisCloser,
  ],
  exports: [REDIS_CLIENT],
})
export class RedisModule {}

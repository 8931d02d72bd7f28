import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
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
 * One Redis connection per replica (shared rate-limit counters). Commands fail fast while Redis is
 * down (no offline queue), so callers can fall back instead of piling up requests.
 */
@Global()
@Module({
  providers: [
    {
      provide: REDIS_CLIENT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): RedisClient =>
        config.redisUrl
          ? new Redis(config.redisUrl, {
              lazyConnect: false,
              enableOfflineQueue: false,
              // Concurrent requests' rate-limit scripts share socket writes (measured: about a
              // third less limiter CPU under load; bench/rate-limit.bench.ts).
              enableAutoPipelining: true,
              maxRetriesPerRequest: 1,
              connectTimeout: 2000,
              retryStrategy: (times) => Math.min(times * 200, 2000),
            })
          : null,
    },
    RedisCloser,
  ],
  exports: [REDIS_CLIENT],
})
export class RedisModule {}

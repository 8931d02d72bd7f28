import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { TEST_REDIS_URL } from '../../../test/fakes/rate-limit-stores';
import { RedisRateLimitStore } from './redis-rate-limit.store';

const MINUTE = 60_000;
const describeRedis = TEST_REDIS_URL === null ? describe.skip : describe;
if (TEST_REDIS_URL === null) console.warn('REDIS_URL is not set: the Redis bucket-expiry test is skipped.');

describeRedis('RedisRateLimitStore bucket expiry (needs REDIS_URL)', () => {
  const redis = new Redis(TEST_REDIS_URL ?? '', { maxRetriesPerRequest: 1, lazyConnect: true });
  const prefix = `bulwark-test:${randomUUID()}:`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('keeps a bucket for its window plus one more, so a caller whose clock lags Redis keeps its count', async () => {
    const store = new RedisRateLimitStore(redis, { keyPrefix: prefix });
    // The caller's clock is far behind Redis's: the bucket's TTL must not hinge on the two agreeing.
    await store.evaluate([{ key: 'k', limit: 10, windowMs: MINUTE }], 1_000);
    const ttl = await redis.pttl(`${prefix}k`);
    expect(ttl).toBeGreaterThan(MINUTE + MINUTE / 2);
    expect(ttl).toBeLessThanOrEqual(2 * MINUTE);
    const again = await store.evaluate([{ key: 'k', limit: 10, windowMs: MINUTE }], 1_000 + MINUTE - 1);
    expect(again.buckets[0]).toMatchObject({ remaining: 8 });
  });
});

import Redis from 'ioredis';
import { FallbackRateLimitStore, type FallbackEvents, type PrimaryStore } from './fallback-rate-limit.store';
import { MemoryRateLimitStore } from './memory-rate-limit.store';
import type { BucketCheck } from './rate-limit-store';
import { RedisRateLimitStore } from './redis-rate-limit.store';

function recorder(): FallbackEvents & { fallbacks: [string, boolean][]; warnings: string[] } {
  const fallbacks: [string, boolean][] = [];
  const warnings: string[] = [];
  return { fallbacks, warnings, onFallback: (r, fc) => fallbacks.push([r, fc]), onWarn: (m) => warnings.push(m) };
}

const plain: BucketCheck = { key: 'app:key:1', limit: 2, windowMs: 60_000 };
const closed: BucketCheck = { key: 'ep:reset-password:1.2.3.4', limit: 3, windowMs: 3_600_000, failClosed: true };

describe('FallbackRateLimitStore', () => {
  const failing: PrimaryStore = {
    evaluate: () => Promise.reject(new Error('ECONNREFUSED')),
    release: () => Promise.reject(new Error('ECONNREFUSED')),
  };

  it('passes through to the primary while it works', async () => {
    const primary = new MemoryRateLimitStore();
    const events = recorder();
    const store = new FallbackRateLimitStore(primary, events);
    expect((await store.evaluate([plain], 0)).degraded).toBeUndefined();
    expect(primary.size).toBe(1);
    expect(events.fallbacks).toEqual([]);
  });

  it('answers from per-process memory when the primary errors, with a metric and a throttled warning', async () => {
    const events = recorder();
    const store = new FallbackRateLimitStore(failing, events);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await store.evaluate([plain], 1000 + i));
    expect(answers.map((a) => [a.allowed, a.degraded])).toEqual([
      [true, 'fallback'],
      [true, 'fallback'],
      [false, 'fallback'],
    ]);
    expect(events.fallbacks).toEqual([
      ['error', false],
      ['error', false],
      ['error', false],
    ]);
    expect(events.warnings).toHaveLength(1);
    expect(events.warnings[0]).toContain('ECONNREFUSED');
    await store.evaluate([plain], 1000 + 30_000);
    expect(events.warnings).toHaveLength(2);
  });

  it('fails closed for reset-password and credentials checks', async () => {
    const events = recorder();
    const store = new FallbackRateLimitStore(failing, events);
    const r = await store.evaluate([plain, closed], 0);
    expect(r.allowed).toBe(false);
    expect(r.degraded).toBe('unavailable');
    expect(events.fallbacks).toEqual([['error', true]]);
    // Nothing was counted for the plain bucket either (all-or-nothing).
    expect((await store.evaluate([plain], 1)).buckets[0]!.remaining).toBe(1);
  });

  it('skips a primary that reports not ready without waiting on it', async () => {
    const events = recorder();
    let called = false;
    const store = new FallbackRateLimitStore(
      { ready: false, evaluate: () => ((called = true), Promise.reject(new Error('x'))), release: () => Promise.resolve() },
      events,
    );
    expect((await store.evaluate([plain], 0)).degraded).toBe('fallback');
    expect(called).toBe(false);
    expect(events.fallbacks).toEqual([['not_ready', false]]);
  });

  it('releases reservations made during an outage from memory', async () => {
    const store = new FallbackRateLimitStore(failing, recorder());
    const r = await store.evaluate([{ ...plain, limit: 1 }], 0);
    await store.release([{ key: plain.key, resetAt: r.buckets[0]!.resetAt, cost: 1 }], 1);
    expect((await store.evaluate([{ ...plain, limit: 1 }], 2)).allowed).toBe(true);
  });

  it('falls back when a real ioredis client cannot reach Redis', async () => {
    // Port 1 on loopback: connection refused at once; no offline queue, so commands fail fast.
    const redis = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    redis.on('error', () => undefined);
    const events = recorder();
    const store = new FallbackRateLimitStore(new RedisRateLimitStore(redis), events);
    const started = Date.now();
    const r = await store.evaluate([plain], 0);
    expect(r).toMatchObject({ allowed: true, degraded: 'fallback' });
    expect((await store.evaluate([closed], 0)).degraded).toBe('unavailable');
    expect(Date.now() - started).toBeLessThan(1000);
    redis.disconnect();
  });
});

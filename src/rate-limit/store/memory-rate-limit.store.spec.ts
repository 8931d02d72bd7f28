import { SWEEP_REST_BELOW } from './incremental-sweep';
import { MemoryRateLimitStore } from './memory-rate-limit.store';

describe('MemoryRateLimitStore', () => {
  it('reports limit, remaining and reset per bucket in the order given', async () => {
    const store = new MemoryRateLimitStore();
    const r = await store.evaluate(
      [
        { key: 'a', limit: 2, windowMs: 1000 },
        { key: 'b', limit: 10, windowMs: 5000, cost: 3 },
      ],
      100,
    );
    expect(r).toEqual({
      allowed: true,
      buckets: [
        { key: 'a', limit: 2, remaining: 1, resetAt: 1100, allowed: true },
        { key: 'b', limit: 10, remaining: 7, resetAt: 5100, allowed: true },
      ],
    });
  });

  it('treats an expired window as empty without any timer (lazy expiry)', async () => {
    const store = new MemoryRateLimitStore();
    await store.evaluate([{ key: 'a', limit: 1, windowMs: 1000 }], 0);
    expect((await store.evaluate([{ key: 'a', limit: 1, windowMs: 1000 }], 999)).allowed).toBe(false);
    expect((await store.evaluate([{ key: 'a', limit: 1, windowMs: 1000 }], 1000)).buckets[0]).toMatchObject({ allowed: true, resetAt: 2000 });
  });

  it('keeps memory bounded by the buckets active within one window', () => {
    const store = new MemoryRateLimitStore();
    let now = 0;
    // 50,000 one-off callers (an address scan), one per ms, 1 s windows.
    for (let i = 0; i < 50_000; i++) store.evaluateSync([{ key: `ip:${i}`, limit: 5, windowMs: 1000 }], now++);
    expect(store.size).toBeLessThan(3000);
  });

  it('lets a few dead windows be while the map is small (the sweep rests below SWEEP_REST_BELOW)', () => {
    const store = new MemoryRateLimitStore();
    for (let i = 0; i < 100; i++) store.evaluateSync([{ key: `k:${i}`, limit: 5, windowMs: 10 }], 0);
    store.evaluateSync([{ key: 'live', limit: 5, windowMs: 10 }], 1_000);
    expect(store.size).toBe(101);
    // Past the rest size the sweep runs again, and the dead windows go.
    for (let i = 0; i < SWEEP_REST_BELOW; i++) store.evaluateSync([{ key: `new:${i}`, limit: 5, windowMs: 10_000 }], 1_000);
    expect(store.size).toBeLessThanOrEqual(SWEEP_REST_BELOW + 1);
  });

  it('sweeps even when each call inserts several buckets', () => {
    const store = new MemoryRateLimitStore();
    let now = 0;
    for (let i = 0; i < 20_000; i++) {
      store.evaluateSync(
        [0, 1, 2].map((j) => ({ key: `k:${i}:${j}`, limit: 5, windowMs: 100 })),
        now++,
      );
    }
    expect(store.size).toBeLessThan(1000);
  });

  it('never releases below zero or into a later window', () => {
    const store = new MemoryRateLimitStore();
    const first = store.evaluateSync([{ key: 'a', limit: 1, windowMs: 1000 }], 0);
    store.releaseSync([{ key: 'a', resetAt: first.buckets[0]!.resetAt, cost: 5 }], 1);
    expect(store.evaluateSync([{ key: 'a', limit: 1, windowMs: 1000 }], 2).buckets[0]!.remaining).toBe(0);
    store.releaseSync([{ key: 'a', resetAt: 999_999, cost: 1 }], 3);
    expect(store.evaluateSync([{ key: 'a', limit: 1, windowMs: 1000 }], 4).allowed).toBe(false);
  });
});

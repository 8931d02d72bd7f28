import fc from 'fast-check';
import { storesUnderTest, type StoreUnderTest } from '../../../test/fakes/rate-limit-stores';
import type { BucketCheck, RateLimitStore } from './rate-limit-store';

/**
 * For random request streams (random buckets per request, limits, windows and time steps):
 * 1. no window of any bucket ever admits more than its limit;
 * 2. rejected requests never change later answers: replaying the stream without the requests
 *    that were rejected gives the same answer to every remaining request.
 */
interface Req {
  dt: number;
  buckets: number[];
}

const BUCKETS: Omit<BucketCheck, 'key'>[] = [
  { limit: 1, windowMs: 1000 },
  { limit: 3, windowMs: 2500 },
  { limit: 5, windowMs: 10_000 },
  { limit: 2, windowMs: 700, cost: 1 },
];

const stream = fc.array(
  fc.record({
    dt: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 3000 })),
    buckets: fc.uniqueArray(fc.integer({ min: 0, max: BUCKETS.length - 1 }), { minLength: 1, maxLength: 3 }),
  }),
  { minLength: 1, maxLength: 60 },
);

async function run(store: RateLimitStore, reqs: Req[], prefix: string): Promise<{ allowed: boolean[]; windows: Map<string, number> }> {
  let now = 1_700_000_000_000;
  const allowed: boolean[] = [];
  const windows = new Map<string, number>(); // bucket+window end → admitted count
  for (const r of reqs) {
    now += r.dt;
    const checks = r.buckets.map((b) => ({ key: `${prefix}${b}`, ...BUCKETS[b]! }));
    const res = await store.evaluate(checks, now);
    allowed.push(res.allowed);
    if (res.allowed) {
      res.buckets.forEach((b, i) => {
        const id = `${checks[i]!.key}@${b.resetAt}`;
        windows.set(id, (windows.get(id) ?? 0) + (checks[i]!.cost ?? 1));
        // A window is never longer than its length.
        expect(b.resetAt - now).toBeLessThanOrEqual(checks[i]!.windowMs);
        expect(b.resetAt).toBeGreaterThan(now);
      });
    }
  }
  return { allowed, windows };
}

describe.each(storesUnderTest().map((s) => [s.name, s] as const))('rate-limit store properties: %s', (name, under: StoreUnderTest) => {
  afterAll(() => under.cleanup());
  const numRuns = name === 'memory' ? 300 : 60;

  it('no window admits more than its limit', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(stream, async (reqs) => {
        const { windows } = await run(under.create(), reqs, `p${n++}:`);
        for (const [id, count] of windows) {
          const bucket = Number(id.split(':')[1]!.split('@')[0]);
          expect(count).toBeLessThanOrEqual(BUCKETS[bucket]!.limit);
        }
      }),
      { numRuns },
    );
  });

  it('rejected requests never change later answers', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(stream, async (reqs) => {
        const first = await run(under.create(), reqs, `a${n}:`);
        // Drop the rejected requests but keep their time steps, then replay on a fresh store.
        const kept: Req[] = [];
        let carry = 0;
        reqs.forEach((r, i) => {
          carry += r.dt;
          if (first.allowed[i]) {
            kept.push({ dt: carry, buckets: r.buckets });
            carry = 0;
          }
        });
        const second = await run(under.create(), kept, `b${n++}:`);
        expect(second.allowed).toEqual(kept.map(() => true));
        expect(second.windows).toEqual(new Map([...first.windows].map(([k, v]) => [k.replace(/^a\d+:/, `b${n - 1}:`), v])));
      }),
      { numRuns },
    );
  });
});

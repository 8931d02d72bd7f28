import { FakeClock } from '../../../test/fakes/fake-clock';
import { storesUnderTest } from '../../../test/fakes/rate-limit-stores';
import { EdgeCounter } from './edge-counter';
import { SWEEP_REST_BELOW } from './incremental-sweep';
import { MemoryRateLimitStore } from './memory-rate-limit.store';
import type { RateLimitStore } from './rate-limit-store';

const FIVE_MINUTES = 5 * 60_000;
const check = (key = 'edge:api:10.0.0.1', limit = 5) => ({ key, limit, windowMs: FIVE_MINUTES });
const admitted = (counter: EdgeCounter, n: number, c = check()) => Array.from({ length: n }, () => counter.admit(c).allowed).filter(Boolean).length;

describe('EdgeCounter without a shared store (one replica)', () => {
  it('admits exactly the allowance per fixed window, does not count rejections, and opens a new window on time', () => {
    const clock = new FakeClock();
    const counter = new EdgeCounter(null, clock);
    expect(admitted(counter, 8)).toBe(5);
    const blocked = counter.admit(check());
    expect(blocked).toEqual({ allowed: false, resetAt: clock.now() + FIVE_MINUTES });
    clock.advance(FIVE_MINUTES - 1);
    expect(counter.admit(check()).allowed).toBe(false);
    clock.advance(1);
    // Rejected requests were never counted: the new window starts from zero.
    expect(admitted(counter, 8)).toBe(5);
  });

  it('keeps networks apart', () => {
    const counter = new EdgeCounter(null, new FakeClock());
    expect(admitted(counter, 6, check('edge:api:a'))).toBe(5);
    expect(admitted(counter, 6, check('edge:api:b'))).toBe(5);
  });

  it("drops expired windows as it goes, so memory stays bounded by the active networks (plus the sweep's small rest)", () => {
    const clock = new FakeClock();
    const counter = new EdgeCounter(null, clock);
    for (let i = 0; i < 1000; i++) counter.admit(check(`edge:api:${i}`));
    expect(counter.size).toBe(1000);
    clock.advance(FIVE_MINUTES);
    for (let i = 0; i < 1000; i++) counter.admit(check('edge:api:busy', 1_000_000));
    // 999 dead windows swept down to the size where the sweep rests, plus the live one.
    expect(counter.size).toBeLessThanOrEqual(SWEEP_REST_BELOW);
  });
});

describe.each(storesUnderTest().map((s) => [s.name, s] as const))('EdgeCounter sharing counts through the %s store', (_name, factory) => {
  afterAll(() => factory.cleanup());

  it('replicas see each other after a sync: together they admit the allowance plus at most one unsynced batch', async () => {
    const clock = new FakeClock();
    const shared = factory.create();
    const a = new EdgeCounter(shared, clock, { flushEveryMs: 60_000 });
    const b = new EdgeCounter(shared, clock, { flushEveryMs: 60_000 });
    const c = check('edge:api:n', 10);
    expect(admitted(a, 6, c)).toBe(6);
    await a.flush();
    // b has not synced yet: it decides on its own counts (the bounded overshoot of write-behind).
    expect(admitted(b, 1, c)).toBe(1);
    await b.flush(); // b learns the shared 7
    expect(admitted(b, 5, c)).toBe(3);
    await b.flush();
    await a.flush(); // nothing pending on a: it keeps its last view (6) until it sends again
    expect(admitted(a, 1, c)).toBe(1);
    await a.flush(); // a learns 11 (one over: the batch b could not know about)
    expect(admitted(a, 3, c)).toBe(0);
    expect(admitted(b, 3, c)).toBe(0);
    a.close();
    b.close();
  });

  it('a new shared window is adopted by every replica', async () => {
    const clock = new FakeClock();
    const shared = factory.create();
    const a = new EdgeCounter(shared, clock, { flushEveryMs: 60_000 });
    const c = check('edge:api:w', 3);
    expect(admitted(a, 3, c)).toBe(3);
    await a.flush();
    clock.advance(FIVE_MINUTES);
    const b = new EdgeCounter(shared, clock, { flushEveryMs: 60_000 });
    expect(admitted(b, 1, c)).toBe(1);
    await b.flush();
    expect(admitted(b, 5, c)).toBe(2);
    a.close();
    b.close();
  });

  it('a released unit comes back locally at once, and in the shared count whether or not it was sent yet', async () => {
    const clock = new FakeClock();
    const shared = factory.create();
    const a = new EdgeCounter(shared, clock, { flushEveryMs: 60_000 });
    const c = check('edge:api:r', 4);
    const first = [a.admit(c), a.admit(c), a.admit(c)];
    await a.flush(); // three sent
    const unsent = a.admit(c);
    a.release(first[0]!); // already in the shared count
    a.release(unsent); // still pending here
    a.release(unsent); // a second release of one admission changes nothing
    expect(admitted(a, 5, c)).toBe(2); // 2 kept + 2 new = 4
    await a.flush();
    // Another replica sees 4 (3 sent - 1 returned + 2 new), not the 6 admitted.
    const b = new EdgeCounter(shared, clock, { flushEveryMs: 60_000 });
    b.admit(check('edge:api:r', 100));
    await b.flush();
    expect(admitted(b, 100, check('edge:api:r', 100))).toBe(100 - 4 - 1);
    // A unit of an ended window is not handed back to the next one.
    clock.advance(FIVE_MINUTES);
    const next = a.admit(c);
    a.release(first[1]!);
    expect(admitted(a, 5, c)).toBe(3);
    a.release(next);
    expect(admitted(a, 5, c)).toBe(1);
    a.close();
    b.close();
  });

  it('sends counts on its own timer, batched', async () => {
    const clock = new FakeClock();
    const shared = factory.create();
    const calls: number[] = [];
    const spy: RateLimitStore = {
      evaluate: (checks, now) => {
        calls.push(checks.length);
        return shared.evaluate(checks, now);
      },
      release: (reservations, now) => shared.release(reservations, now),
    };
    const a = new EdgeCounter(spy, clock, { flushEveryMs: 5 });
    for (let i = 0; i < 50; i++) a.admit(check(`edge:api:t${i % 3}`, 100));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls).toEqual([3]);
    const b = new EdgeCounter(shared, clock);
    b.admit(check('edge:api:t0', 100));
    await b.flush();
    expect(admitted(b, 100, check('edge:api:t0', 100))).toBe(100 - 17 - 1);
    a.close();
    b.close();
  });
});

describe('EdgeCounter when the shared store fails', () => {
  it('keeps deciding locally, warns once, and sends the counts when the store answers again', async () => {
    const clock = new FakeClock();
    let down = true;
    const sent: number[] = [];
    const memory = new MemoryRateLimitStore();
    const shared: RateLimitStore = {
      evaluate: (checks, now) => {
        if (down) return Promise.reject(new Error('connection refused'));
        sent.push(...checks.map((c) => c.cost ?? 1));
        return memory.evaluate(checks, now);
      },
      release: (reservations, now) => memory.release(reservations, now),
    };
    const warnings: string[] = [];
    const counter = new EdgeCounter(shared, clock, { flushEveryMs: 60_000, onSyncError: (m) => warnings.push(m) });
    expect(admitted(counter, 3)).toBe(3);
    await counter.flush();
    expect(admitted(counter, 1)).toBe(1);
    await counter.flush();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('connection refused');
    expect(admitted(counter, 5)).toBe(1); // still the local count: 4 + 1 = 5
    down = false;
    await counter.flush();
    expect(sent).toEqual([5]);
    counter.close();
  });
});

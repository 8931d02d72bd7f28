import { ConcurrencyLimiter } from './concurrency-limiter';

const tick = () => new Promise((r) => setImmediate(r));

describe('ConcurrencyLimiter', () => {
  it('never runs more than max tasks at once and runs them all', async () => {
    const limiter = new ConcurrencyLimiter(2);
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const tasks = Array.from({ length: 5 }, (_, i) =>
      limiter.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((r) => releases.push(r));
        running--;
        return i;
      }),
    );
    for (let done = 0; done < 5; done++) {
      await tick();
      expect(running).toBeLessThanOrEqual(2);
      releases.shift()?.();
    }
    await expect(Promise.all(tasks)).resolves.toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(limiter.inFlight).toBe(0);
  });

  it('removes an aborted waiter without taking a slot', async () => {
    const limiter = new ConcurrencyLimiter(1);
    let release!: () => void;
    const first = limiter.run(() => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    const second = limiter.run(() => Promise.resolve('ran'), controller.signal);
    expect(limiter.waiting).toBe(1);
    controller.abort(new Error('deadline'));
    await expect(second).rejects.toThrow('deadline');
    expect(limiter.waiting).toBe(0);
    release();
    await first;
    expect(limiter.inFlight).toBe(0);
  });

  it('rejects a non-positive bound', () => {
    expect(() => new ConcurrencyLimiter(0)).toThrow(/positive integer/);
  });
});

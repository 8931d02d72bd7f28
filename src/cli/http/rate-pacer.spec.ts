import { RatePacer } from './rate-pacer';

const headers = (limit: number, remaining: number, reset: number) =>
  new Headers({ 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(reset) });

describe('RatePacer', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 1_000_000));

  it('does not wait while the budget is comfortable or unknown', () => {
    const p = new RatePacer(clock);
    expect(p.reserve()).toBe(0);
    p.observe(headers(2000, 1500, 40));
    expect(p.reserve()).toBe(0);
  });

  it('spreads the last requests over the rest of the window, slower as Remaining nears zero', () => {
    const p = new RatePacer(clock);
    p.observe(headers(2000, 100, 30));
    const first = p.reserve();
    expect(first).toBeGreaterThan(0);
    p.observe(headers(2000, 3, 30));
    const later = p.reserve();
    expect(later).toBeGreaterThan(first);
    expect(later).toBe(Math.round(30_000 / 4));
  });

  it('waits for the reset when nothing is left, counting requests already started', () => {
    const p = new RatePacer(clock, { resetMarginMs: 250 });
    p.observe(headers(100, 1, 10));
    expect(p.reserve()).toBe(5000); // one left: half the window
    expect(p.reserve()).toBe(10_250); // the one left is taken: wait for the reset
    now += 11_000;
    expect(p.reserve()).toBe(0); // the observed window is over
  });

  it('ignores missing or malformed headers', () => {
    const p = new RatePacer(clock);
    p.observe(new Headers({ 'x-ratelimit-remaining': '0' }));
    p.observe(new Headers({ 'x-ratelimit-limit': 'a', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '5' }));
    expect(p.reserve()).toBe(0);
  });
});

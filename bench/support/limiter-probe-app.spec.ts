import { PROBE_PATH, PROBE_PRINCIPAL, PROBE_TOKEN, startLimiterProbe, type LimiterMode } from './limiter-probe-app';

/**
 * bench:rate-limit compares these servers' throughput, so each must do what its mode claims:
 * limiter off sends no X-RateLimit-* headers; the others send all three, counted per request, and
 * only after the bearer check (a request auth refuses is never counted by the app budget).
 */
describe('limiter probe (bench:rate-limit servers)', () => {
  const limit = String(PROBE_PRINCIPAL.rateLimitPerMinute);

  async function withProbe(mode: LimiterMode, body: (base: string) => Promise<void>): Promise<void> {
    const probe = await startLimiterProbe(mode, undefined, `probe-spec:${mode}:`);
    try {
      await body(`http://127.0.0.1:${probe.port}${PROBE_PATH}`);
    } finally {
      await probe.close();
    }
  }

  const get = (url: string, token = PROBE_TOKEN) => fetch(url, { headers: { authorization: `Bearer ${token}` } });

  it('off: the endpoint answers without rate-limit headers', async () => {
    await withProbe('off', async (url) => {
      const res = await get(url);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    });
  });

  it.each<LimiterMode>(['headers-only', 'minimal', 'memory'])('%s: the three headers on every request, Remaining counting down', async (mode) => {
    await withProbe(mode, async (url) => {
      const first = await get(url);
      const second = await get(url);
      for (const res of [first, second]) {
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBe(limit);
        expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
        expect(Number(res.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(60);
      }
      expect(Number(first.headers.get('x-ratelimit-remaining'))).toBe(Number(limit) - 1);
      expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(Number(limit) - 2);
    });
  });

  it.each<LimiterMode>(['minimal', 'memory'])('%s: the app budget is charged after auth, so a refused request is not counted', async (mode) => {
    await withProbe(mode, async (url) => {
      const refused = await get(url, 'wrong');
      expect(refused.status).toBe(403);
      expect(refused.headers.get('x-ratelimit-remaining')).toBeNull();
      const admitted = await get(url);
      expect(admitted.status).toBe(200);
      expect(Number(admitted.headers.get('x-ratelimit-remaining'))).toBe(Number(limit) - 1);
    });
  });
});

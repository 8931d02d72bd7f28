import { RateLimiter } from '../../src/rate-limit/rate-limiter';
import { createTestApp, type TestApp } from '../../test/support/create-test-app';
import { PROBE_POLICY, type LimiterMode } from './limiter-probe-app';
import { SERVICE_PATH, serviceLimiter } from './service-limiter';

/**
 * bench:rate-limit's service pairs compare the whole app with its limiter and with pass-throughs
 * in its place, so each must be what it claims: off counts and refuses nothing and sends no
 * X-RateLimit-* headers; on is the app's own limiter with the edge allowance raised like the probe's.
 */
describe('service limiter modes (bench:rate-limit service pairs)', () => {
  async function withService(mode: LimiterMode, body: (t: TestApp, token: string) => Promise<void>): Promise<void> {
    const t = await createTestApp({ env: { EDGE_LIMITS: 'on' }, override: serviceLimiter(mode) });
    try {
      const token = await (await t.tenant()).key(undefined, { rateLimitPerMinute: 3 });
      await body(t, token);
    } finally {
      await t.close();
    }
  }

  it('off: no headers, and nothing is refused past the key budget', async () => {
    await withService('off', async (t, token) => {
      for (let i = 0; i < 5; i++) {
        const res = await t.http().get(SERVICE_PATH).set('authorization', `Bearer ${token}`);
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
      // Auth is untouched: the endpoint still needs a credential.
      expect((await t.http().get(SERVICE_PATH)).status).toBe(401);
    });
  });

  it("memory: the app's limiter counts the key's budget, with the probe's raised edge allowance", async () => {
    await withService('memory', async (t, token) => {
      expect(t.app.get(RateLimiter).policy.edge.api.limit).toBe(PROBE_POLICY.edge.api.limit);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await t.http().get(SERVICE_PATH).set('authorization', `Bearer ${token}`);
        statuses.push(res.status);
        if (i === 0) expect(res.headers['x-ratelimit-remaining']).toBe('2');
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    });
  });

  it('refuses the probe-only yardsticks', () => {
    expect(() => serviceLimiter('minimal')).toThrow(/yardstick/);
  });
});

import type { ApiKeyPrincipal, OAuthPrincipal } from '../auth/principal';
import { FakeClock } from '../../test/fakes/fake-clock';
import { storesUnderTest, type StoreUnderTest } from '../../test/fakes/rate-limit-stores';
import { networkKey } from './client-address';
import { RATE_LIMIT_POLICY } from './rate-limit.policy';
import { RateLimiter, type LimitCheck } from './rate-limiter';
import type { RateLimitStore } from './store/rate-limit-store';

/**
 * The contract every store must meet, run against memory and (when REDIS_URL is set) the real
 * Redis, through the RateLimiter so the numbers are the ones clients see.
 */
const MINUTE = 60_000;

function apiKey(overrides: Partial<ApiKeyPrincipal> = {}): ApiKeyPrincipal {
  return { kind: 'api_key', tenantId: 'tenant-a', apiKeyId: 'key-1', scopes: ['scan'], rateLimitPerMinute: null, ...overrides };
}

async function repeat(limiter: RateLimiter, checks: readonly LimitCheck[], times: number): Promise<number> {
  let admitted = 0;
  for (let i = 0; i < times; i++) if ((await limiter.evaluate(checks)).allowed) admitted++;
  return admitted;
}

describe.each(storesUnderTest().map((s) => [s.name, s] as const))('rate-limit store contract: %s', (_name, under: StoreUnderTest) => {
  let clock: FakeClock;
  let store: RateLimitStore;
  let limiter: RateLimiter;

  beforeEach(() => {
    clock = new FakeClock();
    store = under.create();
    limiter = new RateLimiter(store, clock, { policy: RATE_LIMIT_POLICY });
  });

  afterAll(() => under.cleanup());

  // The layers' checks for a method + path, through the one classification the middleware makes.
  const endpointChecks = (method: string, path: string, network: string) => limiter.endpointChecks(limiter.classify(method, path), network);
  const edgeCheck = (method: string, path: string, network: string) => limiter.edgeCheck(limiter.classify(method, path), network);

  describe('app budget (2,000 per key per 60 s, fixed window)', () => {
    it('opens the window at the first request and resets it in full 60 s later', async () => {
      const check = limiter.appBudgetCheck(apiKey());
      clock.advance(12_345); // the window starts at the first request, not on a minute boundary
      const first = await limiter.evaluate([check]);
      expect(first.headers).toEqual({ 'X-RateLimit-Limit': '2000', 'X-RateLimit-Remaining': '1999', 'X-RateLimit-Reset': '60' });
      expect(await repeat(limiter, [check], 1999)).toBe(1999);
      expect((await limiter.evaluate([check])).allowed).toBe(false);
      clock.advance(MINUTE - 1);
      expect((await limiter.evaluate([check])).allowed).toBe(false);
      clock.advance(1);
      const fresh = await limiter.evaluate([check]);
      expect(fresh.allowed).toBe(true);
      expect(fresh.headers['X-RateLimit-Remaining']).toBe('1999');
      expect(fresh.headers['X-RateLimit-Reset']).toBe('60');
    });

    it('answers request 2,001 with Retry-After equal to the seconds left and Remaining 0', async () => {
      const check = limiter.appBudgetCheck(apiKey());
      expect(await repeat(limiter, [check], 2000)).toBe(2000);
      clock.advance(15_000);
      const rejected = await limiter.evaluate([check]);
      expect(rejected.allowed).toBe(false);
      expect(rejected.appBudgetRejected).toBe(true);
      expect(rejected.retryAfterSeconds).toBe(45);
      expect(rejected.headers).toEqual({ 'X-RateLimit-Limit': '2000', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '45' });
      expect(rejected.detail).toMatch(/^Rate limit exceeded: 2000 requests per minute for this API key/);
      clock.advance(200); // part of a second left rounds up
      expect((await limiter.evaluate([check])).retryAfterSeconds).toBe(45);
    });

    it('a rejected request changes nothing', async () => {
      const small = { key: 'app:small', limit: 3, windowMs: MINUTE, layer: 'app' as const, reason: 'x' };
      const other = { key: 'app:other', limit: 10, windowMs: MINUTE, layer: 'app' as const, reason: 'y' };
      await repeat(limiter, [small], 3);
      for (let i = 0; i < 5; i++) expect((await limiter.evaluate([other, small])).allowed).toBe(false);
      // `other` was never charged by the rejected pairs (all-or-nothing) …
      const o = await limiter.evaluate([other]);
      expect(o.headers['X-RateLimit-Remaining']).toBe('9');
      // … and `small` reopens at its original window end, not pushed back by the rejections.
      clock.advance(MINUTE);
      expect((await limiter.evaluate([small])).allowed).toBe(true);
    });

    it('applies a tenant raise mid-window', async () => {
      const check = limiter.appBudgetCheck(apiKey());
      await repeat(limiter, [check], 2000);
      expect((await limiter.evaluate([check])).allowed).toBe(false);
      clock.advance(10_000);
      const raised = limiter.appBudgetCheck(apiKey({ rateLimitPerMinute: 2500 }));
      const r = await limiter.evaluate([raised]);
      expect(r.allowed).toBe(true);
      expect(r.headers).toEqual({ 'X-RateLimit-Limit': '2500', 'X-RateLimit-Remaining': '499', 'X-RateLimit-Reset': '50' });
      expect(await repeat(limiter, [raised], 600)).toBe(499);
    });

    it('keeps the bucket of a rotated key (same principal id, new token)', async () => {
      const before = limiter.appBudgetCheck(apiKey());
      await repeat(limiter, [before], 1500);
      // Rotation changes the token, not the principal; the bucket key never includes token material.
      const after = limiter.appBudgetCheck(apiKey({ scopes: ['scan', 'inventory:read'] }));
      expect((await limiter.evaluate([after])).headers['X-RateLimit-Remaining']).toBe('499');
      const otherKey = limiter.appBudgetCheck(apiKey({ apiKeyId: 'key-2' }));
      expect((await limiter.evaluate([otherKey])).headers['X-RateLimit-Remaining']).toBe('1999');
    });

    it('never reports a reset beyond the window when another replica opened it a moment after this request read its clock', async () => {
      const check = limiter.appBudgetCheck(apiKey({ rateLimitPerMinute: 1 }));
      // The other replica's request read its clock 5 ms earlier but reached the store second.
      const earlier = new RateLimiter(store, new FakeClock(clock.now() - 5), { policy: RATE_LIMIT_POLICY });
      expect((await limiter.evaluate([check])).allowed).toBe(true);
      const r = await earlier.evaluate([check]);
      expect(r.allowed).toBe(false);
      expect(r.headers['X-RateLimit-Reset']).toBe('60');
      expect(r.retryAfterSeconds).toBe(60);
    });

    it('keeps one check list per API-key principal object; a re-verified key (a new object) gets its own', () => {
      const key = apiKey();
      expect(limiter.appBudgetChecks(key)).toBe(limiter.appBudgetChecks(key));
      expect(limiter.appBudgetChecks(key, 'control-plane')[0]).toMatchObject({ key: 'cp:key:key-1', limit: 600 });
      expect(limiter.appBudgetChecks(apiKey({ rateLimitPerMinute: 2500 }))[0]).toMatchObject({ key: 'app:key:key-1', limit: 2500 });
    });

    it('gives the CLI control-plane calls a separate 600/min budget', async () => {
      expect(limiter.classify('GET', '/api/cli/whoami').budget).toBe('control-plane');
      expect(limiter.classify('POST', '/api/cli/telemetry').budget).toBe('control-plane');
      expect(limiter.classify('POST', '/api/cli/whoami').budget).toBe('api');
      const cp = limiter.appBudgetCheck(apiKey(), 'control-plane');
      const api = limiter.appBudgetCheck(apiKey());
      expect(await repeat(limiter, [cp], 601)).toBe(600);
      const r = await limiter.evaluate([api]);
      expect(r.headers['X-RateLimit-Remaining']).toBe('1999');
    });
  });

  describe('per-endpoint limits (per source network)', () => {
    it('PATCH /api/reset_password: 3 per hour per address; other addresses unaffected', async () => {
      const a = endpointChecks('PATCH', '/api/reset_password', networkKey('127.0.0.2'));
      const b = endpointChecks('PATCH', '/api/reset_password', networkKey('127.0.0.3'));
      expect(a).toHaveLength(1);
      expect(a[0]!.failClosed).toBe(true);
      expect(await repeat(limiter, a, 5)).toBe(3);
      const rejected = await limiter.evaluate(a);
      expect(rejected.retryAfterSeconds).toBe(3600);
      expect(rejected.headers).toEqual({});
      expect(rejected.detail).toBe('Rate limit exceeded: PATCH /api/reset_password allows 3 requests per hour from one address');
      expect(await repeat(limiter, b, 1)).toBe(1);
      clock.advance(60 * MINUTE);
      expect(await repeat(limiter, a, 1)).toBe(1);
    });

    it('two IPv6 addresses in one /64 share a bucket; another /64 does not', async () => {
      const a = endpointChecks('POST', '/api/upgrade-guidance/generate', networkKey('2001:db8:0:1::a'));
      const b = endpointChecks('POST', '/api/upgrade-guidance/generate', networkKey('2001:db8:0:1:ffff::b'));
      const c = endpointChecks('POST', '/api/upgrade-guidance/generate', networkKey('2001:db8:0:2::a'));
      expect(await repeat(limiter, a, 3)).toBe(3);
      expect(await repeat(limiter, b, 3)).toBe(2);
      expect(await repeat(limiter, c, 1)).toBe(1);
    });

    it.each([
      ['POST', '/api/upgrade-guidance/', 30, MINUTE],
      ['POST', '/api/upgrade-guidance/generate', 5, MINUTE],
      ['POST', '/api/upgrade-guidance/invalidate', 5, MINUTE],
      ['POST', '/api/workflows/ai/suggest', 10, MINUTE],
      ['POST', '/api/guardrails/ai/suggest', 10, MINUTE],
      ['POST', '/api/credentials/', 100, 30 * MINUTE],
    ])('%s %s: %d per window, reset after the window', async (method, path, limit, windowMs) => {
      const checks = endpointChecks(method, path, '127.0.0.9');
      expect(await repeat(limiter, checks, limit + 2)).toBe(limit);
      const r = await limiter.evaluate(checks);
      expect(r.retryAfterSeconds).toBe(windowMs / 1000);
      clock.advance(windowMs);
      expect(await repeat(limiter, checks, 1)).toBe(1);
    });

    it('applies 20 per 5 minutes separately to each of the five preflight kinds', async () => {
      const kinds = ['aws-organization', 'aws-account', 'codeartifact', 'gcp-organization', 'azure-organization'];
      for (const kind of kinds) {
        expect(await repeat(limiter, endpointChecks('POST', `/api/credentials/preflight/${kind}`, '127.0.0.9'), 21)).toBe(20);
      }
      // Unknown kinds share one bucket, so inventing kinds cannot multiply the allowance.
      expect(await repeat(limiter, endpointChecks('POST', '/api/credentials/preflight/x1', '127.0.0.9'), 15)).toBe(15);
      expect(await repeat(limiter, endpointChecks('POST', '/api/credentials/preflight/x2', '127.0.0.9'), 10)).toBe(5);
      // And they do not draw on the 100/30 min of POST /api/credentials/.
      expect(await repeat(limiter, endpointChecks('POST', '/api/credentials/', '127.0.0.9'), 1)).toBe(1);
      clock.advance(5 * MINUTE);
      expect(await repeat(limiter, endpointChecks('POST', '/api/credentials/preflight/codeartifact', '127.0.0.9'), 1)).toBe(1);
    });
  });

  describe('cooldowns and quotas', () => {
    const userA = apiKey({ apiKeyId: 'user-a' });
    const userB = apiKey({ apiKeyId: 'user-b' });

    async function act(method: string, path: string, who: ApiKeyPrincipal | OAuthPrincipal) {
      const checks = limiter
        .classify(method, path)
        .cooldowns.map((m) => limiter.cooldownCheck(m, who))
        .filter((c): c is LimitCheck => c !== null);
      return limiter.evaluate(checks);
    }

    it('re-check a secret: once every 15 minutes per secret', async () => {
      expect((await act('POST', '/api/secrets/s1/recheck', userA)).allowed).toBe(true);
      clock.advance(5 * MINUTE);
      const r = await act('POST', '/api/secrets/s1/recheck', userB); // same org, other caller
      expect(r.allowed).toBe(false);
      expect(r.retryAfterSeconds).toBe(600);
      expect(r.detail).toBe('Rate limit exceeded: a secret can be re-checked once every 15 minutes');
      expect((await act('POST', '/api/secrets/s2/recheck', userA)).allowed).toBe(true);
      // Secret ids are per tenant: another tenant's "s1" is another secret.
      expect((await act('POST', '/api/secrets/s1/recheck', apiKey({ tenantId: 'tenant-b' }))).allowed).toBe(true);
      clock.advance(10 * MINUTE);
      expect((await act('POST', '/api/secrets/s1/recheck', userA)).allowed).toBe(true);
    });

    it('manual secret re-checks: 60 per hour per organization across all secrets', async () => {
      for (let i = 0; i < 60; i++) expect((await act('POST', `/api/secrets/s${i}/recheck`, userA)).allowed).toBe(true);
      const r = await act('POST', '/api/secrets/s60/recheck', userB);
      expect(r.allowed).toBe(false);
      expect(r.detail).toContain('60 manual secret re-checks per hour');
      expect((await act('POST', '/api/secrets/s60/recheck', apiKey({ tenantId: 'tenant-b' }))).allowed).toBe(true);
      clock.advance(60 * MINUTE);
      expect((await act('POST', '/api/secrets/s60/recheck', userA)).allowed).toBe(true);
    });

    it('a per-secret cooldown rejection does not spend the organization quota', async () => {
      await act('POST', '/api/secrets/hot/recheck', userA);
      for (let i = 0; i < 100; i++) await act('POST', '/api/secrets/hot/recheck', userA);
      for (let i = 0; i < 59; i++) expect((await act('POST', `/api/secrets/s${i}/recheck`, userA)).allowed).toBe(true);
    });

    it('start an export: 30 per hour per user, shared by creating and running on demand', async () => {
      for (let i = 0; i < 15; i++) expect((await act('POST', '/api/exports/', userA)).allowed).toBe(true);
      for (let i = 0; i < 15; i++) expect((await act('POST', `/api/exports/e${i}/run`, userA)).allowed).toBe(true);
      expect((await act('POST', '/api/exports', userA)).allowed).toBe(false);
      const run = await act('POST', '/api/exports/e1/run', userA);
      expect(run.allowed).toBe(false);
      expect(run.detail).toContain('30 exports per hour');
      expect((await act('POST', '/api/exports/', userB)).allowed).toBe(true);
      clock.advance(60 * MINUTE);
      expect((await act('POST', '/api/exports/e1/run', userA)).allowed).toBe(true);
    });

    it("change a repository's scan branch: once every 24 hours per repository", async () => {
      expect((await act('PUT', '/api/repositories/r1/scan_branch', userA)).allowed).toBe(true);
      expect((await act('PATCH', '/api/repositories/r1/scan_branch', userB)).allowed).toBe(false);
      expect((await act('PUT', '/api/repositories/r2/scan_branch', userA)).allowed).toBe(true);
      clock.advance(24 * 60 * MINUTE - 1000);
      const r = await act('PUT', '/api/repositories/r1/scan_branch', userA);
      expect(r.allowed).toBe(false);
      expect(r.retryAfterSeconds).toBe(1);
      clock.advance(1000);
      expect((await act('PUT', '/api/repositories/r1/scan_branch', userA)).allowed).toBe(true);
    });

    it('a released reservation (failed action) is handed back, but only within its window', async () => {
      const first = await act('POST', '/api/exports/', userA);
      expect(first.allowed).toBe(true);
      // Only the cooldown's unit can be handed back, never the app budget's.
      expect(first.reservations.map((r) => r.key)).toEqual([expect.stringMatching(/^cd:/)]);
      await limiter.release(first.reservations);
      for (let i = 0; i < 30; i++) expect((await act('POST', '/api/exports/', userA)).allowed).toBe(true);
      // A stale reservation from an earlier window must not open room in the next one.
      const secret = await act('POST', '/api/secrets/s/recheck', userA);
      clock.advance(15 * MINUTE);
      expect((await act('POST', '/api/secrets/s/recheck', userA)).allowed).toBe(true);
      await limiter.release(secret.reservations.filter((r) => r.key.startsWith('cd:secret-recheck:')));
      expect((await act('POST', '/api/secrets/s/recheck', userA)).allowed).toBe(false);
    });
  });

  describe('MCP classes', () => {
    it('API-key MCP calls share the REST budget; OAuth 600 per tenant+client+subject; anonymous 60 per network', async () => {
      const key = apiKey();
      await repeat(limiter, [limiter.appBudgetCheck(key)], 1000);
      expect((await limiter.evaluate(limiter.mcpChecks(key, '127.0.0.1'))).headers['X-RateLimit-Remaining']).toBe('999');

      const oauth: OAuthPrincipal = { kind: 'oauth', tenantId: 't', clientId: 'c', subject: 'u', scopes: [], rateLimitPerMinute: null };
      expect(await repeat(limiter, limiter.mcpChecks(oauth, '127.0.0.1'), 601)).toBe(600);
      expect(await repeat(limiter, limiter.mcpChecks({ ...oauth, subject: 'u2' }, '127.0.0.1'), 1)).toBe(1);
      expect(await repeat(limiter, limiter.mcpChecks({ ...oauth, rateLimitPerMinute: 700 }, '127.0.0.1'), 200)).toBe(100);

      expect(await repeat(limiter, limiter.mcpChecks(null, networkKey('2001:db8::1')), 61)).toBe(60);
      expect(await repeat(limiter, limiter.mcpChecks(null, networkKey('2001:db8::2')), 1)).toBe(0);
      expect(await repeat(limiter, limiter.mcpChecks(null, networkKey('127.0.0.1')), 1)).toBe(1);
    });
  });

  describe('classification (one table match per request, made before routing)', () => {
    it('answers a path no per-route rule matches with one shared object per edge allowance', () => {
      const plain = limiter.classify('GET', '/api/applications/1');
      expect(plain).toEqual({ edge: 'api', endpoints: [], cooldowns: [], budget: 'api' });
      expect(limiter.classify('DELETE', '/api/applications/2')).toBe(plain);
      expect(limiter.classify('GET', '/health')).toEqual({ edge: null, endpoints: [], cooldowns: [], budget: 'api' });
      expect(limiter.classify('POST', '/api/agent_files/scan')).toMatchObject({ edge: 'scan', endpoints: [] });
    });

    it("reads the method in any case (callers outside Node's parser may not upper-case it)", () => {
      expect(limiter.classify('post', '/api/agent_files/scan').edge).toBe('scan');
      expect(limiter.classify('Get', '/api/cli/whoami').budget).toBe('control-plane');
      expect(limiter.classify(undefined, '/api/agent_files/scan').edge).toBe('api');
    });

    it('sorts the rules one path matches into per-endpoint limits, cooldowns and the control-plane budget', () => {
      const policy = {
        ...RATE_LIMIT_POLICY,
        cooldowns: [
          ...RATE_LIMIT_POLICY.cooldowns,
          {
            id: 'extra',
            description: 'x',
            scope: 'user' as const,
            limit: 1,
            windowMs: MINUTE,
            routes: [{ method: 'PATCH' as const, path: '/api/reset_password' }],
          },
        ],
      };
      const mixed = new RateLimiter(store, clock, { policy }).classify('PATCH', '/API/reset_password/');
      expect(mixed.endpoints.map((m) => m.value.id)).toEqual(['reset-password']);
      expect(mixed.cooldowns.map((m) => m.rule.id)).toEqual(['extra']);
      expect(mixed.budget).toBe('api');
      const recheck = limiter.classify('POST', '/api/secrets/s-9/recheck');
      expect(recheck.cooldowns.map((m) => [m.rule.id, m.params.secret_id])).toEqual([
        ['secret-recheck', 's-9'],
        ['secret-recheck-manual', 's-9'],
      ]);
      expect(recheck.endpoints).toEqual([]);
      // Express serves HEAD with the GET handler, so HEAD is classified like GET.
      expect(limiter.classify('HEAD', '/api/cli/config').budget).toBe('control-plane');
    });

    it("remembers each path's answer, frozen, and keeps that memo bounded", () => {
      const recheck = (id: string) => limiter.classify('POST', `/api/secrets/${id}/recheck`);
      const first = recheck('s-1');
      expect(recheck('s-1')).toBe(first);
      // Shared by every request to the path, so nothing in it can be changed.
      expect([first, first.cooldowns, first.cooldowns[0], first.cooldowns[0]!.params].every((x) => Object.isFrozen(x))).toBe(true);
      // Each path keeps its own ids.
      expect(recheck('s-2').cooldowns[0]!.params.secret_id).toBe('s-2');
      expect(recheck('s-1').cooldowns[0]!.params.secret_id).toBe('s-1');
      // A long path is answered in full but never kept.
      const long = 'x'.repeat(300);
      expect(recheck(long).cooldowns[0]!.params.secret_id).toBe(long);
      expect(recheck(long)).not.toBe(recheck(long));
      // A scan of unique paths fills the method's memo, which is then emptied; answers stay right.
      for (let i = 0; i < 10_001; i++) expect(recheck(`scan-${i}`).cooldowns[0]!.params.secret_id).toBe(`scan-${i}`);
      expect(recheck('s-1')).not.toBe(first);
      expect(recheck('s-1')).toEqual(first);
    });
  });

  describe('edge allowances (per source network, 5 minutes)', () => {
    it('counts API traffic in 2,000 and the scan route in its own 6,000', () => {
      expect(edgeCheck('GET', '/api/applications', 'n')).toMatchObject({ key: 'edge:api:n', limit: 2000, windowMs: 5 * MINUTE });
      expect(edgeCheck('POST', '/mcp', 'n')).toMatchObject({ key: 'edge:api:n' });
      expect(edgeCheck('POST', '/api/agent_files/scan', 'n')).toMatchObject({ key: 'edge:scan:n', limit: 6000 });
      expect(edgeCheck('GET', '/api/agent_files/scan', 'n')).toMatchObject({ key: 'edge:api:n' });
      expect(edgeCheck('GET', '/health', 'n')).toBeNull();
      expect(edgeCheck('GET', '/apix', 'n')).toBeNull();
    });

    it('keeps one check per network and allowance, and forgets them when a spread of networks fills the memo', () => {
      const first = edgeCheck('GET', '/api/a', 'n');
      expect(edgeCheck('DELETE', '/api/b', 'n')).toBe(first);
      for (let i = 0; i < 10_001; i++) expect(edgeCheck('GET', '/api/a', `net-${i}`)!.key).toBe(`edge:api:net-${i}`);
      const again = edgeCheck('GET', '/api/a', 'n');
      expect(again).not.toBe(first); // forgotten when the memo was emptied, then built again
      expect(again).toEqual(first);
    });
  });
});

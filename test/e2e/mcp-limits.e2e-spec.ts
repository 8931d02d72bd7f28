import { join } from 'node:path';
import { SCAN_POOL_OPTIONS } from '../../src/scanner/scanner.tokens';
import type { ScanPoolOptions } from '../../src/scanner/worker/scan-pool';
import { FakeClock } from '../fakes/fake-clock';
import { createTestApp, type TestApp, type TestTenant } from '../support/create-test-app';
import { LoopbackIssuer } from './mcp-oauth.helpers';
import { callTool, initialize, request, rpc, toolErrorOf } from './mcp.helpers';
import { budget, cleanupRedisPrefix, rateLimitOverrides, uniqueKeyPrefix } from './rate-limit.helpers';

/**
 * The MCP rate-limit classes (docs/mcp.md "Rate limits") through the whole pipeline with a
 * fake clock (real Redis when REDIS_URL is set, under a unique key prefix): an API key shares its
 * REST budget, OAuth callers get 600/min per tenant + client + subject, anonymous callers 60/min
 * per IPv4 address or IPv6 /64. Plus scan capacity (503 + retry-after) as a tool error, through
 * a one-thread pool running the scripted engine.
 */
const ENGINE = join(__dirname, '../fixtures/scan/engines/scripted.engine.ts');
const MINUTE = 60_000;

describe('/mcp rate limits and capacity', () => {
  let t: TestApp;
  let issuer: LoopbackIssuer;
  let tenant: TestTenant;
  let audience: string;
  const clock = new FakeClock();
  const keyPrefix = uniqueKeyPrefix();

  beforeAll(async () => {
    issuer = await LoopbackIssuer.start();
    const pool: ScanPoolOptions = { threads: 1, maxQueue: 0, timeoutMs: 10_000, engineModule: ENGINE };
    t = await createTestApp({
      // 127.0.0.1 is a trusted proxy here so tests can speak from IPv6 networks via X-Forwarded-For.
      env: issuer.env({ TRUSTED_PROXIES: '127.0.0.1' }),
      override: (b) => rateLimitOverrides(clock, keyPrefix)(b).overrideProvider(SCAN_POOL_OPTIONS).useValue(pool),
    });
    tenant = await t.tenant();
    audience = `${t.config.publicUrl}/mcp`;
  });
  afterAll(async () => {
    await t.close();
    await issuer.close();
    await cleanupRedisPrefix(keyPrefix);
  });
  // Every test starts in fresh windows.
  beforeEach(() => clock.advance(2 * MINUTE));

  it("API key: REST and MCP draw from ONE per-key budget (the key's rate_limit_per_minute)", async () => {
    const key = await tenant.key(['admin'], { rateLimitPerMinute: 4 });
    const restCall = () => t.http().get('/api/admin/api-keys').set('Authorization', `Bearer ${key}`);
    expect(budget(await restCall().expect(200))).toEqual({ limit: 4, remaining: 3 });
    expect(budget(await rpc(t, initialize(), { token: key }).expect(200))).toEqual({ limit: 4, remaining: 2 });
    expect(budget(await rpc(t, request('tools/list'), { token: key }).expect(200))).toEqual({ limit: 4, remaining: 1 });
    expect(budget(await restCall().expect(200))).toEqual({ limit: 4, remaining: 0 });

    for (const res of [await rpc(t, request('tools/list'), { token: key }), await restCall()]) {
      expect(res.status).toBe(429);
      expect(res.body.detail).toMatch(/^Rate limit exceeded: 4 requests per minute for this API key/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(budget(res)).toEqual({ limit: 4, remaining: 0 });
    }
    // Another key of the same tenant has its own budget.
    const other = await tenant.key(['scan'], { rateLimitPerMinute: 4 });
    expect(budget(await rpc(t, request('tools/list'), { token: other }).expect(200))).toEqual({ limit: 4, remaining: 3 });
    clock.advance(MINUTE);
    expect(budget(await rpc(t, request('tools/list'), { token: key }).expect(200))).toEqual({ limit: 4, remaining: 3 });
  });

  it('batches (protocol 2025-03-26, which has them): every message is charged, all or nothing', async () => {
    const key = await tenant.key(['scan'], { rateLimitPerMinute: 10 });
    const old = { token: key, protocolVersion: null };
    const list = (n: number) => Array.from({ length: n }, () => request('tools/list'));
    const four = await rpc(t, list(4), old).expect(200);
    expect(four.body).toHaveLength(4);
    expect(budget(four)).toEqual({ limit: 10, remaining: 6 });
    // Seven more do not fit in the six left: refused whole, and nothing is spent.
    const seven = await rpc(t, list(7), old).expect(429);
    expect(seven.body.detail).toMatch(/^Rate limit exceeded: 10 requests per minute for this API key/);
    expect(budget(seven)).toEqual({ limit: 10, remaining: 6 });
    expect(budget(await rpc(t, list(6), old).expect(200))).toEqual({ limit: 10, remaining: 0 });
    // A batch is charged to anonymous callers per message too.
    const from = { headers: { 'X-Forwarded-For': '198.51.100.60' }, protocolVersion: null };
    expect(budget(await rpc(t, list(5), from).expect(200))).toEqual({ limit: 60, remaining: 55 });
  });

  it('batches under protocol 2025-06-18 and later (which removed them): 400 Invalid Request, nothing charged', async () => {
    const key = await tenant.key(['scan'], { rateLimitPerMinute: 10 });
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await rpc(t, [request('tools/list'), request('tools/list')], { token: key, protocolVersion: version }).expect(400);
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: `Invalid Request: JSON-RPC batches are not part of MCP protocol version ${version}; send one message per request` },
      });
      expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
    }
    expect(budget(await rpc(t, request('tools/list'), { token: key }).expect(200))).toEqual({ limit: 10, remaining: 9 });
  });

  it('API key: the default budget is the 2,000/min of REST', async () => {
    const key = await tenant.key(['scan']);
    expect(budget(await rpc(t, initialize(), { token: key }).expect(200))).toEqual({ limit: 2000, remaining: 1999 });
  });

  it('anonymous: 60 per minute per IPv4 address; then 429 with Retry-After; unverified credentials count here too', async () => {
    const from = (ip: string) => ({ headers: { 'X-Forwarded-For': ip } });
    for (let i = 0; i < 59; i++) await rpc(t, request('tools/list'), from('198.51.100.7')).expect(200);
    // A credential that does not verify is charged to the caller's network, then answered 401.
    const unverified = await rpc(t, initialize(), { ...from('198.51.100.7'), token: 'bwk_notarealtokennotarealtokennotarealtoken' }).expect(401);
    expect(budget(unverified)).toEqual({ limit: 60, remaining: 0 });
    const limited = await rpc(t, initialize(), from('198.51.100.7')).expect(429);
    expect(limited.body.detail).toBe('Rate limit exceeded: 60 unauthenticated MCP requests per minute from one network');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(budget(limited)).toEqual({ limit: 60, remaining: 0 });
    // Other addresses and authenticated callers are unaffected.
    expect(budget(await rpc(t, initialize(), from('198.51.100.8')).expect(200))).toEqual({ limit: 60, remaining: 59 });
    await rpc(t, initialize(), { ...from('198.51.100.7'), token: await tenant.key(['scan']) }).expect(200);
    clock.advance(MINUTE);
    await rpc(t, initialize(), from('198.51.100.7')).expect(200);
  });

  it('anonymous: IPv6 callers share one bucket per /64', async () => {
    const from = (ip: string) => ({ headers: { 'X-Forwarded-For': ip } });
    expect(budget(await rpc(t, initialize(), from('2001:db8:1:2::1')).expect(200)).remaining).toBe(59);
    expect(budget(await rpc(t, initialize(), from('2001:db8:1:2:ffff::9')).expect(200)).remaining).toBe(58);
    expect(budget(await rpc(t, initialize(), from('2001:db8:1:3::1')).expect(200)).remaining).toBe(59);
  });

  it('OAuth: 600 per minute per tenant + client + subject; a new token for the same principal keeps the bucket', async () => {
    await t.tenant('default');
    const token = (sub: string, client: string) => issuer.token({ sub, client_id: client, scope: 'scan' }, audience);
    const alice = await token('alice', 'claude-desktop');
    expect(budget(await rpc(t, initialize(), { token: alice }).expect(200))).toEqual({ limit: 600, remaining: 599 });
    // Rotation: a freshly issued token for the same client + subject draws on the same bucket.
    const aliceAgain = await issuer.token({ sub: 'alice', client_id: 'claude-desktop', scope: 'scan' }, audience, '20m');
    expect(aliceAgain).not.toBe(alice);
    expect(budget(await rpc(t, request('tools/list'), { token: aliceAgain }).expect(200))).toEqual({ limit: 600, remaining: 598 });
    // Same subject through another client, and another subject through the same client: own buckets.
    expect(budget(await rpc(t, request('tools/list'), { token: await token('alice', 'cursor') }).expect(200)).remaining).toBe(599);
    expect(budget(await rpc(t, request('tools/list'), { token: await token('bob', 'claude-desktop') }).expect(200)).remaining).toBe(599);

    for (let sent = 0; sent < 598; sent += 23) {
      const n = Math.min(23, 598 - sent);
      const statuses = await Promise.all(Array.from({ length: n }, async () => (await rpc(t, request('tools/list'), { token: alice })).status));
      expect(statuses.every((s) => s === 200)).toBe(true);
    }
    const limited = await rpc(t, request('tools/list'), { token: alice }).expect(429);
    expect(limited.body.detail).toBe('Rate limit exceeded: 600 requests per minute for this OAuth client and user');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(budget(limited)).toEqual({ limit: 600, remaining: 0 });
    await rpc(t, request('tools/list'), { token: await token('alice', 'cursor') }).expect(200);
  });

  it('scan capacity saturated: a 503 tool error with retry_after_seconds, the scan never ran', async () => {
    const key = await tenant.key(['scan']);
    const scan = (path: string) => rpc(t, callTool('scan_agent_files', { files: [{ path, content: '# hi\n' }] }), { token: key }).expect(200);
    await scan('warm.md'); // start the pool so the timing below is the scan's
    const running = scan('sleep-1500.md').then((r) => r);
    await new Promise((r) => setTimeout(r, 300));
    const rejected = toolErrorOf((await scan('ok.md')).body);
    expect(rejected).toMatchObject({ status: 503, detail: expect.stringMatching(/saturated/) });
    expect(rejected.retry_after_seconds).toBeGreaterThanOrEqual(1);
    expect(rejected.text).toMatch(new RegExp(`^HTTP 503 Service Unavailable: .*Retry after ${rejected.retry_after_seconds} seconds\\.$`));
    expect((await running).body.result.isError).toBeUndefined();
  });
});

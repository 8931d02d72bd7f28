import { FakeClock } from '../fakes/fake-clock';
import { createTestApp, type TestApp, type TestTenant } from '../support/create-test-app';
import { LoopbackIssuer } from './mcp-oauth.helpers';
import { initialize, request, rpc } from './mcp.helpers';
import { budget, cleanupRedisPrefix, rateLimitOverrides, uniqueKeyPrefix } from './rate-limit.helpers';

/**
 * Per-tenant limits (docs/decisions/0008-tenant-settings.md: the API-key budget and the
 * authenticated MCP limit are set per tenant): set through PATCH /api/admin/tenant or the import's tenant_settings, they
 * decide the budget of keys without their own limit and of OAuth MCP callers, and the
 * X-RateLimit-* headers state it. Fake clock; real Redis when REDIS_URL is set. The auth cache is
 * left on (its default TTL): a change must apply at the next request all the same.
 */
const MINUTE = 60_000;

describe('per-tenant limits', () => {
  let t: TestApp;
  let issuer: LoopbackIssuer;
  let audience: string;
  const clock = new FakeClock();
  const keyPrefix = uniqueKeyPrefix();

  beforeAll(async () => {
    issuer = await LoopbackIssuer.start();
    t = await createTestApp({ env: issuer.env(), override: rateLimitOverrides(clock, keyPrefix) });
    audience = `${t.config.publicUrl}/mcp`;
  });
  afterAll(async () => {
    await t.close();
    await issuer.close();
    await cleanupRedisPrefix(keyPrefix);
  });
  // Every test starts in fresh windows.
  beforeEach(() => clock.advance(2 * MINUTE));

  /** A tenant and its admin key; the admin key has its own limit so the tenant's never throttles it. */
  async function adminOf(): Promise<{ tenant: TestTenant; admin: string }> {
    const tenant = await t.tenant();
    return { tenant, admin: await tenant.key(['admin'], { rateLimitPerMinute: 1000 }) };
  }
  const getTenant = (admin: string) => t.http().get('/api/admin/tenant').set('Authorization', `Bearer ${admin}`);
  const patchTenant = (admin: string, body: unknown) =>
    t
      .http()
      .patch('/api/admin/tenant')
      .set('Authorization', `Bearer ${admin}`)
      .send(body as object);
  const terms = (key: string) => t.http().get('/api/applications/_terms').set('Authorization', `Bearer ${key}`);

  it("GET /api/admin/tenant: the caller's tenant, no settings, the default limits in effect", async () => {
    const { tenant, admin } = await adminOf();
    expect((await getTenant(admin).expect(200)).body).toEqual({
      id: tenant.id,
      slug: tenant.slug,
      name: tenant.slug,
      rate_limit_per_minute: null,
      oauth_mcp_rate_limit_per_minute: null,
      effective: { rate_limit_per_minute: 2000, oauth_mcp_rate_limit_per_minute: 600 },
    });
  });

  it("the tenant budget lowers a key without its own limit: the 429 comes at the tenant's number, the headers state it", async () => {
    const { admin } = await adminOf();
    const key = await tenantKey(admin);
    // Used (and cached) at the default before the change.
    expect(budget(await terms(key).expect(200))).toEqual({ limit: 2000, remaining: 1999 });
    const patched = await patchTenant(admin, { rate_limit_per_minute: 3 }).expect(200);
    expect(patched.body).toMatchObject({
      rate_limit_per_minute: 3,
      oauth_mcp_rate_limit_per_minute: null,
      effective: { rate_limit_per_minute: 3, oauth_mcp_rate_limit_per_minute: 600 },
    });
    expect(budget(await terms(key).expect(200))).toEqual({ limit: 3, remaining: 1 });
    expect(budget(await terms(key).expect(200))).toEqual({ limit: 3, remaining: 0 });
    const limited = await terms(key).expect(429);
    expect(limited.body.detail).toMatch(/^Rate limit exceeded: 3 requests per minute for this API key/);
    expect(budget(limited)).toEqual({ limit: 3, remaining: 0 });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // API-key MCP calls draw on the same (tenant) budget.
    expect(budget(await rpc(t, request('tools/list'), { token: key }).expect(429))).toEqual({ limit: 3, remaining: 0 });
    // The admin key has its own limit: the tenant's does not touch it.
    expect(budget(await getTenant(admin).expect(200)).limit).toBe(1000);
  });

  it('the tenant budget raises a key above the default; null puts the default back', async () => {
    const { admin } = await adminOf();
    const key = await tenantKey(admin);
    await patchTenant(admin, { rate_limit_per_minute: 2500 }).expect(200);
    expect(budget(await terms(key).expect(200))).toEqual({ limit: 2500, remaining: 2499 });
    const reset = await patchTenant(admin, { rate_limit_per_minute: null }).expect(200);
    expect(reset.body).toMatchObject({ rate_limit_per_minute: null, effective: { rate_limit_per_minute: 2000 } });
    expect(budget(await terms(key).expect(200))).toEqual({ limit: 2000, remaining: 1998 });
  });

  it("a key's own limit wins over its tenant's, whether lower or higher", async () => {
    const { tenant, admin } = await adminOf();
    await patchTenant(admin, { rate_limit_per_minute: 50 }).expect(200);
    const lower = await tenant.key(['inventory:read'], { rateLimitPerMinute: 2 });
    const higher = await tenant.key(['inventory:read'], { rateLimitPerMinute: 70 });
    expect(budget(await terms(lower).expect(200))).toEqual({ limit: 2, remaining: 1 });
    expect(budget(await terms(higher).expect(200))).toEqual({ limit: 70, remaining: 69 });
    await terms(lower).expect(200);
    expect(budget(await terms(lower).expect(429))).toEqual({ limit: 2, remaining: 0 });
  });

  it("one tenant's budget leaves another tenant's keys at the default", async () => {
    const a = await adminOf();
    const b = await adminOf();
    await patchTenant(a.admin, { rate_limit_per_minute: 5 }).expect(200);
    expect(budget(await terms(await b.tenant.key(['inventory:read'])).expect(200)).limit).toBe(2000);
    expect((await getTenant(b.admin).expect(200)).body.rate_limit_per_minute).toBeNull();
  });

  it("OAuth MCP: the tenant's limit applies to each client + user of that tenant (and only that tenant)", async () => {
    const { tenant, admin } = await adminOf();
    const other = await t.tenant();
    const token = (slug: string, sub: string) => issuer.token({ sub, client_id: 'claude-desktop', tenant: slug, scope: 'scan' }, audience);
    const alice = await token(tenant.slug, 'alice');
    // Used (and its tenant cached) at the default before the change.
    expect(budget(await rpc(t, initialize(), { token: alice }).expect(200))).toEqual({ limit: 600, remaining: 599 });
    const patched = await patchTenant(admin, { oauth_mcp_rate_limit_per_minute: 3 }).expect(200);
    expect(patched.body).toMatchObject({
      rate_limit_per_minute: null,
      oauth_mcp_rate_limit_per_minute: 3,
      effective: { rate_limit_per_minute: 2000, oauth_mcp_rate_limit_per_minute: 3 },
    });
    expect(budget(await rpc(t, request('tools/list'), { token: alice }).expect(200))).toEqual({ limit: 3, remaining: 1 });
    expect(budget(await rpc(t, request('tools/list'), { token: alice }).expect(200))).toEqual({ limit: 3, remaining: 0 });
    const limited = await rpc(t, request('tools/list'), { token: alice }).expect(429);
    expect(limited.body.detail).toBe('Rate limit exceeded: 3 requests per minute for this OAuth client and user');
    expect(budget(limited)).toEqual({ limit: 3, remaining: 0 });
    // Per client + user: bob has his own 3; the other tenant's callers keep the default.
    expect(budget(await rpc(t, request('tools/list'), { token: await token(tenant.slug, 'bob') }).expect(200))).toEqual({ limit: 3, remaining: 2 });
    expect(budget(await rpc(t, request('tools/list'), { token: await token(other.slug, 'alice') }).expect(200))).toEqual({ limit: 600, remaining: 599 });
    // API keys of the tenant are not OAuth callers: their budget is the API-key one.
    expect(budget(await rpc(t, request('tools/list'), { token: await tenant.key(['scan']) }).expect(200)).limit).toBe(2000);
    // Raised above the 600 default.
    await patchTenant(admin, { oauth_mcp_rate_limit_per_minute: 900 }).expect(200);
    clock.advance(MINUTE);
    expect(budget(await rpc(t, request('tools/list'), { token: alice }).expect(200))).toEqual({ limit: 900, remaining: 899 });
  });

  it('bad values are 422 naming the field, and change nothing', async () => {
    const { admin } = await adminOf();
    await patchTenant(admin, { rate_limit_per_minute: 40 }).expect(200);
    const cases: [unknown, (string | number)[]][] = [
      [{ rate_limit_per_minute: 0 }, ['body', 'rate_limit_per_minute']],
      [{ rate_limit_per_minute: -5 }, ['body', 'rate_limit_per_minute']],
      [{ rate_limit_per_minute: 2.5 }, ['body', 'rate_limit_per_minute']],
      [{ rate_limit_per_minute: '5000' }, ['body', 'rate_limit_per_minute']],
      [{ rate_limit_per_minute: 10_000_001 }, ['body', 'rate_limit_per_minute']],
      [{ oauth_mcp_rate_limit_per_minute: true }, ['body', 'oauth_mcp_rate_limit_per_minute']],
      [{ rate_limit_per_minute: 10, oauth_mcp_rate_limit_per_minute: 0 }, ['body', 'oauth_mcp_rate_limit_per_minute']],
      // Nothing to change (a misspelt field is stripped, so it would otherwise be a silent no-op).
      [{}, ['body']],
      [{ rate_limit: 5000 }, ['body']],
    ];
    for (const [body, loc] of cases) {
      const res = await patchTenant(admin, body).expect(422);
      expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
    }
    expect((await getTenant(admin).expect(200)).body).toMatchObject({ rate_limit_per_minute: 40, oauth_mcp_rate_limit_per_minute: null });
  });

  it('needs the admin scope', async () => {
    const { tenant } = await adminOf();
    const reader = await tenant.key(['inventory:read', 'scan', 'inventory:write']);
    await getTenant(reader).expect(403);
    await patchTenant(reader, { rate_limit_per_minute: 1 }).expect(403);
    await t.http().get('/api/admin/tenant').expect(401);
  });

  describe('import field tenant_settings', () => {
    const importDoc = (admin: string, body: unknown) =>
      t
        .http()
        .post('/api/internal/inventory/import')
        .set('Authorization', `Bearer ${admin}`)
        .send(body as object);

    it("round-trips: imported limits are the tenant's settings and the budgets charged", async () => {
      const { tenant, admin } = await adminOf();
      const key = await tenantKey(admin);
      expect(budget(await terms(key).expect(200)).limit).toBe(2000);
      const imported = await importDoc(admin, { tenant_settings: { rate_limit_per_minute: 4, oauth_mcp_rate_limit_per_minute: 5 } }).expect(200);
      expect(imported.body.counts.tenant_settings).toBe(1);
      expect((await getTenant(admin).expect(200)).body).toMatchObject({ rate_limit_per_minute: 4, oauth_mcp_rate_limit_per_minute: 5 });
      expect(budget(await terms(key).expect(200))).toEqual({ limit: 4, remaining: 2 });
      const alice = await issuer.token({ sub: 'alice', client_id: 'cursor', tenant: tenant.slug, scope: 'scan' }, audience);
      expect(budget(await rpc(t, initialize(), { token: alice }).expect(200))).toEqual({ limit: 5, remaining: 4 });

      // merge: a field left out is unchanged; replace: it goes back to the default.
      await importDoc(admin, { tenant_settings: { rate_limit_per_minute: 6 } }).expect(200);
      expect((await getTenant(admin).expect(200)).body).toMatchObject({ rate_limit_per_minute: 6, oauth_mcp_rate_limit_per_minute: 5 });
      await importDoc(admin, { mode: 'replace', tenant_settings: { oauth_mcp_rate_limit_per_minute: 7 } }).expect(200);
      expect((await getTenant(admin).expect(200)).body).toMatchObject({ rate_limit_per_minute: null, oauth_mcp_rate_limit_per_minute: 7 });
      // A document without the section leaves the settings alone.
      const none = await importDoc(admin, { mode: 'replace', services: [] }).expect(200);
      expect(none.body.counts.tenant_settings).toBe(0);
      expect((await getTenant(admin).expect(200)).body).toMatchObject({ rate_limit_per_minute: null, oauth_mcp_rate_limit_per_minute: 7 });
    });

    it('bad values are 422 at their location, and nothing is imported', async () => {
      const { admin } = await adminOf();
      const bad = await importDoc(admin, {
        services: [{ id: 1, name: 'svc' }],
        tenant_settings: { rate_limit_per_minute: 0, oauth_mcp_rate_limit_per_minute: 'lots' },
      }).expect(422);
      expect(bad.body.detail.map((i: { loc: unknown[] }) => i.loc)).toEqual(
        expect.arrayContaining([
          ['body', 'tenant_settings', 'rate_limit_per_minute'],
          ['body', 'tenant_settings', 'oauth_mcp_rate_limit_per_minute'],
        ]),
      );
      await importDoc(admin, { tenant_settings: 5 }).expect(422);
      expect((await getTenant(admin).expect(200)).body).toMatchObject({ rate_limit_per_minute: null, oauth_mcp_rate_limit_per_minute: null });
    });
  });

  /** A key of the admin's tenant with no limit of its own. */
  async function tenantKey(admin: string): Promise<string> {
    const created = await t
      .http()
      .post('/api/admin/api-keys')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: 'reader', scopes: ['inventory:read', 'scan'] })
      .expect(200);
    expect(created.body.rate_limit_per_minute).toBeNull();
    return created.body.token as string;
  }
});

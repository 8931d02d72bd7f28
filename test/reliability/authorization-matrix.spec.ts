import { randomUUID } from 'node:crypto';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import type { Scope } from '../../src/auth/principal';
import { pkg, resource, seedInventory, service } from '../factories/inventory.factory';
import { createTestApp, type TestApp, type TestTenant } from '../support/create-test-app';
import { snapshotTenant } from './reliability-support';

/**
 * The authorization matrix (docs/security.md): every operation of the OpenAPI document the app
 * serves × {no token, bad token, expired, revoked, wrong scope, another tenant's id}, asserting
 * 401/401/401/401/403/404. The expectation table below must name every documented operation: a
 * new route without a row fails the suite, so it cannot skip the matrix.
 */

type Need = Scope | 'any-key' | 'public';
interface Row {
  /** Scope the route needs ('any-key': any valid key; 'public': no credential). */
  need: Need;
  /** Where the route takes an id owned by a tenant (another tenant's id must answer 404). */
  owned?: 'path' | 'body';
  /** A body valid enough that only the id can make the request fail. */
  body?: (ids: Ids) => unknown;
  /** Content type for the probe requests (default JSON). */
  multipart?: boolean;
}
interface Ids {
  applicationId: number;
  serviceId: number;
  keyId: string;
}

const EXPECTED: Record<string, Row> = {
  'GET /health/live': { need: 'public' },
  'GET /health/ready': { need: 'public' },
  'POST /api/admin/api-keys': { need: 'admin', body: () => ({ name: 'matrix', scopes: ['scan'] }) },
  'GET /api/admin/api-keys': { need: 'admin' },
  'DELETE /api/admin/api-keys/{key_id}': { need: 'admin', owned: 'path' },
  'GET /api/admin/tenant': { need: 'admin' },
  // null restores the default: the probe changes nothing a later test reads.
  'PATCH /api/admin/tenant': { need: 'admin', body: () => ({ rate_limit_per_minute: null }) },
  'GET /api/cli/whoami': { need: 'any-key' },
  'GET /api/cli/config': { need: 'any-key' },
  'POST /api/cli/telemetry': { need: 'any-key', body: () => ({ event: 'scan_completed' }) },
  'GET /api/applications/_terms': { need: 'inventory:read' },
  'POST /api/applications/': { need: 'inventory:write', body: () => ({ name: `matrix-${randomUUID()}` }) },
  'PUT /api/applications/': {
    need: 'inventory:write',
    owned: 'body',
    body: (ids) => ({ id: ids.applicationId, name: `renamed-${randomUUID()}`, description: null, tier: null }),
  },
  'GET /api/applications': { need: 'inventory:read' },
  'POST /api/applications': { need: 'inventory:read', body: () => [] },
  'GET /api/applications/{application_id}': { need: 'inventory:read', owned: 'path' },
  'DELETE /api/applications/{application_id}': { need: 'inventory:write', owned: 'path' },
  'POST /api/applications/{application_id}/service': { need: 'inventory:write', owned: 'path', body: () => [] },
  'DELETE /api/applications/{application_id}/service/{service_id}': { need: 'inventory:write', owned: 'path' },
  'POST /api/applications/{application_id}/tier': { need: 'inventory:write', owned: 'path', body: () => ({ tier: 'TIER_2' }) },
  'POST /api/applications/{application_id}/owners/{owner_type}': { need: 'inventory:write', owned: 'path', body: () => [] },
  'POST /api/internal/inventory/import': { need: 'admin', body: () => ({}) },
  'GET /api/applications/{application_id}/resources': { need: 'inventory:read', owned: 'path' },
  'GET /api/applications/{application_id}/graph_resources': { need: 'inventory:read', owned: 'path' },
  'GET /api/applications/{application_id}/graph': { need: 'inventory:read', owned: 'path' },
  'PUT /api/applications/{application_id}/graph': { need: 'inventory:write', owned: 'path', body: () => [] },
  'GET /api/internal/application/integrations': { need: 'admin' },
  'GET /api/internal/application/features': { need: 'admin' },
  'POST /api/applications/{application_id}/sbom': { need: 'inventory:read', owned: 'path', body: () => ({ environment: null, coderoots: null }) },
  'POST /api/agent_files/scan': { need: 'scan', multipart: true },
};

/** A key that has every scope except what the route needs (admin implies all, so never admin). */
const WRONG_SCOPES: Record<Scope, Scope[]> = {
  admin: ['inventory:read', 'inventory:write', 'scan'],
  'inventory:read': ['scan'],
  'inventory:write': ['inventory:read', 'scan'],
  scan: ['inventory:read', 'inventory:write'],
};

interface Operation {
  key: string;
  method: string;
  template: string;
}

describe('authorization matrix (generated from /docs/openapi.json)', () => {
  let t: TestApp;
  let operations: Operation[];
  let a: TestTenant;
  let b: TestTenant;
  let idsA: Ids;
  let idsB: Ids;
  const tokens: Record<string, string> = {};

  async function seed(tenant: TestTenant): Promise<Ids> {
    await seedInventory(t, tenant, {
      services: [service(1), service(2)],
      resources: [resource('arn:aws:s3:::matrix', [1])],
      packages: [pkg(1, 'pkg:npm/left-pad@1.3.0')],
      applications: [{ name: 'matrix-app', service_ids: [1, 2] }],
    });
    const [app] = (await t.dataSource.query('SELECT id FROM applications WHERE tenant_id = $1', [tenant.id])) as { id: number }[];
    const created = await t.app.get(ApiKeysService).create({ tenantId: tenant.id, name: 'owned', scopes: ['scan'], expiresAt: null, rateLimitPerMinute: null });
    return { applicationId: app!.id, serviceId: 1, keyId: created.key.id };
  }

  beforeAll(async () => {
    t = await createTestApp();
    const doc = (await t.http().get('/docs/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const methods = new Set(['get', 'post', 'put', 'patch', 'delete']);
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => methods.has(m))
        .map((m) => {
          // Trailing-slash routes are documented as `x/` (strict routing; common/routing.ts).
          const template = path.replace(/\/{2,}/g, '/');
          return { key: `${m.toUpperCase()} ${template}`, method: m.toUpperCase(), template };
        }),
    );
    a = await t.tenant();
    b = await t.tenant();
    idsA = await seed(a);
    idsB = await seed(b);
    const keys = t.app.get(ApiKeysService);
    tokens.full = await a.key(['admin']);
    tokens.expired = await a.key(['admin'], { expiresAt: new Date(Date.now() - 60_000) });
    const revoked = await keys.create({ tenantId: a.id, name: 'revoked', scopes: ['admin'], expiresAt: null, rateLimitPerMinute: null });
    await keys.revoke(a.id, revoked.key.id);
    tokens.revoked = revoked.token;
    for (const [scope, wrong] of Object.entries(WRONG_SCOPES)) tokens[`wrong:${scope}`] = await a.key(wrong);
  });
  afterAll(() => t.close());

  function url(op: Operation, ids: Ids): string {
    return op.template
      .replace('{application_id}', String(ids.applicationId))
      .replace('{service_id}', String(ids.serviceId))
      .replace('{key_id}', ids.keyId)
      .replace('{owner_type}', 'owner');
  }

  async function call(op: Operation, row: Row, authorization: string | undefined, ids: Ids) {
    let req = t.http()[op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](url(op, ids));
    if (authorization !== undefined) req = req.set('Authorization', authorization);
    if (row.multipart) return req.attach('file', Buffer.from('# hello\n'), 'SKILL.md');
    const body = row.body?.(ids);
    return body === undefined ? req : req.send(body as object);
  }

  it('has an expectation row for every documented operation, and no row without one', () => {
    const documented = operations.map((o) => o.key).sort();
    expect(documented.length).toBeGreaterThanOrEqual(28);
    expect(documented.filter((k) => !(k in EXPECTED))).toEqual([]);
    expect(Object.keys(EXPECTED).filter((k) => !documented.includes(k))).toEqual([]);
  });

  it('answers 401 (with WWW-Authenticate) for no, bad, expired and revoked tokens on every protected operation', async () => {
    const credentials: [string, string | undefined][] = [
      ['no token', undefined],
      ['malformed header', `Basic ${tokens.full}`],
      ['unknown well-formed token', `Bearer bwk_${'A1b2C3d4'.repeat(5)}`],
      ['garbage token', 'Bearer not-a-key'],
      ['expired', `Bearer ${tokens.expired}`],
      ['revoked', `Bearer ${tokens.revoked}`],
    ];
    const outcomes: string[] = [];
    for (const op of operations) {
      const row = EXPECTED[op.key]!;
      for (const [name, header] of credentials) {
        const res = await call(op, row, header, idsA);
        if (row.need === 'public') {
          if (res.status === 401 || res.status === 403) outcomes.push(`${op.key} [${name}] public route answered ${res.status}`);
          continue;
        }
        if (res.status !== 401 || res.headers['www-authenticate'] !== 'Bearer') outcomes.push(`${op.key} [${name}] → ${res.status}`);
      }
    }
    expect(outcomes).toEqual([]);
  });

  it('answers 403 for a valid key without the required scope (and lets any valid key through where no scope is needed)', async () => {
    const outcomes: string[] = [];
    for (const op of operations) {
      const row = EXPECTED[op.key]!;
      if (row.need === 'public') continue;
      if (row.need === 'any-key') {
        const res = await call(op, row, `Bearer ${tokens['wrong:scan']}`, idsA);
        if (res.status === 401 || res.status === 403) outcomes.push(`${op.key} [any key] → ${res.status}`);
        continue;
      }
      const res = await call(op, row, `Bearer ${tokens[`wrong:${row.need}`]}`, idsA);
      if (res.status !== 403) outcomes.push(`${op.key} [without ${row.need}] → ${res.status}`);
    }
    expect(outcomes).toEqual([]);
  });

  it("answers 404 for another tenant's id, and leaves that tenant's data and keys untouched", async () => {
    const before = await snapshotTenant(t.dataSource, b.id);
    const outcomes: string[] = [];
    const owned = operations.filter((op) => EXPECTED[op.key]!.owned);
    expect(owned.length).toBeGreaterThanOrEqual(13);
    for (const op of owned) {
      const res = await call(op, EXPECTED[op.key]!, `Bearer ${tokens.full}`, idsB);
      if (res.status !== 404) outcomes.push(`${op.key} [tenant B's id] → ${res.status}`);
    }
    expect(outcomes).toEqual([]);
    expect(await snapshotTenant(t.dataSource, b.id)).toEqual(before);
    const bKeys = await t.app.get(ApiKeysService).list(b.id);
    expect(bKeys.find((k) => k.id === idsB.keyId)?.revokedAt).toBeNull();
  });

  it("the same requests with the tenant's own ids succeed (the 404s above are about ownership, not the request)", async () => {
    const outcomes: string[] = [];
    // Destructive operations last (deleting the application very last), so the others still find it.
    const rank = (op: Operation) => (op.method !== 'DELETE' ? 0 : op.template === '/api/applications/{application_id}' ? 2 : 1);
    const owned = operations.filter((op) => EXPECTED[op.key]!.owned).sort((x, y) => rank(x) - rank(y));
    for (const op of owned) {
      const res = await call(op, EXPECTED[op.key]!, `Bearer ${tokens.full}`, idsA);
      if (res.status !== 200) outcomes.push(`${op.key} [own id] → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    expect(outcomes).toEqual([]);
  });
});

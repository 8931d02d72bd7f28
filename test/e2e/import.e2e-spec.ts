import { generateDemoInventory } from '../../src/inventory-import/demo-inventory.generator';
import { InventoryReadService } from '../../src/inventory/inventory-read.service';
import { NotFoundError } from '../../src/common/errors';
import { InventoryImportService } from '../../src/inventory-import/inventory-import.service';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { clientFor, pkg, resource, service } from '../factories/inventory.factory';

type Client = Awaited<ReturnType<typeof clientFor>>;
const locs = (body: { detail: { loc: unknown[] }[] }) => body.detail.map((d) => d.loc);

describe('admin import, internal settings and demo data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { demo: true, features: ['sbom', 'agent_file_scan', 'mcp', 'sbom'] } });
  });
  afterAll(() => t.close());

  async function admin(): Promise<{ api: Client; tenantId: string }> {
    const tenant = await t.tenant();
    return { api: await clientFor(t, tenant, ['admin']), tenantId: tenant.id };
  }
  const count = async (table: string, tenantId: string) =>
    Number(((await t.dataSource.query(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = $1`, [tenantId])) as { n: string }[])[0]!.n);

  const DOC = {
    services: [service(1), service(2, { source_id: 9 }), service(3, { source_id: 9 })],
    code_roots: [{ id: 'acme/api:src', service_id: 1 }],
    resources: [resource('arn:one', [1]), resource('arn:two', [1, 2], { resource_type: 'aws_rds_instance', category: null })],
    relations: [{ source: 'service:1', target: 'resource:arn:two', relation: 'reads_from' }],
    packages: [
      pkg(1, 'pkg:npm/express@5.1.0', { coderoot_id: 'acme/api:src', hashes: [{ alg: 'SHA-256', content: 'a'.repeat(64) }], licenses: ['MIT'] }),
      pkg(1, 'pkg:npm/express@5.1.0', { environment: 'production' }),
    ],
    finding_counts: [{ service_id: 1, severity: 'HIGH', urgent: 1, plan: 2, defer: 3 }],
    applications: [
      { name: 'static-app', tier: 'TIER_2', service_ids: [1], owners: { owner: [{ login: 'jdoe', name: 'Jane' }] } },
      { name: 'dynamic-app', application_type: 'dynamic', source_id: 9 },
    ],
    integrations: { github: { enabled: true, orgs: ['b-org', 'a-org'], accounts: [] } },
  };

  it('needs the admin scope', async () => {
    await t.http().post('/api/internal/inventory/import').send({}).expect(401);
    const tenant = await t.tenant();
    const writer = await clientFor(t, tenant, ['inventory:read', 'inventory:write']);
    await writer.post('/api/internal/inventory/import').send({}).expect(403);
    await writer.get('/api/internal/application/integrations').expect(403);
    await writer.get('/api/internal/application/features').expect(403);
  });

  it('imports every section, returns counts, and is idempotent', async () => {
    const { api, tenantId } = await admin();
    const first = await api.post('/api/internal/inventory/import').send(DOC).expect(200);
    expect(first.body).toEqual({
      ok: true,
      mode: 'merge',
      counts: { services: 3, code_roots: 1, resources: 2, relations: 1, packages: 2, finding_counts: 1, applications: 2, integrations: 1, tenant_settings: 0 },
      deleted: { services: 0, code_roots: 0, resources: 0, relations: 0, packages: 0, finding_counts: 0, applications: 0, integrations: 0, tenant_settings: 0 },
    });
    const list = await api.get('/api/applications?order=name').expect(200);
    const [dynamic, stat] = list.body.items;
    expect(dynamic).toMatchObject({ name: 'dynamic-app', application_type: 'dynamic', services: [2, 3], resource_count: 1 });
    expect(stat).toMatchObject({
      name: 'static-app',
      tier: 'TIER_2',
      services: [1],
      resource_count: 2,
      severity: 'HIGH',
      urgent: 1,
      plan: 2,
      defer: 3,
      owners: { owner: [{ login: 'jdoe', name: 'Jane' }] },
    });
    const category = (await t.dataSource.query("SELECT category FROM resources WHERE tenant_id = $1 AND platform_id = 'arn:two'", [tenantId])) as {
      category: string;
    }[];
    expect(category[0]!.category).toBe('database');
    const before = (await api.get(`/api/applications/${stat.id}`)).body;
    await api.post('/api/internal/inventory/import').send(DOC).expect(200);
    expect((await api.get(`/api/applications/${stat.id}`)).body).toEqual(before);
    for (const table of ['inventory_services', 'resources', 'service_resources', 'package_observations', 'applications', 'application_services']) {
      expect(await count(table, tenantId)).toBe(
        { inventory_services: 3, resources: 2, service_resources: 3, package_observations: 2, applications: 2, application_services: 3 }[table],
      );
    }
  });

  it('merges by natural key, keeps fields an entry omits, and replace deletes what a present section omits', async () => {
    const { api, tenantId } = await admin();
    await api.post('/api/internal/inventory/import').send(DOC).expect(200);
    await api
      .post('/api/internal/inventory/import')
      .send({ services: [service(4)], applications: [{ name: 'STATIC-APP', description: 'renamed by import' }] })
      .expect(200);
    const app = (await api.post('/api/applications').send({ name: 'static-app' })).body.items[0];
    expect(app).toMatchObject({ name: 'STATIC-APP', description: 'renamed by import', tier: 'TIER_2', services: [1] });
    expect(await count('inventory_services', tenantId)).toBe(4);
    const replaced = await api
      .post('/api/internal/inventory/import')
      .send({ mode: 'replace', services: [service(1), service(2, { source_id: 9 })], resources: [resource('arn:one', [1])] })
      .expect(200);
    expect(replaced.body.deleted).toMatchObject({ services: 2, resources: 1, applications: 0 });
    expect(await count('inventory_services', tenantId)).toBe(2);
    const dyn = (await api.post('/api/applications').send({ name: 'dynamic-app' })).body.items[0];
    expect(dyn.services).toEqual([2]);
    expect(await count('applications', tenantId)).toBe(2);
  });

  it('rejects a bad document with 422 naming every bad entry, and changes nothing', async () => {
    const { api, tenantId } = await admin();
    await api.post('/api/internal/inventory/import').send(DOC).expect(200);
    const shape = await api
      .post('/api/internal/inventory/import')
      .send({
        mode: 'upsert',
        services: [{ id: 'x', name: 'bad' }, { name: 'no id' }],
        packages: [{ service_id: 1, purl: 'express', name: 'e' }],
        finding_counts: [{ service_id: 1, severity: 'SEVERE' }],
      })
      .expect(422);
    expect(locs(shape.body)).toEqual(
      expect.arrayContaining([
        ['body', 'mode'],
        ['body', 'services', 0, 'id'],
        ['body', 'services', 1, 'id'],
        ['body', 'packages', 0, 'purl'],
        ['body', 'finding_counts', 0, 'severity'],
      ]),
    );
    const refs = await api
      .post('/api/internal/inventory/import')
      .send({
        services: [service(50), service(50)],
        resources: [resource('arn:new', [1, 404])],
        packages: [pkg(2, 'pkg:npm/a@1.0.0', { coderoot_id: 'acme/api:src' }), pkg(1, 'pkg:npm/b@1.0.0', { coderoot_id: 'nope/x:y' })],
        relations: [{ source: 'service:1', target: 'resource:missing', relation: 'uses' }],
        applications: [
          { name: 'New-One', service_ids: [1, 405] },
          { name: 'new-one' },
          { name: 'dyn', application_type: 'dynamic', source_id: 3, service_ids: [1] },
        ],
      })
      .expect(422);
    expect(locs(refs.body)).toEqual(
      expect.arrayContaining([
        ['body', 'services', 1, 'id'],
        ['body', 'resources', 0, 'service_ids', 1],
        ['body', 'packages', 0, 'coderoot_id'],
        ['body', 'packages', 1, 'coderoot_id'],
        ['body', 'relations', 0, 'target'],
        ['body', 'applications', 0, 'service_ids', 1],
        ['body', 'applications', 1, 'name'],
        ['body', 'applications', 2, 'service_ids'],
      ]),
    );
    expect(await count('inventory_services', tenantId)).toBe(3);
    expect(await count('resources', tenantId)).toBe(2);
    expect(await count('applications', tenantId)).toBe(2);
    expect(locs((await api.post('/api/internal/inventory/import').send([1]).expect(422)).body)).toEqual([['body']]);
    // replace mode: references must be in the document, since the stored rows are about to go.
    const replace = await api
      .post('/api/internal/inventory/import')
      .send({ mode: 'replace', services: [service(2)], finding_counts: [{ service_id: 1, severity: 'LOW' }] })
      .expect(422);
    expect(locs(replace.body)).toEqual([['body', 'finding_counts', 0, 'service_id']]);
  });

  it('serves the SBOM read API: application with services and code roots, observations by environment and code root', async () => {
    const { api, tenantId } = await admin();
    await api.post('/api/internal/inventory/import').send(DOC).expect(200);
    const id = (await api.post('/api/applications').send({ name: 'static-app' })).body.items[0].id as number;
    const read = t.app.get(InventoryReadService);
    const app = await read.getApplicationForSbom(tenantId, id);
    expect(app).toMatchObject({ id, name: 'static-app', tier: 'TIER_2', businessImpact: 'HIGH', applicationType: 'static' });
    expect(app.services).toEqual([
      { id: 1, name: 'svc-1', sourceType: 'github', codeRoots: [{ id: 'acme/api:src', repository: 'acme/api', path: 'src', defaultBranch: null }] },
    ]);
    await expect(read.getApplicationForSbom((await t.tenant()).id, id)).rejects.toBeInstanceOf(NotFoundError);
    const all = await read.findPackageObservations(tenantId, [1], null, null);
    expect(all.map((o) => [o.environment, o.coderootId])).toEqual([
      ['production', null],
      [null, 'acme/api:src'],
    ]);
    expect(all[1]).toMatchObject({
      purl: 'pkg:npm/express@5.1.0',
      name: 'express',
      version: '5.1.0',
      type: 'npm',
      direct: true,
      hashes: [{ alg: 'SHA-256', content: 'a'.repeat(64) }],
      licenses: ['MIT'],
      dependsOn: [],
    });
    expect((await read.findPackageObservations(tenantId, [1], 'production', null)).map((o) => o.environment)).toEqual(['production']);
    expect((await read.findPackageObservations(tenantId, [1], null, ['acme/api:src'])).map((o) => o.coderootId)).toEqual(['acme/api:src']);
    expect(await read.findPackageObservations(tenantId, [1], null, [])).toHaveLength(2);
    expect(await read.findPackageObservations(tenantId, [2], null, null)).toEqual([]);
    expect(await read.findPackageObservations((await t.tenant()).id, [1], null, null)).toEqual([]);
  });

  it('serialises concurrent imports of one tenant so neither sees a half-written state', async () => {
    const { api, tenantId } = await admin();
    const docA = { mode: 'replace', services: [service(1), service(2)], applications: [{ name: 'race', service_ids: [1, 2] }] };
    const docB = { mode: 'replace', services: [service(3), service(4)], applications: [{ name: 'race', service_ids: [3, 4] }] };
    const results = await Promise.all([api.post('/api/internal/inventory/import').send(docA), api.post('/api/internal/inventory/import').send(docB)]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const services = ((await t.dataSource.query('SELECT id FROM inventory_services WHERE tenant_id = $1 ORDER BY id', [tenantId])) as { id: number }[]).map(
      (r) => r.id,
    );
    expect([
      [1, 2],
      [3, 4],
    ]).toContainEqual(services);
    const app = (await api.post('/api/applications').send({ name: 'race' })).body.items[0];
    expect(app.services).toEqual(services);
  });

  it('reports integrations (both keys always) and sorted features', async () => {
    const { api } = await admin();
    const empty = await api.get('/api/internal/application/integrations').expect(200);
    expect(empty.body).toEqual({ github: { enabled: false, orgs: [], accounts: [] }, aws: { enabled: false, orgs: [], accounts: [] } });
    await api.post('/api/internal/inventory/import').send({ integrations: DOC.integrations }).expect(200);
    const after = await api.get('/api/internal/application/integrations').expect(200);
    expect(after.body).toEqual({ github: { enabled: true, orgs: ['a-org', 'b-org'], accounts: [] }, aws: { enabled: false, orgs: [], accounts: [] } });
    const features = await api.get('/api/internal/application/features').expect(200);
    expect(features.body).toEqual(['agent_file_scan', 'mcp', 'sbom']);
  });

  it('loaded the demo inventory into the default tenant at start-up (--demo)', async () => {
    const tenant = await t.tenant('default');
    const api = await clientFor(t, tenant, ['inventory:read']);
    const list = await api.get('/api/applications?limit=100').expect(200);
    expect(list.body.total).toBeGreaterThanOrEqual(40);
    expect(list.body.items.map((a: { name: string }) => a.name)).toContain('payments');
    const payments = list.body.items.find((a: { name: string }) => a.name === 'payments');
    expect(payments.service_count).toBeGreaterThan(3);
    expect(payments.resource_count).toBeGreaterThan(10);
    // Already populated: a second load is skipped and changes nothing.
    expect(await t.app.get(InventoryImportService).importIfEmpty('default', generateDemoInventory())).toBeNull();
  });

  it('generates the same demo document for the same seed, a populated one, and a valid one', async () => {
    const a = generateDemoInventory();
    expect(JSON.stringify(generateDemoInventory())).toBe(JSON.stringify(a));
    expect(JSON.stringify(generateDemoInventory(7))).not.toBe(JSON.stringify(a));
    expect(a.applications!.length).toBeGreaterThanOrEqual(24);
    expect(a.services!.length).toBeGreaterThanOrEqual(200);
    expect(a.resources!.length).toBeGreaterThanOrEqual(2000);
    expect(a.packages!.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(a.resources!.map((r) => r.provider)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(a.resources!.map((r) => r.environment)).size).toBeGreaterThanOrEqual(4);
  });
});

import { InventoryReadService } from '../../src/inventory/inventory-read.service';
import { validateCycloneDx16Json } from '../../src/sbom/application-bom.serializer';
import { createTestApp, type TestApp } from '../support/create-test-app';

/**
 * POST /api/applications/{application_id}/sbom over HTTP, on the real app and database. The inventory
 * is seeded through the admin import and the public create endpoint, as a client would.
 */
describe('SBOM endpoint (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let appId: number;
  let otherTenantAppId: number;

  const sha = (n: number) => n.toString(16).padStart(2, '0').repeat(32);
  const pkg = (service_id: number, purl: string, extra: Record<string, unknown> = {}) => ({
    service_id,
    purl,
    name: purl.replace(/^pkg:[^/]+\/(?:.*\/)?([^@/]+)@.*$/, '$1'),
    coderoot_id: null,
    environment: null,
    ...extra,
  });

  const importDoc = {
    services: [
      { id: 101, name: 'checkout-api', source_type: 'github' },
      { id: 102, name: 'checkout-worker', source_type: 'aws' },
      { id: 103, name: 'not-a-member' },
    ],
    code_roots: [
      { id: 'acme/checkout:api', service_id: 101, repository: 'acme/checkout', path: 'api' },
      { id: 'acme/checkout:worker', service_id: 102, repository: 'acme/checkout', path: 'worker' },
      { id: 'acme/other:svc', service_id: 103, repository: 'acme/other', path: 'svc' },
    ],
    packages: [
      // express: in both services' source and in production; required in one, optional in the other.
      pkg(101, 'pkg:npm/express@4.19.2', {
        coderoot_id: 'acme/checkout:api',
        scope: 'required',
        licenses: ['MIT'],
        hashes: [{ alg: 'SHA-256', content: sha(1) }],
        depends_on: ['pkg:npm/qs@6.11.0', 'pkg:npm/debug@2.6.9'],
      }),
      pkg(101, 'pkg:npm/express@4.19.2', { coderoot_id: 'acme/checkout:api', environment: 'production', scope: 'required', depends_on: ['pkg:npm/qs@6.11.0'] }),
      pkg(102, 'pkg:npm/Express@4.19.2', { coderoot_id: 'acme/checkout:worker', scope: 'optional', licenses: ['mit'] }),
      pkg(101, 'pkg:npm/qs@6.11.0', { coderoot_id: 'acme/checkout:api', direct: false, licenses: ['BSD-3-Clause'] }),
      pkg(101, 'pkg:npm/qs@6.11.0', { coderoot_id: 'acme/checkout:api', environment: 'production', direct: false }),
      pkg(101, 'pkg:npm/debug@2.6.9', { coderoot_id: 'acme/checkout:api', direct: false, scope: 'excluded' }),
      pkg(102, 'pkg:pypi/requests@2.32.0', { coderoot_id: 'acme/checkout:worker', environment: 'staging', licenses: ['Apache-2.0'] }),
      pkg(102, 'pkg:oci/checkout-worker@sha256%3A' + 'ab'.repeat(32), { environment: 'production' }),
      pkg(103, 'pkg:npm/left-pad@1.3.0', { coderoot_id: 'acme/other:svc', environment: 'production' }),
    ],
  };

  const sbom = (id: number | string, body: unknown, token = reader) =>
    t
      .http()
      .post(`/api/applications/${id}/sbom`)
      .set('Authorization', `Bearer ${token}`)
      .send(body as object);

  /** A 200 answer whose body passes the strict CycloneDX 1.6 schema. */
  const validSbom = async (id: number, body: unknown, accept?: string) => {
    const req = t.http().post(`/api/applications/${id}/sbom`).set('Authorization', `Bearer ${reader}`);
    if (accept) req.set('Accept', accept);
    const res = await req.send(body as object);
    expect(res.status).toBe(200);
    expect(await validateCycloneDx16Json(res.text)).toBeNull();
    return { res, doc: JSON.parse(res.text) as Record<string, any> };
  };
  const purls = (doc: Record<string, any>) => doc.components.filter((c: any) => c.purl).map((c: any) => c.purl as string);

  beforeAll(async () => {
    t = await createTestApp();
    const tenant = await t.tenant();
    admin = await tenant.key(['admin']);
    reader = await tenant.key(['inventory:read']);
    const imported = await t.http().post('/api/internal/inventory/import').set('Authorization', `Bearer ${admin}`).send(importDoc);
    expect(imported.status).toBe(200);
    const created = await t
      .http()
      .post('/api/applications/')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: 'Checkout', description: 'Takes the money', tier: 'TIER_1', service_ids: [101, 102] });
    expect(created.status).toBe(200);
    appId = created.body.id;

    const other = await t.tenant();
    const otherAdmin = await other.key(['admin']);
    const otherApp = await t.http().post('/api/applications/').set('Authorization', `Bearer ${otherAdmin}`).send({ name: 'Theirs' });
    otherTenantAppId = otherApp.body.id;
  });
  afterAll(() => t.close());

  it('everything: services as application components, packages deduplicated by canonical purl, valid 1.6', async () => {
    const { res, doc } = await validSbom(appId, { environment: null, coderoots: null });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(doc).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1 });
    expect(doc.serialNumber).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(doc.metadata.component).toMatchObject({ type: 'application', name: 'Checkout', 'bom-ref': `application:${appId}` });
    expect(doc.metadata.component.properties).toEqual(
      expect.arrayContaining([
        { name: 'bulwark:application:tier', value: 'TIER_1' },
        { name: 'bulwark:application:business_impact', value: 'HIGH' },
        { name: 'bulwark:application:type', value: 'static' },
      ]),
    );
    expect(doc.metadata.tools.components[0]).toMatchObject({ type: 'application', name: 'bulwark' });
    expect(doc.components.filter((c: any) => c['bom-ref'].startsWith('service:')).map((c: any) => c.name)).toEqual(['checkout-api', 'checkout-worker']);
    expect(purls(doc)).toEqual([
      'pkg:npm/debug@2.6.9',
      'pkg:npm/express@4.19.2',
      'pkg:npm/qs@6.11.0',
      `pkg:oci/checkout-worker@sha256:${'ab'.repeat(32)}`,
      'pkg:pypi/requests@2.32.0',
    ]);
    const express = doc.components.find((c: any) => c.purl === 'pkg:npm/express@4.19.2');
    expect(express).toMatchObject({ 'bom-ref': 'pkg:npm/express@4.19.2', version: '4.19.2', scope: 'required', licenses: [{ license: { id: 'MIT' } }] });
    expect(express.hashes).toEqual([{ alg: 'SHA-256', content: sha(1) }]);
    const deps = Object.fromEntries(doc.dependencies.map((d: any) => [d.ref, d.dependsOn ?? []]));
    expect(deps['pkg:npm/express@4.19.2']).toEqual(['pkg:npm/debug@2.6.9', 'pkg:npm/qs@6.11.0']);
    expect(deps[`application:${appId}`]).toEqual(['service:101', 'service:102']);
    expect(deps['service:101']).toEqual(['pkg:npm/express@4.19.2']);
    expect(doc.compositions[0].aggregate).toBe('complete');
  });

  it('environment: only packages seen deployed there; the SQL is asked for that environment only', async () => {
    const spy = jest.spyOn(t.app.get(InventoryReadService), 'findPackageObservations');
    const { doc } = await validSbom(appId, { environment: 'production', coderoots: null });
    expect(spy).toHaveBeenCalledWith(expect.any(String), [101, 102], 'production', null);
    spy.mockRestore();
    expect(purls(doc)).toEqual(['pkg:npm/express@4.19.2', 'pkg:npm/qs@6.11.0', `pkg:oci/checkout-worker@sha256:${'ab'.repeat(32)}`]);
    const deps = Object.fromEntries(doc.dependencies.map((d: any) => [d.ref, d.dependsOn ?? []]));
    // debug is not deployed to production: the edge to it is dropped.
    expect(deps['pkg:npm/express@4.19.2']).toEqual(['pkg:npm/qs@6.11.0']);
    expect(doc.compositions[0].aggregate).toBe('incomplete');
    expect(doc.metadata.properties).toEqual(expect.arrayContaining([{ name: 'bulwark:selection:environment', value: 'production' }]));
  });

  it('coderoots: only observations of the selected roots ([] means all)', async () => {
    const spy = jest.spyOn(t.app.get(InventoryReadService), 'findPackageObservations');
    const { doc } = await validSbom(appId, { environment: null, coderoots: ['acme/checkout:worker'] });
    expect(spy).toHaveBeenCalledWith(expect.any(String), [101, 102], null, ['acme/checkout:worker']);
    spy.mockRestore();
    expect(purls(doc)).toEqual(['pkg:npm/express@4.19.2', 'pkg:pypi/requests@2.32.0']);
    expect(doc.components.find((c: any) => c.purl === 'pkg:npm/express@4.19.2').scope).toBe('optional');
    expect(doc.compositions[0].aggregate).toBe('incomplete');

    const all = await validSbom(appId, { environment: null, coderoots: [] });
    expect(purls(all.doc)).toHaveLength(5);
    expect(all.doc.compositions[0].aggregate).toBe('complete');
  });

  it('nothing selected: 200 with the services and no package components', async () => {
    const { doc } = await validSbom(appId, { environment: 'sandbox', coderoots: null });
    expect(purls(doc)).toEqual([]);
    expect(doc.components.map((c: any) => c['bom-ref'])).toEqual(['service:101', 'service:102']);
  });

  it('honours Accept: application/vnd.cyclonedx+json', async () => {
    const { res } = await validSbom(appId, { environment: null, coderoots: null }, 'application/vnd.cyclonedx+json');
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.cyclonedx\+json; version=1\.6/);
    const plain = await validSbom(appId, { environment: null, coderoots: null }, 'application/json');
    expect(plain.res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('is deterministic apart from serialNumber and timestamp', async () => {
    const body = { environment: null, coderoots: null };
    const a = (await validSbom(appId, body)).doc;
    const b = (await validSbom(appId, body)).doc;
    expect(a.serialNumber).not.toBe(b.serialNumber);
    for (const d of [a, b]) {
      delete d.serialNumber;
      delete d.metadata.timestamp;
    }
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('422 when a key is absent, a value is invalid, or a code root is not the application’s', async () => {
    const missingEnv = await sbom(appId, { coderoots: null });
    expect(missingEnv.status).toBe(422);
    expect(missingEnv.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'environment'], type: 'value_error.missing' })]);

    const missingBoth = await sbom(appId, {});
    expect(missingBoth.status).toBe(422);
    expect(missingBoth.body.detail.map((i: any) => i.loc)).toEqual(
      expect.arrayContaining([
        ['body', 'environment'],
        ['body', 'coderoots'],
      ]),
    );

    const badEnv = await sbom(appId, { environment: 'prod', coderoots: null });
    expect(badEnv.status).toBe(422);
    expect(badEnv.body.detail[0].loc).toEqual(['body', 'environment']);

    const badRoots = await sbom(appId, { environment: null, coderoots: 'acme/checkout:api' });
    expect(badRoots.status).toBe(422);
    expect(badRoots.body.detail[0].loc).toEqual(['body', 'coderoots']);

    const unknown = await sbom(appId, { environment: null, coderoots: ['acme/checkout:api', 'acme/other:svc', 'nope/nope:x'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'coderoots', 1], msg: expect.stringContaining('acme/other:svc') }),
      expect.objectContaining({ loc: ['body', 'coderoots', 2], msg: expect.stringContaining('nope/nope:x') }),
    ]);

    const notObject = await sbom(appId, [null, null]);
    expect(notObject.status).toBe(422);

    const badId = await sbom('abc', { environment: null, coderoots: null });
    expect(badId.status).toBe(422);
    expect(badId.body.detail[0].loc).toEqual(['path', 'application_id']);
  });

  it('404 for an unknown application and for another tenant’s', async () => {
    const body = { environment: null, coderoots: null };
    expect((await sbom(2_000_000_000, body)).status).toBe(404);
    const foreign = await sbom(otherTenantAppId, body);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: expect.any(String) });
  });

  it('needs the inventory:read scope', async () => {
    const tenant = await t.tenant();
    const scanOnly = await tenant.key(['scan']);
    expect((await sbom(appId, { environment: null, coderoots: null }, scanOnly)).status).toBe(403);
    const unauthenticated = await t.http().post(`/api/applications/${appId}/sbom`).send({ environment: null, coderoots: null });
    expect(unauthenticated.status).toBe(401);
  });
});

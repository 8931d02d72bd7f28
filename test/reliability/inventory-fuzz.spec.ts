import fc from 'fast-check';
import { OWNER_TYPES, TIERS } from '../../src/applications/application-enums';
import { ENVIRONMENTS } from '../../src/inventory/inventory-enums';
import { pkg, resource, seedInventory, service } from '../factories/inventory.factory';
import { createTestApp, type TestApp, type TestTenant } from '../support/create-test-app';
import { encode, hostileText } from './fuzz-arbitraries';
import { fuzzRuns, fuzzSeed, snapshotTenant } from './reliability-support';

/**
 * Fuzzing every JSON body, query and path parser of the inventory, and the import document
 * (docs/security.md). Bodies are random JSON or near-valid templates with fields replaced by
 * hostile values (int4 overflow, floats, -0, huge strings, __proto__ keys, hostile Unicode).
 * Invariants: never a 5xx, never a hang (per-request timeout), and a rejected request leaves the
 * tenant's stored rows exactly as they were (snapshot of every tenant table before and after).
 */
const RUNS = fuzzRuns(40);
const TIME_BUDGET_MS = process.env.FUZZ_RUNS ? 30 * 60_000 : 5_000;
const REQUEST_TIMEOUT_MS = 20_000;

const edgeNumber = fc.constantFrom(0, -1, 1.5, -0, 2_147_483_647, 2_147_483_648, -2_147_483_649, Number.MAX_SAFE_INTEGER + 2, 1e308, Number.MIN_VALUE);
const intish = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 4 }) },
  { weight: 2, arbitrary: edgeNumber },
  { weight: 1, arbitrary: fc.integer() },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>('1', null, true, [], {}, '١'),
  },
);
const hostileKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', '', ' id', 'ID'), hostileText(8));
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  edgeNumber,
  hostileText(40),
  fc.constantFrom('x'.repeat(300), 'x'.repeat(20_000)),
  fc.dictionary(hostileKey, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }),
);
const text = fc.oneof(fc.constantFrom('payments', 'TIER_2', 'production', 'arn:aws:s3:::fz-1', 'owner', ''), hostileText(30), fc.constantFrom('x'.repeat(256)));

/** Mutates a valid template: each key kept, dropped or replaced by a hostile value; sometimes extra keys. */
function nearValid(template: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const fields = Object.fromEntries(
    Object.entries(template).map(([k, valid]) => [
      k,
      fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: anyJson }, { weight: 1, arbitrary: fc.constant(undefined) }),
    ]),
  );
  return fc.tuple(fc.record(fields), fc.dictionary(hostileKey, anyJson, { maxKeys: 2 })).map(([record, extra]) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) if (v !== undefined) out[k] = v;
    for (const [k, v] of Object.entries(extra)) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    return out;
  });
}

const idArray = fc.oneof(fc.array(intish, { maxLength: 6 }), anyJson);
const owners = fc.oneof(fc.array(nearValid({ login: text, name: text }), { maxLength: 4 }), anyJson);
const filterBody = fc.oneof(
  fc.constant([]),
  fc.array(
    nearValid({
      field: fc.constantFrom(
        'tier',
        'business_impact',
        'severity',
        'application_type',
        'name',
        'service_id',
        'owner_login',
        'owner_type',
        'urgent',
        'service_count',
        'nope',
      ),
      op: fc.constantFrom('eq', 'neq', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'like'),
      value: fc.oneof(text, intish, fc.array(fc.oneof(text, intish), { maxLength: 4 })),
    }),
    { maxLength: 4 },
  ),
  nearValid({ tier: fc.oneof(fc.constantFrom(...TIERS), fc.array(fc.constantFrom(...TIERS))), severity: text, service_id: intish }),
  anyJson,
);

interface Probe {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  body?: unknown;
  query?: string;
}

describe('inventory and import fuzzing', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let importTenant: TestTenant;
  let auth: string;
  let appId: number;
  const statuses: Record<string, number> = {};
  let cases = 0;
  let heapBefore = 0;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.tenant();
    importTenant = await t.tenant();
    for (const tt of [tenant, importTenant]) {
      await seedInventory(t, tt, {
        services: [service(1), service(2), service(3)],
        resources: [resource('arn:aws:s3:::fz-1', [1]), resource('arn:aws:s3:::fz-2', [2])],
        packages: [pkg(1, 'pkg:npm/left-pad@1.3.0')],
        applications: [{ name: 'fuzz-app', service_ids: [1, 2] }],
      });
    }
    appId = ((await t.dataSource.query('SELECT id FROM applications WHERE tenant_id = $1', [tenant.id])) as { id: number }[])[0]!.id;
    auth = `Bearer ${await tenant.key(['admin'], { rateLimitPerMinute: 1_000_000 })}`;
    heapBefore = process.memoryUsage().heapUsed;
  });
  afterAll(async () => {
    process.stdout.write(`inventory fuzz: ${cases} cases, statuses ${JSON.stringify(statuses)}\n`);
    await t.close();
  });

  async function send(p: Probe, token = auth): Promise<{ status: number; text: string }> {
    const http = t.http();
    let req = http[p.method](p.query === undefined ? p.path : `${p.path}?${p.query}`)
      .set('Authorization', token)
      .timeout(REQUEST_TIMEOUT_MS);
    if (p.body !== undefined) req = req.set('Content-Type', 'application/json').send(JSON.stringify(p.body));
    const res = await req;
    return { status: res.status, text: res.text };
  }

  /** The invariant: no 5xx; a refusal changes nothing the tenant has stored. */
  async function check(p: Probe, owner: TestTenant = tenant, token?: string): Promise<void> {
    cases++;
    const before = await snapshotTenant(t.dataSource, owner.id);
    const res = await send(p, token);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (res.status >= 500) throw new Error(`${p.method.toUpperCase()} ${p.path}${p.query ? `?${p.query}` : ''} → ${res.status}: ${res.text.slice(0, 300)}`);
    if (!/^\{"detail":/.test(res.text) && res.status >= 400) throw new Error(`${res.status} without a {"detail"} body: ${res.text.slice(0, 200)}`);
    if (res.status >= 400) {
      const after = await snapshotTenant(t.dataSource, owner.id);
      expect(after).toEqual(before);
    }
  }

  const run = <T>(property: fc.IAsyncProperty<T>): Promise<void> =>
    fc.assert(property, { numRuns: RUNS, seed: fuzzSeed(), interruptAfterTimeLimit: TIME_BUDGET_MS, markInterruptAsFailure: false, endOnFailure: true });

  it('JSON bodies of every inventory write and list operation', () => {
    const base = () => `/api/applications/${appId}`;
    const probes: fc.Arbitrary<Probe> = fc.oneof(
      nearValid({
        name: text,
        description: fc.oneof(text, fc.constant(null)),
        tier: fc.oneof(fc.constantFrom(...TIERS), text),
        application_type: fc.constantFrom('static', 'dynamic', 'x'),
        owner: fc.oneof(nearValid({ login: text, name: text }), anyJson),
        source_id: intish,
        meta: anyJson,
        service_ids: idArray,
      }).map((body) => ({ method: 'post' as const, path: '/api/applications/', body })),
      nearValid({
        id: fc.oneof(fc.constant(appId), intish),
        name: text,
        description: fc.oneof(text, fc.constant(null)),
        tier: fc.oneof(fc.constantFrom(...TIERS), fc.constant(null), text),
        service_ids: idArray,
      }).map((body) => ({ method: 'put' as const, path: '/api/applications/', body })),
      fc.tuple(fc.constantFrom<'get' | 'post'>('get', 'post'), filterBody).map(([method, body]) => ({ method, path: '/api/applications', body })),
      idArray.map((body) => ({ method: 'post' as const, path: `${base()}/service`, body })),
      nearValid({ tier: fc.oneof(fc.constantFrom(...TIERS), text, intish) }).map((body) => ({ method: 'post' as const, path: `${base()}/tier`, body })),
      fc
        .tuple(fc.oneof(fc.constantFrom(...OWNER_TYPES), text), owners)
        .map(([type, body]) => ({ method: 'post' as const, path: `${base()}/owners/${encode(type)}`, body })),
      fc
        .oneof(fc.array(fc.oneof(fc.constantFrom('arn:aws:s3:::fz-1', 'arn:aws:s3:::fz-2'), text, intish), { maxLength: 6 }), anyJson)
        .map((body) => ({ method: 'put' as const, path: `${base()}/graph`, body })),
      nearValid({
        environment: fc.oneof(fc.constantFrom(...ENVIRONMENTS), fc.constant(null), text),
        coderoots: fc.oneof(fc.constant(null), fc.array(text, { maxLength: 3 }), anyJson),
      }).map((body) => ({ method: 'post' as const, path: `${base()}/sbom`, body })),
      nearValid({ event: fc.constantFrom('scan_completed', 'x'), properties: anyJson }).map((body) => ({
        method: 'post' as const,
        path: '/api/cli/telemetry',
        body,
      })),
    );
    return run(fc.asyncProperty(probes, (p) => check(p)));
  });

  it('query strings of the list operations and graph resources', () => {
    const value = fc.oneof(
      text.map((s) => encode(s)),
      fc.constantFrom(
        '%',
        '%E0%A4%A',
        '%00',
        '%ZZ',
        '-1',
        '1e3',
        '2147483648',
        '99999999999999999999',
        '0x10',
        'NaN',
        '',
        '[]',
        '-name',
        '+id,-tier',
        'name,-id',
      ),
    );
    const key = fc.oneof(
      fc.constantFrom('page', 'limit', 'order', 'orders', 'orders[]', 'direction', 'search', 'category', 'page[x]', 'limit[]', '__proto__[x]'),
      hostileText(5).map(encode),
    );
    const query = fc.array(fc.tuple(key, value), { maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
    const path = fc.constantFrom('/api/applications', `/api/applications/{id}/graph_resources`);
    return run(fc.asyncProperty(path, query, (p, q) => check({ method: 'get', path: p.replace('{id}', String(appId)), query: q })));
  });

  it('path parameters (ids, service ids, owner types)', () => {
    const segment = fc.oneof(
      intish.map((v) => encode(String(v))),
      text.map(encode),
      fc.constantFrom('%', '%2e%2e', '..', '%2F', '0', '00001', '-0', '1.0', '2147483648', '_terms', 'null', '%00'),
    );
    const templates = fc.constantFrom(
      ['get', '/api/applications/:a'],
      ['delete', '/api/applications/:a'],
      ['get', '/api/applications/:a/graph'],
      ['get', '/api/applications/:a/resources'],
      ['delete', '/api/applications/:a/service/:b'],
      ['post', '/api/applications/:a/owners/:b'],
      ['delete', '/api/admin/api-keys/:a'],
    ) as fc.Arbitrary<[Probe['method'], string]>;
    return run(
      fc.asyncProperty(templates, segment, segment, ([method, tpl], a, b) =>
        check({ method, path: tpl.replace(':a', a).replace(':b', b), body: method === 'post' ? [] : undefined }),
      ),
    );
  });

  it('raw bytes sent as a JSON body', () =>
    run(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          hostileText(60),
          fc.constantFrom('{', '[1,', '{"a":1}}', '\ufeff{}', '{"__proto__":{"x":1}}', 'null', '"x"', '1e999'),
        ),
        fc.constantFrom('/api/applications/', '/api/applications', '/api/internal/inventory/import'),
        async (raw, path) => {
          cases++;
          const before = await snapshotTenant(t.dataSource, tenant.id);
          const res = await t.http().post(path).set('Authorization', auth).set('Content-Type', 'application/json').timeout(REQUEST_TIMEOUT_MS).send(raw);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(await snapshotTenant(t.dataSource, tenant.id)).toEqual(before);
        },
      ),
    ));

  it('the import document', async () => {
    const importToken = `Bearer ${await importTenant.key(['admin'], { rateLimitPerMinute: 1_000_000 })}`;
    const node = fc.oneof(
      intish.map((v) => `service:${String(v)}`),
      fc.constantFrom('resource:arn:aws:s3:::fz-1', 'resource:nope', 'application:1'),
      text,
    );
    const doc = nearValid({
      mode: fc.constantFrom('merge', 'merge', 'replace', 'x'),
      services: fc.array(nearValid({ id: intish, name: text, source_type: fc.oneof(text, fc.constant(null)), source_id: intish, meta: anyJson }), {
        maxLength: 4,
      }),
      resources: fc.array(
        nearValid({
          platform_id: text,
          resource_type: text,
          environment: fc.oneof(fc.constantFrom(...ENVIRONMENTS), text),
          category: text,
          service_ids: idArray,
        }),
        { maxLength: 4 },
      ),
      relations: fc.array(nearValid({ source: node, target: node, relation: text }), { maxLength: 3 }),
      packages: fc.array(
        nearValid({
          service_id: intish,
          purl: fc.oneof(fc.constantFrom('pkg:npm/a@1', 'pkg:npm/%40s/b@2', 'pkg:pypi/c@3'), text),
          name: text,
          version: fc.oneof(text, fc.constant(null)),
          hashes: fc.array(nearValid({ alg: fc.constantFrom('SHA-256', 'MD5', 'x'), content: text }), { maxLength: 2 }),
          licenses: fc.array(text, { maxLength: 2 }),
          depends_on: fc.array(text, { maxLength: 2 }),
        }),
        { maxLength: 4 },
      ),
      finding_counts: fc.array(
        nearValid({ service_id: intish, severity: fc.oneof(fc.constantFrom('LOW', 'HIGH'), text), urgent: intish, plan: intish, defer: intish }),
        { maxLength: 3 },
      ),
      applications: fc.array(
        nearValid({
          name: text,
          tier: fc.oneof(fc.constantFrom(...TIERS), text),
          application_type: fc.constantFrom('static', 'dynamic', 'x'),
          source_id: intish,
          service_ids: idArray,
          owners: fc.dictionary(fc.constantFrom(...OWNER_TYPES, 'x'), owners, { maxKeys: 2 }),
        }),
        { maxLength: 3 },
      ),
      integrations: fc.dictionary(
        fc.constantFrom('github', 'aws', 'gitlab'),
        nearValid({ enabled: fc.oneof(fc.boolean(), anyJson), orgs: fc.array(text, { maxLength: 2 }), accounts: fc.array(text, { maxLength: 2 }) }),
        { maxKeys: 2 },
      ),
    });
    await run(fc.asyncProperty(doc, (body) => check({ method: 'post', path: '/api/internal/inventory/import', body }, importTenant, importToken)));
  });

  it('regressions the fuzzer found (each was a 500): NUL characters, an unknown null integration, prototype.constructor', async () => {
    const importToken = `Bearer ${await importTenant.key(['admin'])}`;
    await check({ method: 'get', path: '/api/applications', query: 'search=%00' });
    await check({ method: 'post', path: '/api/applications/', body: { name: 'nul\u0000name' } });
    await check({ method: 'post', path: '/api/applications/', body: { name: 'nul-meta', meta: { k: 'v\u0000' } } });
    await check({ method: 'post', path: '/api/internal/inventory/import', body: { services: [{ id: 9, name: 'a\u0000' }] } }, importTenant, importToken);
    await check({ method: 'post', path: '/api/applications/', body: { name: 'proto', prototype: { constructor: {} } } });
    await t
      .http()
      .delete(
        `/api/applications/${((await t.dataSource.query('SELECT id FROM applications WHERE tenant_id = $1 AND name = $2', [tenant.id, 'proto'])) as { id: number }[])[0]?.id ?? 0}`,
      )
      .set('Authorization', auth);
    const unknownProvider = await send(
      { method: 'post', path: '/api/internal/inventory/import', body: { integrations: { constructor: null, ['x'.repeat(100)]: { enabled: true } } } },
      importToken,
    );
    expect(unknownProvider.status).toBe(200);
    const nul = await send({ method: 'get', path: '/api/applications', query: 'search=%00' });
    expect(JSON.parse(nul.text)).toEqual({
      detail: [{ loc: ['query', 'search'], msg: 'must not contain NUL (U+0000) characters', type: 'value_error.nul_character' }],
    });
  });

  it('ran cases, refused hostile ones, and nothing polluted Object.prototype', () => {
    expect(cases).toBeGreaterThanOrEqual(50);
    // Memory bounded: hostile bodies (20 kB strings, deep objects) leave nothing behind at scale.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(512 * 1024 * 1024);
    expect(Object.keys(statuses).some((s) => s === '422')).toBe(true);
    expect(
      Object.getOwnPropertyNames(Object.prototype).filter(
        (k) =>
          ![
            'constructor',
            '__defineGetter__',
            '__defineSetter__',
            'hasOwnProperty',
            '__lookupGetter__',
            '__lookupSetter__',
            'isPrototypeOf',
            'propertyIsEnumerable',
            'toString',
            'valueOf',
            '__proto__',
            'toLocaleString',
          ].includes(k),
      ),
    ).toEqual([]);
  });
});

import { createTestApp, type TestApp, type TestTenant } from '../support/create-test-app';
import { clientFor, resource, seedInventory, service } from '../factories/inventory.factory';

const APPLICATION_KEYS = [
  'id',
  'name',
  'description',
  'service_count',
  'resource_count',
  'business_impact',
  'tier',
  'application_type',
  'severity',
  'created',
  'updated',
  'meta',
  'services',
  'urgent',
  'plan',
  'defer',
  'owners',
].sort();

type Client = Awaited<ReturnType<typeof clientFor>>;
type Issue = { loc: (string | number)[]; msg: string; type: string };
const locs = (body: { detail: Issue[] }) => body.detail.map((d) => d.loc);
/** Distinct locations (class-validator may report several rules for one field). */
const uniqueLocs = (body: { detail: Issue[] }) => [...new Set(body.detail.map((d) => JSON.stringify(d.loc)))].map((l) => JSON.parse(l) as (string | number)[]);

function expectApplicationShape(app: Record<string, unknown>): void {
  expect(Object.keys(app).sort()).toEqual(APPLICATION_KEYS);
  expect(typeof app.id).toBe('number');
  expect(typeof app.name).toBe('string');
  for (const k of ['service_count', 'resource_count', 'urgent', 'plan', 'defer']) expect(Number.isInteger(app[k])).toBe(true);
  for (const k of ['created', 'updated']) expect(new Date(app[k] as string).toISOString()).toBe(app[k]);
  expect(Array.isArray(app.services)).toBe(true);
  expect(Object.keys(app.owners as object).sort()).toEqual(['owner', 'security_lead', 'tech_lead']);
}

describe('application endpoints (docs/inventory.md)', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let api: Client;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.tenant();
    api = await clientFor(t, tenant);
    await seedInventory(t, tenant, {
      services: [service(101), service(102), service(103), service(104, { source_id: 7 })],
      resources: [
        resource('arn:aws:s3:::a-bucket', [101]),
        resource('arn:aws:s3:::shared', [101, 102]),
        resource('arn:aws:lambda:fn', [102], { resource_type: 'aws_lambda_function' }),
      ],
      finding_counts: [
        { service_id: 101, severity: 'HIGH', urgent: 2, plan: 3, defer: 4 },
        { service_id: 102, severity: 'MEDIUM', urgent: 0, plan: 1, defer: 0 },
        { service_id: 102, severity: 'CRITICAL', urgent: 0, plan: 0, defer: 0 },
      ],
    });
  });
  afterAll(() => t.close());

  describe('authentication and scopes', () => {
    it('answers 401 without a token or with a bad one, on every kind of route', async () => {
      for (const [method, url] of [
        ['get', '/api/applications'],
        ['post', '/api/applications/'],
        ['get', '/api/applications/_terms'],
        ['get', '/api/applications/1'],
        ['delete', '/api/applications/1'],
      ] as const) {
        const res = await t.http()[method](url).expect(401);
        expect(typeof res.body.detail).toBe('string');
        await t.http()[method](url).set('Authorization', 'Bearer bwk_notavalidtokenatallxxxxxxxxxxxxxxxxxx').expect(401);
      }
    });

    it('answers 403 to a read-only key on a write', async () => {
      const reader = await clientFor(t, tenant, ['inventory:read']);
      await reader.get('/api/applications').expect(200);
      await reader.post('/api/applications/').send({ name: 'nope' }).expect(403);
    });
  });

  it('documents every inventory endpoint in OpenAPI with response schemas and request examples', async () => {
    const doc = (await t.http().get('/docs/openapi.json').expect(200)).body as {
      paths: Record<
        string,
        Record<
          string,
          { responses: Record<string, { content?: Record<string, { schema?: unknown }> }>; requestBody?: { content: Record<string, { examples?: unknown }> } }
        >
      >;
    };
    const operations: [string, string, boolean][] = [
      ['get', '/api/applications/_terms', false],
      ['post', '/api/applications/', true],
      ['put', '/api/applications/', true],
      ['get', '/api/applications', false],
      ['post', '/api/applications', true],
      ['get', '/api/applications/{application_id}', false],
      ['delete', '/api/applications/{application_id}', false],
      ['post', '/api/applications/{application_id}/service', true],
      ['delete', '/api/applications/{application_id}/service/{service_id}', false],
      ['post', '/api/applications/{application_id}/tier', true],
      ['get', '/api/applications/{application_id}/resources', false],
      ['get', '/api/applications/{application_id}/graph_resources', false],
      ['get', '/api/applications/{application_id}/graph', false],
      ['put', '/api/applications/{application_id}/graph', true],
      ['post', '/api/applications/{application_id}/owners/{owner_type}', true],
      ['get', '/api/internal/application/integrations', false],
      ['get', '/api/internal/application/features', false],
      ['post', '/api/internal/inventory/import', true],
    ];
    for (const [method, path, hasBody] of operations) {
      const op = doc.paths[path]?.[method];
      expect({ method, path, documented: Boolean(op) }).toEqual({ method, path, documented: true });
      expect(op!.responses['200']?.content?.['application/json']?.schema).toBeDefined();
      if (hasBody) expect(op!.requestBody?.content['application/json']?.examples).toBeDefined();
    }
  });

  describe('create (POST /api/applications/)', () => {
    it('creates with the documented defaults', async () => {
      const res = await api.post('/api/applications/').send({ name: '  minimal  ' }).expect(200);
      expectApplicationShape(res.body);
      expect(res.body).toMatchObject({
        name: 'minimal',
        description: 'Created by the Bulwark application inventory.',
        tier: 'TIER_1',
        business_impact: 'HIGH',
        application_type: 'static',
        severity: 'LOW',
        meta: {},
        services: [],
        service_count: 0,
        resource_count: 0,
        urgent: 0,
        plan: 0,
        defer: 0,
        owners: { owner: [], tech_lead: [], security_lead: [] },
      });
    });

    it('stores every given field and computes derived fields from membership and finding counts', async () => {
      const res = await api
        .post('/api/applications/')
        .send({
          name: 'full',
          description: null,
          tier: 'TIER_3',
          application_type: 'dynamic',
          owner: { login: 'jdoe', name: 'Jane Doe' },
          source_id: 7,
          meta: { cost_center: 'cc-1' },
          service_ids: [102, 101, 101],
          extra_field: 'ignored',
        })
        .expect(200);
      expect(res.body).toMatchObject({
        description: null,
        tier: 'TIER_3',
        application_type: 'dynamic',
        meta: { cost_center: 'cc-1' },
        services: [101, 102],
        service_count: 2,
        resource_count: 3,
        severity: 'HIGH', // the CRITICAL row has no open findings
        urgent: 2,
        plan: 4,
        defer: 4,
        owners: { owner: [{ login: 'jdoe', name: 'Jane Doe' }], tech_lead: [], security_lead: [] },
      });
      expect(res.body).not.toHaveProperty('extra_field');
      const again = await api.get(`/api/applications/${res.body.id}`).expect(200);
      expect(again.body).toEqual(res.body);
    });

    it('answers 409 on a duplicate name, case-insensitively', async () => {
      await api.post('/api/applications/').send({ name: 'Dup-Name' }).expect(200);
      const res = await api.post('/api/applications/').send({ name: 'dup-name ' }).expect(409);
      expect(res.body.detail).toMatch(/already exists/);
    });

    it('answers 422 for each validation rule, with exact locations', async () => {
      const cases: [unknown, (string | number)[][]][] = [
        [{}, [['body', 'name']]],
        [{ name: '   ' }, [['body', 'name']]],
        [{ name: 'x'.repeat(256) }, [['body', 'name']]],
        [{ name: 5 }, [['body', 'name']]],
        [{ name: 'a', tier: 'TIER_9' }, [['body', 'tier']]],
        [{ name: 'a', application_type: 'hybrid' }, [['body', 'application_type']]],
        [{ name: 'a', meta: [1] }, [['body', 'meta']]],
        [{ name: 'a', owner: { name: 'no login' } }, [['body', 'owner', 'login']]],
        [{ name: 'a', source_id: -1 }, [['body', 'source_id']]],
        [{ name: 'a', service_ids: [101, 'x'] }, [['body', 'service_ids']]],
        [{ name: 'a', description: 7 }, [['body', 'description']]],
      ];
      for (const [body, expected] of cases) {
        const res = await api
          .post('/api/applications/')
          .send(body as object)
          .expect(422);
        expect(locs(res.body)).toEqual(expect.arrayContaining(expected));
      }
      await api
        .post('/api/applications/')
        .send([{ name: 'array' }])
        .expect(422);
    });

    it('says a missing required field is required, in one issue per field (not one per rule)', async () => {
      const empty = await api.post('/api/applications/').send({}).expect(422);
      expect(empty.body.detail).toEqual([{ loc: ['body', 'name'], msg: 'field required', type: 'value_error.missing' }]);
      const noId = await api.put('/api/applications/').send({ name: 'x', description: null, tier: null }).expect(422);
      expect(noId.body.detail).toEqual([{ loc: ['body', 'id'], msg: 'field required', type: 'value_error.missing' }]);
      const noLogin = await api
        .post('/api/applications/')
        .send({ name: 'a', owner: { name: 'no login' } })
        .expect(422);
      expect(noLogin.body.detail).toEqual([{ loc: ['body', 'owner', 'login'], msg: 'field required', type: 'value_error.missing' }]);
      // A present value of the wrong type: one issue naming the type rule, not five (array, size, int, min, max).
      const notArray = await api.post('/api/applications/').send({ name: 'a', service_ids: '1' }).expect(422);
      expect(notArray.body.detail).toEqual([{ loc: ['body', 'service_ids'], msg: 'service_ids must be an array', type: 'type_error.list' }]);
    });

    it('answers 422 listing every unknown service id at its index, and creates nothing', async () => {
      const res = await api
        .post('/api/applications/')
        .send({ name: 'with-unknown', service_ids: [101, 999, 102, 2147483647] })
        .expect(422);
      expect(locs(res.body)).toEqual([
        ['body', 'service_ids', 1],
        ['body', 'service_ids', 3],
      ]);
      expect(res.body.detail[0].msg).toContain('999');
      const list = await api.post('/api/applications').send({ name: 'with-unknown' }).expect(200);
      expect(list.body.total).toBe(0);
    });

    it('tells create (trailing slash) from list (no slash)', async () => {
      const created = await api.post('/api/applications/').send({ name: 'routing-check' }).expect(200);
      expect(created.body.name).toBe('routing-check');
      const listed = await api.post('/api/applications').send([]).expect(200);
      expect(Object.keys(listed.body).sort()).toEqual(['items', 'page_number', 'page_size', 'pages', 'total']);
      await api.put('/api/applications').send({}).expect(404);
    });
  });

  describe('terms, get and delete', () => {
    it('matches _terms before /{application_id} and lists every enum with zero counts', async () => {
      const other = await t.tenant();
      const client = await clientFor(t, other);
      await client.post('/api/applications/').send({ name: 't1', tier: 'TIER_2' }).expect(200);
      const res = await client.get('/api/applications/_terms').expect(200);
      expect(Object.keys(res.body).sort()).toEqual([
        'application_type',
        'business_impact',
        'environment',
        'graph_categories',
        'order_fields',
        'owner_type',
        'severity',
        'tier',
      ]);
      expect(res.body.tier.map((x: { value: string }) => x.value)).toEqual(['TIER_1', 'TIER_2', 'TIER_3', 'TIER_4']);
      expect(res.body.tier.map((x: { count: number }) => x.count)).toEqual([0, 1, 0, 0]);
      expect(res.body.severity.find((x: { value: string }) => x.value === 'LOW').count).toBe(1);
      expect(res.body.environment.map((x: { value: string }) => x.value)).toContain('disaster_recovery');
      expect(res.body.owner_type.map((x: { value: string }) => x.value)).toEqual(['owner', 'tech_lead', 'security_lead']);
      expect(res.body.order_fields).toContain('resource_count');
      expect(res.body.graph_categories.map((x: { value: string }) => x.value)).toEqual([
        'compute',
        'storage',
        'database',
        'network',
        'identity',
        'messaging',
        'other',
      ]);
      for (const term of res.body.tier) expect(Object.keys(term).sort()).toEqual(['count', 'description', 'label', 'value']);
    });

    it('answers 404 for a missing or foreign application and 422 for a bad id', async () => {
      const mine = await api.post('/api/applications/').send({ name: 'private' }).expect(200);
      const stranger = await clientFor(t, await t.tenant());
      await api.get('/api/applications/2147483000').expect(404);
      await stranger.get(`/api/applications/${mine.body.id}`).expect(404);
      await stranger.delete(`/api/applications/${mine.body.id}`).expect(404);
      await stranger.put('/api/applications/').send({ id: mine.body.id, name: 'stolen', description: null, tier: null }).expect(404);
      await stranger.post(`/api/applications/${mine.body.id}/service`).send([]).expect(404);
      const bad = await api.get('/api/applications/abc').expect(422);
      expect(bad.body.detail[0].loc).toEqual(['path', 'application_id']);
      await api.get('/api/applications/2147483648').expect(422);
    });

    it('deletes the application, its membership and owners, never services or resources', async () => {
      const a = await api
        .post('/api/applications/')
        .send({ name: 'to-delete', service_ids: [101], owner: { login: 'o', name: 'O' } })
        .expect(200);
      const b = await api
        .post('/api/applications/')
        .send({ name: 'keeps-101', service_ids: [101] })
        .expect(200);
      const res = await api.delete(`/api/applications/${a.body.id}`).expect(200);
      expect(res.body).toEqual({ ok: true, message: expect.any(String) });
      await api.get(`/api/applications/${a.body.id}`).expect(404);
      await api.delete(`/api/applications/${a.body.id}`).expect(404);
      const kept = await api.get(`/api/applications/${b.body.id}`).expect(200);
      expect(kept.body).toMatchObject({ services: [101], resource_count: 2 });
      const [{ n }] = (await t.dataSource.query('SELECT count(*) AS n FROM inventory_services WHERE tenant_id = $1', [tenant.id])) as { n: string }[];
      expect(Number(n)).toBe(4);
      const orphans = (await t.dataSource.query('SELECT count(*) AS n FROM application_owners WHERE application_id = $1', [a.body.id])) as { n: string }[];
      expect(Number(orphans[0]!.n)).toBe(0);
    });
  });

  describe('update (PUT /api/applications/)', () => {
    it('updates name, clears description with null, keeps tier on null, keeps membership when service_ids is absent', async () => {
      const app = await api
        .post('/api/applications/')
        .send({ name: 'upd', description: 'd', tier: 'TIER_2', service_ids: [101] })
        .expect(200);
      const res = await api.put('/api/applications/').send({ id: app.body.id, name: 'upd-renamed', description: null, tier: null }).expect(200);
      expect(res.body).toEqual({ ok: true, message: expect.any(String) });
      const after = await api.get(`/api/applications/${app.body.id}`).expect(200);
      expect(after.body).toMatchObject({ name: 'upd-renamed', description: null, tier: 'TIER_2', services: [101] });
      await api
        .put('/api/applications/')
        .send({ id: app.body.id, name: 'upd-renamed', description: 'new', tier: 'TIER_4', service_ids: [102, 103] })
        .expect(200);
      const replaced = await api.get(`/api/applications/${app.body.id}`).expect(200);
      expect(replaced.body).toMatchObject({ description: 'new', tier: 'TIER_4', services: [102, 103] });
      await api.put('/api/applications/').send({ id: app.body.id, name: 'upd-renamed', description: 'new', tier: null, service_ids: null }).expect(200);
      expect((await api.get(`/api/applications/${app.body.id}`)).body.services).toEqual([102, 103]);
      await api.put('/api/applications/').send({ id: app.body.id, name: 'upd-renamed', description: 'new', tier: null, service_ids: [] }).expect(200);
      expect((await api.get(`/api/applications/${app.body.id}`)).body.services).toEqual([]);
    });

    it('tells an absent key (422) from a null value, and validates every field', async () => {
      const app = await api.post('/api/applications/').send({ name: 'absent-vs-null' }).expect(200);
      const both = await api.put('/api/applications/').send({ id: app.body.id, name: 'absent-vs-null' }).expect(422);
      expect(locs(both.body)).toEqual(
        expect.arrayContaining([
          ['body', 'description'],
          ['body', 'tier'],
        ]),
      );
      expect(both.body.detail.find((d: Issue) => d.loc[1] === 'description').type).toBe('value_error.missing');
      const noTier = await api.put('/api/applications/').send({ id: app.body.id, name: 'x', description: null }).expect(422);
      expect(locs(noTier.body)).toEqual([['body', 'tier']]);
      const badTier = await api.put('/api/applications/').send({ id: app.body.id, name: 'x', description: null, tier: 'GOLD' }).expect(422);
      expect(locs(badTier.body)).toEqual([['body', 'tier']]);
      const noId = await api.put('/api/applications/').send({ name: 'x', description: null, tier: null }).expect(422);
      expect(uniqueLocs(noId.body)).toEqual([['body', 'id']]);
      const unknown = await api
        .put('/api/applications/')
        .send({ id: app.body.id, name: 'x', description: null, tier: null, service_ids: [101, 555] })
        .expect(422);
      expect(locs(unknown.body)).toEqual([['body', 'service_ids', 1]]);
      expect((await api.get(`/api/applications/${app.body.id}`)).body.name).toBe('absent-vs-null');
    });

    it('answers 404 for an unknown id and 409 when renaming onto another application', async () => {
      await api.put('/api/applications/').send({ id: 2147483000, name: 'ghost', description: null, tier: null }).expect(404);
      await api.post('/api/applications/').send({ name: 'taken' }).expect(200);
      const mine = await api.post('/api/applications/').send({ name: 'renamer' }).expect(200);
      await api.put('/api/applications/').send({ id: mine.body.id, name: 'TAKEN', description: null, tier: null }).expect(409);
      await api.put('/api/applications/').send({ id: mine.body.id, name: 'Renamer', description: null, tier: null }).expect(200);
    });

    it('never leaves a mixture when two updates of one application race', async () => {
      const app = await api.post('/api/applications/').send({ name: 'race' }).expect(200);
      for (let round = 0; round < 3; round++) {
        const [x, y] = await Promise.all([
          api.put('/api/applications/').send({ id: app.body.id, name: 'race', description: 'x', tier: 'TIER_2', service_ids: [101, 102] }),
          api.put('/api/applications/').send({ id: app.body.id, name: 'race', description: 'y', tier: 'TIER_3', service_ids: [103, 104] }),
        ]);
        expect([x.status, y.status]).toEqual([200, 200]);
        const after = (await api.get(`/api/applications/${app.body.id}`)).body;
        const outcome = [after.description, after.tier, after.services];
        expect([
          ['x', 'TIER_2', [101, 102]],
          ['y', 'TIER_3', [103, 104]],
        ]).toContainEqual(outcome);
      }
    });

    it('answers one 200 and one 409 when two creates of one name race', async () => {
      const results = await Promise.all([
        api.post('/api/applications/').send({ name: 'same-time' }),
        api.post('/api/applications/').send({ name: 'SAME-TIME' }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    });
  });

  describe('membership, tier and owners', () => {
    let id: number;
    beforeAll(async () => {
      id = (await api.post('/api/applications/').send({ name: 'members' }).expect(200)).body.id;
    });

    it('assigns services as a union, idempotently', async () => {
      const res = await api.post(`/api/applications/${id}/service`).send([101, 102, 101]).expect(200);
      expect(res.body).toEqual({ ok: true, message: expect.any(String) });
      await api.post(`/api/applications/${id}/service`).send([102, 103]).expect(200);
      await api.post(`/api/applications/${id}/service`).send([102, 103]).expect(200);
      expect((await api.get(`/api/applications/${id}`)).body).toMatchObject({ services: [101, 102, 103], service_count: 3 });
    });

    it('rejects bad assign bodies with 422 and unknown ids listed', async () => {
      expect(
        locs(
          (
            await api
              .post(`/api/applications/${id}/service`)
              .send({ ids: [1] })
              .expect(422)
          ).body,
        ),
      ).toEqual([['body']]);
      expect(locs((await api.post(`/api/applications/${id}/service`).send([101, 'x', 1.5]).expect(422)).body)).toEqual([
        ['body', 1],
        ['body', 2],
      ]);
      const unknown = await api.post(`/api/applications/${id}/service`).send([101, 7777, 8888]).expect(422);
      expect(locs(unknown.body)).toEqual([
        ['body', 1],
        ['body', 2],
      ]);
      await api.post('/api/applications/2147483000/service').send([101]).expect(404);
    });

    it('removes a service, and answers 404 when it is not assigned', async () => {
      const res = await api.delete(`/api/applications/${id}/service/103`).expect(200);
      expect(res.body.ok).toBe(true);
      const again = await api.delete(`/api/applications/${id}/service/103`).expect(404);
      expect(again.body.detail).toMatch(/not assigned/);
      await api.delete(`/api/applications/${id}/service/104`).expect(404);
      await api.delete('/api/applications/2147483000/service/101').expect(404);
      await api.delete(`/api/applications/${id}/service/abc`).expect(422);
      expect((await api.get(`/api/applications/${id}`)).body.services).toEqual([101, 102]);
    });

    it('assigns a tier and returns the updated application', async () => {
      const res = await api.post(`/api/applications/${id}/tier`).send({ tier: 'TIER_4' }).expect(200);
      expectApplicationShape(res.body);
      expect(res.body.tier).toBe('TIER_4');
      expect(locs((await api.post(`/api/applications/${id}/tier`).send({ tier: 'TIER_0' }).expect(422)).body)).toEqual([['body', 'tier']]);
      expect(locs((await api.post(`/api/applications/${id}/tier`).send({}).expect(422)).body)).toEqual([['body', 'tier']]);
      await api.post('/api/applications/2147483000/tier').send({ tier: 'TIER_2' }).expect(404);
    });

    it('sets owners per type, replacing that type only', async () => {
      const res = await api
        .post(`/api/applications/${id}/owners/tech_lead`)
        .send([
          { login: 'a', name: 'A' },
          { login: 'b', name: 'B' },
        ])
        .expect(200);
      expect(res.body).toEqual({ ok: true, message: expect.any(String) });
      await api
        .post(`/api/applications/${id}/owners/owner`)
        .send([{ login: 'o', name: 'O' }])
        .expect(200);
      await api
        .post(`/api/applications/${id}/owners/tech_lead`)
        .send([{ login: 'c', name: 'C' }])
        .expect(200);
      const app = (await api.get(`/api/applications/${id}`)).body;
      expect(app.owners).toEqual({ owner: [{ login: 'o', name: 'O' }], tech_lead: [{ login: 'c', name: 'C' }], security_lead: [] });
      await api.post(`/api/applications/${id}/owners/owner`).send([]).expect(200);
      expect((await api.get(`/api/applications/${id}`)).body.owners.owner).toEqual([]);
    });

    it('rejects bad owner requests', async () => {
      expect(locs((await api.post(`/api/applications/${id}/owners/boss`).send([]).expect(422)).body)).toEqual([['path', 'owner_type']]);
      expect(locs((await api.post(`/api/applications/${id}/owners/owner`).send({ login: 'a' }).expect(422)).body)).toEqual([['body']]);
      const many = Array.from({ length: 51 }, (_, i) => ({ login: `u${i}`, name: 'U' }));
      expect(locs((await api.post(`/api/applications/${id}/owners/owner`).send(many).expect(422)).body)).toEqual([['body']]);
      const bad = await api
        .post(`/api/applications/${id}/owners/owner`)
        .send([{ name: 'no login' }, { login: 'a', name: 3 }, { login: 'a', name: 'dup' }])
        .expect(422);
      expect(bad.body.detail).toEqual([
        { loc: ['body', 0, 'login'], msg: 'must be a string of 1 to 255 characters', type: 'value_error.login' },
        { loc: ['body', 1, 'name'], msg: 'must be a string of at most 255 characters', type: 'type_error.string' },
        { loc: ['body', 2, 'login'], msg: "duplicate login 'a'", type: 'value_error.duplicate' },
      ]);
      await api.post('/api/applications/2147483000/owners/owner').send([]).expect(404);
    });
  });

  describe('list (GET and POST /api/applications)', () => {
    let client: Client;
    beforeAll(async () => {
      const other = await t.tenant();
      client = await clientFor(t, other);
      await seedInventory(t, other, {
        services: [service(1), service(2), service(3)],
        resources: [resource('r1', [1]), resource('r2', [1]), resource('r3', [2])],
        finding_counts: [
          { service_id: 1, severity: 'CRITICAL', urgent: 5, plan: 0, defer: 0 },
          { service_id: 2, severity: 'MEDIUM', urgent: 1, plan: 2, defer: 3 },
        ],
        applications: [
          {
            name: 'Alpha',
            description: 'payments core',
            tier: 'TIER_1',
            business_impact: 'CRITICAL',
            service_ids: [1],
            owners: { owner: [{ login: 'ann', name: 'Ann' }] },
          },
          { name: 'bravo', description: 'search 100% fast_path', tier: 'TIER_2', business_impact: 'LOW', service_ids: [2] },
          { name: 'Charlie', description: null, tier: 'TIER_2', business_impact: 'MEDIUM', service_ids: [1, 2, 3] },
          { name: 'delta', tier: 'TIER_4', business_impact: 'HIGH' },
          { name: 'echo', tier: 'TIER_3', business_impact: 'HIGH', owners: { security_lead: [{ login: 'sec', name: 'Sec' }] } },
        ],
      });
    });
    const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((i) => i.name);

    it('pages with the envelope, default order name then id, and empty items past the end', async () => {
      const res = await client.get('/api/applications?limit=2').expect(200);
      expect(res.body).toMatchObject({ total: 5, pages: 3, page_size: 2, page_number: 0 });
      expect(names(res)).toEqual(['Alpha', 'bravo']);
      for (const item of res.body.items) expectApplicationShape(item);
      expect(names(await client.get('/api/applications?limit=2&page=2').expect(200))).toEqual(['echo']);
      const past = await client.get('/api/applications?limit=2&page=9').expect(200);
      expect(past.body).toMatchObject({ total: 5, pages: 3, page_number: 9, items: [] });
      const post = await client.post('/api/applications?limit=2&page=1').expect(200);
      expect(names(post)).toEqual(['Charlie', 'delta']);
      expect((await client.get('/api/applications').expect(200)).body.page_size).toBe(100);
    });

    it('orders by order/direction and by orders (which wins), enum fields by rank', async () => {
      expect(names(await client.get('/api/applications?order=name&direction=desc'))).toEqual(['echo', 'delta', 'Charlie', 'bravo', 'Alpha']);
      expect(names(await client.get('/api/applications?order=tier&orders=-urgent&orders=name'))).toEqual(['Charlie', 'Alpha', 'bravo', 'delta', 'echo']);
      expect(names(await client.get('/api/applications?orders=-severity,name'))).toEqual(['Alpha', 'Charlie', 'bravo', 'delta', 'echo']);
      expect(names(await client.get('/api/applications?order=business_impact'))).toEqual(['bravo', 'Charlie', 'delta', 'echo', 'Alpha']);
      expect(names(await client.get('/api/applications?orders=-resource_count&orders=name'))).toEqual(['Charlie', 'Alpha', 'bravo', 'delta', 'echo']);
    });

    it('answers 422 on unknown order fields and bad paging', async () => {
      const order = await client.get('/api/applications?order=colour').expect(422);
      expect(order.body.detail[0].loc).toEqual(['query', 'order']);
      expect(order.body.detail[0].msg).toContain('service_count');
      expect(locs((await client.get('/api/applications?orders=name&orders=-nope').expect(422)).body)).toEqual([['query', 'orders', 1]]);
      expect(locs((await client.get('/api/applications?limit=1001').expect(422)).body)).toEqual([['query', 'limit']]);
      expect(locs((await client.get('/api/applications?limit=0').expect(422)).body)).toEqual([['query', 'limit']]);
      expect(locs((await client.get('/api/applications?page=-1').expect(422)).body)).toEqual([['query', 'page']]);
      expect(new Set(locs((await client.get('/api/applications?page=abc').expect(422)).body).map((l) => l.join('.')))).toEqual(new Set(['query.page']));
      expect(locs((await client.get('/api/applications?direction=up').expect(422)).body)).toEqual([['query', 'direction']]);
      await client.get('/api/applications?limit=1000').expect(200);
    });

    it('searches name and description case-insensitively, with pattern characters taken literally', async () => {
      expect(names(await client.get('/api/applications?search=ALP'))).toEqual(['Alpha']);
      expect(names(await client.get('/api/applications?search=PAYMENTS'))).toEqual(['Alpha']);
      expect(names(await client.get('/api/applications?search=100%25'))).toEqual(['bravo']);
      expect(names(await client.get('/api/applications?search=_path'))).toEqual(['bravo']);
      expect((await client.get('/api/applications?search=%25').expect(200)).body.total).toBe(1);
    });

    it('filters with clauses (GET and POST bodies) and with the shorthand object', async () => {
      const tiers = await client
        .post('/api/applications')
        .send([{ field: 'tier', op: 'in', value: ['TIER_1', 'TIER_2'] }])
        .expect(200);
      expect(names(tiers)).toEqual(['Alpha', 'bravo', 'Charlie']);
      const viaGet = await client
        .get('/api/applications')
        .send([{ field: 'tier', op: 'in', value: ['TIER_1', 'TIER_2'] }])
        .expect(200);
      expect(names(viaGet)).toEqual(['Alpha', 'bravo', 'Charlie']);
      expect(names(await client.post('/api/applications').send({ tier: ['TIER_2'], severity: 'CRITICAL' }))).toEqual(['Charlie']);
      expect(names(await client.post('/api/applications').send([{ field: 'urgent', op: 'gte', value: 5 }]))).toEqual(['Alpha', 'Charlie']);
      expect(names(await client.post('/api/applications').send([{ field: 'service_count', op: 'eq', value: 0 }]))).toEqual(['delta', 'echo']);
      expect(names(await client.post('/api/applications').send([{ field: 'resource_count', op: 'lt', value: 2 }]))).toEqual(['bravo', 'delta', 'echo']);
      expect(names(await client.post('/api/applications').send([{ field: 'service_id', op: 'eq', value: 2 }]))).toEqual(['bravo', 'Charlie']);
      expect(names(await client.post('/api/applications').send([{ field: 'service_id', op: 'nin', value: [1, 2] }]))).toEqual(['delta', 'echo']);
      expect(names(await client.post('/api/applications').send({ owner_login: 'ann' }))).toEqual(['Alpha']);
      expect(names(await client.post('/api/applications').send({ owner_type: 'security_lead' }))).toEqual(['echo']);
      expect(names(await client.post('/api/applications').send([{ field: 'name', op: 'eq', value: 'ALPHA' }]))).toEqual(['Alpha']);
      expect(
        names(
          await client.post('/api/applications').send([
            { field: 'business_impact', op: 'neq', value: 'HIGH' },
            { field: 'severity', op: 'eq', value: 'LOW' },
          ]),
        ),
      ).toEqual([]);
      expect(
        names(
          await client.post('/api/applications').send([
            { field: 'application_type', op: 'eq', value: 'static' },
            { field: 'defer', op: 'gt', value: 0 },
          ]),
        ),
      ).toEqual(['bravo', 'Charlie']);
      const combined = await client
        .post('/api/applications?search=a&limit=1&order=name')
        .send({ tier: ['TIER_1', 'TIER_2'] })
        .expect(200);
      expect(combined.body).toMatchObject({ total: 3, pages: 3 });
      expect(names(combined)).toEqual(['Alpha']);
      expect((await client.post('/api/applications').send({}).expect(200)).body.total).toBe(5);
    });

    it('answers 422 on bad filters, naming the clause', async () => {
      expect(
        locs(
          (
            await client
              .post('/api/applications')
              .send([{ field: 'colour', op: 'eq', value: 1 }])
              .expect(422)
          ).body,
        ),
      ).toEqual([['body', 0, 'field']]);
      expect(
        locs(
          (
            await client
              .post('/api/applications')
              .send([{ field: 'tier', op: 'like', value: 'x' }])
              .expect(422)
          ).body,
        ),
      ).toEqual([['body', 0, 'op']]);
      expect(
        locs(
          (
            await client
              .post('/api/applications')
              .send([{ field: 'tier', op: 'gt', value: 'TIER_1' }])
              .expect(422)
          ).body,
        ),
      ).toEqual([['body', 0, 'op']]);
      expect(
        locs(
          (
            await client
              .post('/api/applications')
              .send([{ field: 'tier', op: 'eq', value: 'TIER_7' }])
              .expect(422)
          ).body,
        ),
      ).toEqual([['body', 0, 'value']]);
      expect(
        locs(
          (
            await client
              .post('/api/applications')
              .send([{ field: 'urgent', op: 'in', value: 3 }])
              .expect(422)
          ).body,
        ),
      ).toEqual([['body', 0, 'value']]);
      expect(
        locs(
          (
            await client
              .post('/api/applications')
              .send([{ field: 'urgent', op: 'in', value: [1, 'x'] }])
              .expect(422)
          ).body,
        ),
      ).toEqual([['body', 0, 'value', 1]]);
      expect(locs((await client.post('/api/applications').send({ severity: 'SEVERE' }).expect(422)).body)).toEqual([['body', 'severity']]);
      expect(locs((await client.post('/api/applications').send({ colour: 'red' }).expect(422)).body)).toEqual([['body', 'colour']]);
      expect(locs((await client.post('/api/applications').send([1]).expect(422)).body)).toEqual([['body', 0]]);
    });

    it('answers 422, not 400, to a body that is well-formed JSON of the wrong shape (400 is for unparseable JSON)', async () => {
      for (const body of ['"tier"', '5', 'null', 'true']) {
        for (const method of ['get', 'post'] as const) {
          const res = await client[method]('/api/applications').set('Content-Type', 'application/json').send(body).expect(422);
          expect(res.body.detail).toEqual([{ loc: ['body'], msg: 'must be an array of filter clauses or a filter object', type: 'type_error.list' }]);
        }
      }
      // The other bodies take the same route: a scalar where an object or array belongs is a 422 too.
      expect(locs((await api.post('/api/applications/').set('Content-Type', 'application/json').send('5').expect(422)).body)).toEqual([['body']]);
      expect(locs((await api.put('/api/applications/').set('Content-Type', 'application/json').send('null').expect(422)).body)).toEqual([['body']]);
      await client.post('/api/applications').set('Content-Type', 'application/json').send('{"tier": ').expect(400);
    });

    it("never shows another tenant's applications", async () => {
      const res = await client.get('/api/applications?limit=1000').expect(200);
      expect(names(res)).not.toContain('minimal');
      expect(res.body.total).toBe(5);
    });
  });
});

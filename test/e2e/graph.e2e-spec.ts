import { createTestApp, type TestApp, type TestTenant } from '../support/create-test-app';
import { clientFor, resource, seedInventory, service } from '../factories/inventory.factory';

type Client = Awaited<ReturnType<typeof clientFor>>;
const locs = (body: { detail: { loc: unknown[] }[] }) => body.detail.map((d) => d.loc);

describe('resources and graph (docs/inventory.md)', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let api: Client;
  let appId: number;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.tenant();
    api = await clientFor(t, tenant);
    await seedInventory(t, tenant, {
      services: [service(1, { name: 'api' }), service(2, { name: 'worker' }), service(3, { name: 'elsewhere' })],
      resources: [
        resource('arn:aws:s3:::bucket-b', [1, 2], { name: 'bucket-b' }),
        resource('arn:aws:s3:::bucket-a', [1], { name: 'bucket-a' }),
        resource('arn:aws:lambda:fn', [2], { resource_type: 'aws_lambda_function', name: 'Handler', source_type: null }),
        resource('arn:aws:sqs:queue', [2], { resource_type: 'aws_sqs_queue', category: 'other', name: 'jobs' }),
        resource('not-a-member', [3]),
      ],
      relations: [
        { source: 'service:1', target: 'service:2', relation: 'calls' },
        { source: 'service:2', target: 'resource:arn:aws:sqs:queue', relation: 'publishes_to' },
        { source: 'service:3', target: 'resource:not-a-member', relation: 'reads_from' },
      ],
    });
    appId = (
      await api
        .post('/api/applications/')
        .send({ name: 'graph-app', service_ids: [1, 2] })
        .expect(200)
    ).body.id;
  });
  afterAll(() => t.close());

  it('lists the deduplicated resources of member services by resource_type then platform_id', async () => {
    const res = await api.get(`/api/applications/${appId}/resources`).expect(200);
    expect(res.body).toEqual([
      { platform_id: 'arn:aws:lambda:fn', resource_type: 'aws_lambda_function', source_type: null },
      { platform_id: 'arn:aws:s3:::bucket-a', resource_type: 'aws_s3_bucket', source_type: 'aws' },
      { platform_id: 'arn:aws:s3:::bucket-b', resource_type: 'aws_s3_bucket', source_type: 'aws' },
      { platform_id: 'arn:aws:sqs:queue', resource_type: 'aws_sqs_queue', source_type: 'aws' },
    ]);
    await api.get('/api/applications/2147483000/resources').expect(404);
  });

  it('builds the graph from membership, resources and imported relations', async () => {
    const res = await api.get(`/api/applications/${appId}/graph`).expect(200);
    expect(res.body.application_id).toBe(appId);
    expect(res.body.selection).toBeNull();
    expect(res.body.nodes.map((n: { id: string }) => n.id)).toEqual([
      `application:${appId}`,
      'service:1',
      'service:2',
      'resource:arn:aws:lambda:fn',
      'resource:arn:aws:s3:::bucket-a',
      'resource:arn:aws:s3:::bucket-b',
      'resource:arn:aws:sqs:queue',
    ]);
    expect(res.body.nodes[3]).toEqual({
      id: 'resource:arn:aws:lambda:fn',
      type: 'resource',
      label: 'Handler',
      platform_id: 'arn:aws:lambda:fn',
      resource_type: 'aws_lambda_function',
      category: 'compute',
    });
    expect(res.body.edges).toEqual(
      expect.arrayContaining([
        { source: `application:${appId}`, target: 'service:1', relation: 'contains' },
        { source: 'service:1', target: 'resource:arn:aws:s3:::bucket-b', relation: 'uses' },
        { source: 'service:2', target: 'resource:arn:aws:s3:::bucket-b', relation: 'uses' },
        { source: 'service:1', target: 'service:2', relation: 'calls' },
        { source: 'service:2', target: 'resource:arn:aws:sqs:queue', relation: 'publishes_to' },
      ]),
    );
    expect(res.body.edges).toHaveLength(2 + 5 + 2);
    expect(JSON.stringify(res.body)).not.toContain('not-a-member');
    await api.get('/api/applications/2147483000/graph').expect(404);
  });

  it('replaces the selection, deduplicated, and returns the new graph', async () => {
    const res = await api.put(`/api/applications/${appId}/graph`).send(['arn:aws:sqs:queue', 'arn:aws:s3:::bucket-a', 'arn:aws:sqs:queue']).expect(200);
    expect(res.body.selection).toEqual(['arn:aws:s3:::bucket-a', 'arn:aws:sqs:queue']);
    expect(res.body.nodes.filter((n: { type: string }) => n.type === 'resource').map((n: { platform_id: string }) => n.platform_id)).toEqual([
      'arn:aws:s3:::bucket-a',
      'arn:aws:sqs:queue',
    ]);
    expect(await api.get(`/api/applications/${appId}/graph`).then((r) => r.body)).toEqual(res.body);
    const page = await api.get(`/api/applications/${appId}/graph_resources?order=platform_id`).expect(200);
    expect(page.body.items.map((i: { in_graph: boolean }) => i.in_graph)).toEqual([false, true, false, true]);
    const empty = await api.put(`/api/applications/${appId}/graph`).send([]).expect(200);
    expect(empty.body.selection).toEqual([]);
    expect(empty.body.nodes.filter((n: { type: string }) => n.type === 'resource')).toEqual([]);
  });

  it('rejects foreign platform ids (listing them) and bad bodies, changing nothing', async () => {
    await api.put(`/api/applications/${appId}/graph`).send(['arn:aws:lambda:fn']).expect(200);
    const res = await api.put(`/api/applications/${appId}/graph`).send(['arn:aws:s3:::bucket-a', 'not-a-member', 'nope']).expect(422);
    expect(locs(res.body)).toEqual([
      ['body', 1],
      ['body', 2],
    ]);
    expect(res.body.detail[0].msg).toContain('not-a-member');
    expect((await api.get(`/api/applications/${appId}/graph`)).body.selection).toEqual(['arn:aws:lambda:fn']);
    expect(locs((await api.put(`/api/applications/${appId}/graph`).send({ ids: [] }).expect(422)).body)).toEqual([['body']]);
    expect(locs((await api.put(`/api/applications/${appId}/graph`).send(['ok', 5, '']).expect(422)).body)).toEqual([
      ['body', 1],
      ['body', 2],
    ]);
    expect(
      locs(
        (
          await api
            .put(`/api/applications/${appId}/graph`)
            .send(Array.from({ length: 10001 }, (_, i) => `r${i}`))
            .expect(422)
        ).body,
      ),
    ).toEqual([['body']]);
    await api.put('/api/applications/2147483000/graph').send([]).expect(404);
    const stranger = await clientFor(t, await t.tenant());
    await stranger.put(`/api/applications/${appId}/graph`).send([]).expect(404);
    await stranger.get(`/api/applications/${appId}/graph`).expect(404);
  });

  it('keeps concurrent graph replacements whole', async () => {
    const sets = [
      ['arn:aws:s3:::bucket-a', 'arn:aws:s3:::bucket-b'],
      ['arn:aws:lambda:fn', 'arn:aws:sqs:queue'],
    ];
    const results = await Promise.all(sets.map((s) => api.put(`/api/applications/${appId}/graph`).send(s)));
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const final = (await api.get(`/api/applications/${appId}/graph`)).body.selection;
    expect(sets).toContainEqual(final);
  });

  it('pages graph resources with category, search and order; validates the query', async () => {
    const res = await api.get(`/api/applications/${appId}/graph_resources?limit=2`).expect(200);
    expect(res.body).toMatchObject({ total: 4, pages: 2, page_size: 2, page_number: 0 });
    expect(Object.keys(res.body.items[0]).sort()).toEqual(['category', 'in_graph', 'name', 'platform_id', 'resource_type', 'service_ids', 'source_type']);
    expect(res.body.items.map((i: { platform_id: string }) => i.platform_id)).toEqual(['arn:aws:lambda:fn', 'arn:aws:s3:::bucket-a']);
    const storage = await api.get(`/api/applications/${appId}/graph_resources?category=storage`).expect(200);
    expect(storage.body.items.map((i: { platform_id: string; service_ids: number[] }) => [i.platform_id, i.service_ids])).toEqual([
      ['arn:aws:s3:::bucket-a', [1]],
      ['arn:aws:s3:::bucket-b', [1, 2]],
    ]);
    expect((await api.get(`/api/applications/${appId}/graph_resources?category=other`)).body.items.map((i: { name: string }) => i.name)).toEqual(['jobs']);
    expect((await api.get(`/api/applications/${appId}/graph_resources?search=HANDLER`)).body.total).toBe(1);
    expect((await api.get(`/api/applications/${appId}/graph_resources?search=sqs_queue`)).body.total).toBe(1);
    expect((await api.get(`/api/applications/${appId}/graph_resources?orders=-name`)).body.items.map((i: { name: string }) => i.name)).toEqual([
      'jobs',
      'bucket-b',
      'bucket-a',
      'Handler',
    ]);
    expect((await api.get(`/api/applications/${appId}/graph_resources?page=5`)).body.items).toEqual([]);
    expect(locs((await api.get(`/api/applications/${appId}/graph_resources?category=gpu`).expect(422)).body)).toEqual([['query', 'category']]);
    expect(locs((await api.get(`/api/applications/${appId}/graph_resources?order=severity`).expect(422)).body)).toEqual([['query', 'order']]);
    await api.get(`/api/applications/${appId}/graph_resources?limit=1001`).expect(422);
    await api.get('/api/applications/2147483000/graph_resources').expect(404);
  });

  it('drops the selection and membership with the application, not the resources', async () => {
    const id = (
      await api
        .post('/api/applications/')
        .send({ name: 'short-lived', service_ids: [1] })
        .expect(200)
    ).body.id;
    await api.put(`/api/applications/${id}/graph`).send(['arn:aws:s3:::bucket-a']).expect(200);
    await api.delete(`/api/applications/${id}`).expect(200);
    const left = (await t.dataSource.query('SELECT count(*) AS n FROM application_graph_selections WHERE application_id = $1', [id])) as { n: string }[];
    expect(Number(left[0]!.n)).toBe(0);
    expect((await api.get(`/api/applications/${appId}/resources`)).body).toHaveLength(4);
  });
});

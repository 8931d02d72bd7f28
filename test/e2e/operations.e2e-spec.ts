import { createTestApp, type TestApp } from '../support/create-test-app';

describe('operations: health, metrics, OpenAPI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves liveness and readiness without credentials', async () => {
    await t.http().get('/health/live').expect(200, { status: 'ok' });
    const ready = await t.http().get('/health/ready').expect(200);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.details.database.status).toBe('up');
    if (t.config.redisUrl) expect(ready.body.details.redis.status).toBe('up');
  });

  it('reports not ready (503) when the database is gone', async () => {
    const other = await createTestApp({ env: { DATABASE_URL: 'pglite://memory' } });
    await other.dataSource.destroy();
    const res = await other.http().get('/health/ready').expect(503);
    expect(res.body.details.database.status).toBe('down');
    // Public route: the driver's own message (which can name the database host and port) stays in the log.
    expect(res.body.details.database).toEqual({ status: 'down', message: 'Database did not answer' });
    expect(res.body.error).toEqual({ database: { status: 'down', message: 'Database did not answer' } });
    await other.close().catch(() => undefined);
  });

  it('counts requests by method, route pattern and status for Prometheus', async () => {
    const key = await (await t.tenant()).key(['admin']);
    await t.http().get('/api/admin/api-keys').set('Authorization', `Bearer ${key}`).expect(200);
    await t.http().get('/api/admin/api-keys').expect(401);
    const res = await t.http().get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/bulwark_http_requests_total\{method="GET",route="\/api\/admin\/api-keys",status="200"\} \d+/);
    expect(res.text).toMatch(/bulwark_http_requests_total\{method="GET",route="\/api\/admin\/api-keys",status="401"\} \d+/);
    expect(res.text).toContain('bulwark_http_request_duration_seconds_bucket');
  });

  it('serves the OpenAPI document and the offline UI at /docs', async () => {
    const doc = await t.http().get('/docs/openapi.json').expect(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(doc.body.paths['/api/admin/api-keys']).toBeDefined();
    expect(doc.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const ui = await t.http().get('/docs').expect(200);
    expect(ui.text).toContain('swagger-ui');
    // UI assets are served by this process (swagger-ui-dist), not a CDN.
    expect(ui.text).not.toMatch(/https?:\/\/(cdn|unpkg)/);
  });
});

import { createHash } from 'node:crypto';
import type { Test } from 'supertest';
import { SCAN_EXAMPLE_UPLOAD, SCAN_REPORT_EXAMPLE } from '../../src/scanner/dto/scan-report.example';
import { validateScanReport } from '../../src/scanner/engine/scan-report.validator';
import { ISSUE_TYPE_FORM } from '../../src/common/validation-issue-types';
import { clientFor, resource, seedInventory, service } from '../factories/inventory.factory';
import { createTestApp, type TestApp, type TestTenant } from '../support/create-test-app';

/**
 * The OpenAPI document served at /docs/openapi.json (the one docs/openapi.json snapshots) and the
 * UI around it: honest types, the error responses each operation can give,
 * examples Swagger UI can run as they are, and the UI's assets under every spelling of /docs.
 */

interface Schema {
  type?: string;
  $ref?: string;
  example?: unknown;
  [key: string]: unknown;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  example?: unknown;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema; examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: Schema }> }>;
  security?: unknown[];
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** Numbers that are fractions by design: risks in [0, 1], weight deltas, terminus' timings. */
const FRACTIONAL = [
  /\/score_breakdown\/properties\/(static_risk|judge_risk)$/,
  /\/score_breakdown\/properties\/adjustments\/items\/properties\/delta$/,
  /^\/paths\/\/health\/ready\/.*\/responseTime$/,
];

function numberSchemas(node: unknown, at = ''): string[] {
  if (!node || typeof node !== 'object') return [];
  const own = (node as Schema).type === 'number' ? [at] : [];
  return [...own, ...Object.entries(node).flatMap(([k, v]) => numberSchemas(v, `${at}/${k}`))];
}

function operations(doc: Document): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method, path, op })));
}

const has = (op: Operation, where: Parameter['in']) => (op.parameters ?? []).some((p) => p.in === where);

describe('OpenAPI document and UI', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let admin: Awaited<ReturnType<typeof clientFor>>;
  let doc: Document;
  let appId: number;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.tenant();
    admin = await clientFor(t, tenant);
    await seedInventory(t, tenant, {
      services: [service(101)],
      resources: [resource('arn:aws:s3:::alpha-bucket', [101]), resource('arn:aws:lambda:beta-fn', [101], { resource_type: 'aws_lambda_function' })],
    });
    appId = (
      await admin
        .post('/api/applications/')
        .send({ name: 'alpha', tier: 'TIER_1', service_ids: [101] })
        .expect(200)
    ).body.id as number;
    await admin.post('/api/applications/').send({ name: 'beta', tier: 'TIER_3' }).expect(200);
    doc = (await t.http().get('/docs/openapi.json').expect(200)).body as Document;
  });
  afterAll(() => t.close());

  it('types every integer field `integer`; `number` is left only to fractions', () => {
    const stray = numberSchemas(doc).filter((at) => !FRACTIONAL.some((re) => re.test(at)));
    expect(stray).toEqual([]);
    const s = doc.components.schemas as Record<string, { properties: Record<string, Schema & { items?: Schema }> }>;
    expect(s.ApplicationDto.properties.id.type).toBe('integer');
    expect(s.ApplicationDto.properties.services.items?.type).toBe('integer');
    expect(s.ApplicationPageDto.properties.total.type).toBe('integer');
    const page = doc.paths['/api/applications'].get.parameters!.find((p) => p.name === 'page')!;
    expect(page.schema?.type).toBe('integer');
    const id = doc.paths['/api/applications/{application_id}'].get.parameters!.find((p) => p.name === 'application_id')!;
    expect(id.schema?.type).toBe('integer');
  });

  it('types expires_at as a nullable date-time string and rate_limit_per_minute as a nullable integer', () => {
    const s = doc.components.schemas as Record<string, { properties: Record<string, Schema> }>;
    for (const dto of ['CreateApiKeyDto', 'ApiKeyDto', 'CreatedApiKeyDto']) {
      expect({ dto, ...s[dto].properties.expires_at }).toMatchObject({ dto, type: 'string', format: 'date-time', nullable: true });
      expect({ dto, ...s[dto].properties.rate_limit_per_minute }).toMatchObject({ dto, type: 'integer', nullable: true });
    }
  });

  it('documents on every operation the error responses that apply, each with the {"detail"} body', () => {
    const missing: string[] = [];
    for (const { method, path, op } of operations(doc)) {
      const expected = new Set<string>();
      if (path.startsWith('/api/')) ['401', '403', '429'].forEach((s) => expected.add(s));
      if (has(op, 'path')) ['404', '422'].forEach((s) => expected.add(s));
      if (has(op, 'query')) expected.add('422');
      if (op.requestBody) ['400', '413', '422'].forEach((s) => expected.add(s));
      for (const status of expected) if (!op.responses[status]) missing.push(`${method.toUpperCase()} ${path}: ${status}`);
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400 || path.startsWith('/health/')) continue;
        const ref = response.content?.['application/json']?.schema?.$ref;
        if (ref !== `#/components/schemas/${status === '422' ? 'ValidationError' : 'Error'}`)
          missing.push(`${method.toUpperCase()} ${path}: ${status} body ${ref}`);
      }
    }
    expect(missing).toEqual([]);
    expect(doc.components.schemas.Error).toMatchObject({ required: ['detail'], properties: { detail: { type: 'string' } } });
    expect(doc.components.schemas.ValidationError).toMatchObject({
      required: ['detail'],
      properties: { detail: { type: 'array', items: { required: ['loc', 'msg', 'type'] } } },
    });
  });

  it('documents every error status the operations answer to a missing key, a scope-less key, bad or unknown ids and bad bodies', async () => {
    const noScope = await clientFor(t, tenant, []);
    const undocumented: string[] = [];
    const check = async (label: string, method: string, path: string, op: Operation, req: Test) => {
      const res = await req;
      if (!op.responses[String(res.status)]) undocumented.push(`${method.toUpperCase()} ${path} (${label}): ${res.status}`);
      // Every error body is {"detail"}, except the edge 403 (none is expected here).
      if (res.status >= 400) expect({ label, path, body: res.body }).toEqual({ label, path, body: { detail: expect.anything() } });
      // One vocabulary for a 422 issue's type, whichever validator found it (src/common/validation-issue-types.ts).
      if (res.status === 422)
        for (const issue of res.body.detail as { type: string }[])
          expect({ label, path, type: issue.type }).toEqual({ label, path, type: expect.stringMatching(ISSUE_TYPE_FORM) });
      return res.status;
    };
    const concrete = (path: string, values: Record<string, string>) => path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? '1');
    const valid = { application_id: String(appId), service_id: '101', owner_type: 'owner', key_id: '00000000-0000-4000-8000-000000000000' };
    const unknown = { ...valid, application_id: '2147483000' }; // and key_id is no key's id
    const malformed = { application_id: 'abc', service_id: 'abc', owner_type: 'nobody', key_id: 'not-a-uuid' };

    for (const { method, path, op } of operations(doc).filter((o) => o.path.startsWith('/api/'))) {
      const call = (url: string) => (t.http() as unknown as Record<string, (u: string) => Test>)[method](url);
      const url = concrete(path, valid);
      expect(await check('no key', method, path, op, call(url))).toBe(401);
      const scoped = (noScope as unknown as Record<string, (u: string) => Test>)[method](url);
      await check('key without scopes', method, path, op, scoped);
      const authed = (u: string) => (admin as unknown as Record<string, (u: string) => Test>)[method](u);
      if (has(op, 'path')) {
        expect(await check('malformed path parameter', method, path, op, authed(concrete(path, malformed)))).toBe(422);
        const example = Object.values(op.requestBody?.content['application/json']?.examples ?? {})[0]?.value;
        const req = authed(concrete(path, unknown));
        expect(await check('unknown id', method, path, op, example === undefined ? req : req.send(example as object))).toBe(404);
      }
      if (op.requestBody?.content['application/json']) {
        await check('body of the wrong shape', method, path, op, authed(url).set('Content-Type', 'application/json').send('5'));
        expect(await check('unparseable body', method, path, op, authed(url).set('Content-Type', 'application/json').send('{"name": '))).toBe(400);
      }
    }
    expect(undocumented).toEqual([]);
  });

  it('declares no request body on GET /api/applications, which still honours one; POST documents it', async () => {
    expect(doc.paths['/api/applications'].get.requestBody).toBeUndefined();
    expect(doc.paths['/api/applications'].post.requestBody?.content['application/json']?.examples).toBeDefined();
    const filtered = await admin
      .get('/api/applications')
      .send([{ field: 'tier', op: 'eq', value: 'TIER_3' }])
      .expect(200);
    expect(filtered.body.items.map((a: { name: string }) => a.name)).toEqual(['beta']);
  });

  it('has examples that Swagger UI can run as pre-filled without filtering the list', async () => {
    // Swagger UI pre-fills each parameter with its example (or default) and the body with the first example.
    const lists: [string, string, string][] = [
      ['get', '/api/applications', '/api/applications'],
      ['post', '/api/applications', '/api/applications'],
      ['get', '/api/applications/{application_id}/graph_resources', `/api/applications/${appId}/graph_resources`],
    ];
    for (const [method, path, url] of lists) {
      const op = doc.paths[path][method];
      const query: Record<string, unknown> = {};
      for (const p of op.parameters ?? []) {
        const value = p.example ?? p.schema?.example ?? p.schema?.default;
        if (p.in === 'query' && value !== undefined) query[p.name] = Array.isArray(value) ? value.join(',') : value;
      }
      const body = Object.values(op.requestBody?.content['application/json']?.examples ?? {})[0]?.value;
      const send = (q: Record<string, unknown>) => {
        const req = (admin as unknown as Record<string, (u: string) => Test>)[method](url).query(q);
        return body === undefined ? req : req.send(body as object);
      };
      const plain = await send({}).expect(200);
      const prefilled = await send(query);
      expect({ path, method, status: prefilled.status, total: prefilled.body.total }).toEqual({ path, method, status: 200, total: plain.body.total });
      expect(plain.body.total).toBe(2);
    }
  });

  it('gives the scan report a real example: a report of a real upload, its locator naming the line of the evidence', async () => {
    const scan = doc.paths['/api/agent_files/scan'].post.responses['200'].content!['application/json'].schema!;
    expect(scan.example).toEqual(SCAN_REPORT_EXAMPLE);
    expect(validateScanReport(SCAN_REPORT_EXAMPLE)).toEqual([]);
    const lines = SCAN_EXAMPLE_UPLOAD.content.split('\n');
    const [file] = SCAN_REPORT_EXAMPLE.files;
    expect(file.relative_path).toBe(SCAN_EXAMPLE_UPLOAD.filename);
    expect(file.sha256).toBe(createHash('sha256').update(SCAN_EXAMPLE_UPLOAD.content).digest('hex'));
    expect(file.static_findings.length).toBeGreaterThan(0);
    for (const f of file.static_findings) {
      const [, path, line] = /^(.+):(\d+)$/.exec(f.locator)!;
      expect(path).toBe(file.relative_path);
      expect(lines[Number(line) - 1]).toContain(f.evidence);
    }
    // The server still finds the example's findings where the example says.
    const res = await admin.post('/api/agent_files/scan').attach('file', Buffer.from(SCAN_EXAMPLE_UPLOAD.content), SCAN_EXAMPLE_UPLOAD.filename).expect(200);
    const found = (res.body.files[0].static_findings as { rule_id: string; locator: string }[]).map((f) => `${f.rule_id}@${f.locator}`);
    expect(found).toEqual(expect.arrayContaining(file.static_findings.map((f) => `${f.rule_id}@${f.locator}`)));
  });

  it.each(['/docs', '/docs/', '/docs?deepLink=1', '/docs/?deepLink=1', '/docs/index.html', '/docs//'])(
    "serves the UI with its assets and this API's document at %s",
    async (start) => {
      let url = new URL(start, 'http://localhost');
      let res = await t.http().get(start);
      for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 3; hops++) {
        url = new URL(res.headers.location as string, url);
        res = await t.http().get(url.pathname + url.search);
      }
      expect({ start, status: res.status }).toEqual({ start, status: 200 });
      // Resolved as the browser would, against the address it ended at.
      const assets = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1], url).pathname);
      expect(assets).toEqual(expect.arrayContaining(['/docs/swagger-ui-bundle.js', '/docs/swagger-ui-init.js', '/docs/swagger-ui.css']));
      for (const asset of assets) {
        const a = await t.http().get(asset);
        expect({ asset, status: a.status, type: a.headers['content-type'] }).toEqual({ asset, status: 200, type: expect.not.stringMatching(/json/) });
      }
      const init = await t.http().get('/docs/swagger-ui-init.js').expect(200);
      expect(init.text).toContain('"title": "Bulwark API"');
    },
  );
});

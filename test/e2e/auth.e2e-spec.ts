import { Writable } from 'node:stream';
import { BootstrapAdminKey } from '../../src/auth/bootstrap-admin-key';
import { ApiKeyEntity } from '../../src/auth/persistence/api-key.entity';
import { createTestApp, type TestApp } from '../support/create-test-app';

/** Collects every log line the app writes. */
class LogSink extends Writable {
  readonly chunks: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk.toString('utf8'));
    done();
  }
  get text(): string {
    return this.chunks.join('');
  }
}

describe('API-key authentication and tenancy (docs/decisions/0021-tenancy-and-credentials.md)', () => {
  let t: TestApp;
  const logs = new LogSink();

  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_LEVEL: 'info', AUTH_CACHE_TTL_MS: '0' }, logDestination: logs });
  });
  afterAll(() => t.close());

  const listKeys = (token?: string) => {
    const req = t.http().get('/api/admin/api-keys');
    return token === undefined ? req : req.set('Authorization', token);
  };

  it('answers 401 with WWW-Authenticate for missing, malformed, unknown, expired and revoked tokens', async () => {
    const tenant = await t.tenant();
    const expired = await tenant.key(['admin'], { expiresAt: new Date(Date.now() - 1000) });
    const revoked = await tenant.key(['admin']);
    const admin = await tenant.key(['admin']);
    const revokedId = (await t.dataSource.getRepository(ApiKeyEntity).findOneByOrFail({ displayPrefix: revoked.slice(0, 10) })).id;
    await t.http().delete(`/api/admin/api-keys/${revokedId}`).set('Authorization', `Bearer ${admin}`).expect(200);

    const cases: [string, string | undefined, RegExp][] = [
      ['missing', undefined, /missing/i],
      ['malformed scheme', `Basic ${admin}`, /malformed/i],
      ['malformed bearer', 'Bearer', /malformed/i],
      ['unknown', 'Bearer bwk_0123456789abcdefghijABCDEFGHIJ0123456789', /invalid/i],
      ['not a bwk token', 'Bearer not-a-key', /invalid/i],
      ['expired', `Bearer ${expired}`, /expired/i],
      ['revoked', `Bearer ${revoked}`, /revoked/i],
    ];
    for (const [name, header, detail] of cases) {
      const res = await listKeys(header);
      expect({ name, status: res.status }).toEqual({ name, status: 401 });
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body.detail).toMatch(detail);
    }
    await listKeys(`Bearer ${admin}`).expect(200);
  });

  it('answers 403 when the key lacks the scope', async () => {
    const tenant = await t.tenant();
    const scanOnly = await tenant.key(['scan']);
    const res = await listKeys(`Bearer ${scanOnly}`).expect(403);
    expect(res.body.detail).toMatch(/scope/);
  });

  it('creates keys whose token works once stored only as a hash, and isolates tenants', async () => {
    const a = await t.tenant();
    const b = await t.tenant();
    const adminA = await a.key(['admin']);
    const adminB = await b.key(['admin']);

    const created = await t
      .http()
      .post('/api/admin/api-keys')
      .set('Authorization', `Bearer ${adminA}`)
      .send({ name: 'ci', scopes: ['scan'], expires_at: null })
      .expect(200);
    expect(created.body.token).toMatch(/^bwk_[0-9A-Za-z]{40}$/);
    expect(created.body.scopes).toEqual(['scan']);
    const row = await t.dataSource.getRepository(ApiKeyEntity).findOneByOrFail({ id: created.body.id });
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(created.body.token);

    const listA = await listKeys(`Bearer ${adminA}`).expect(200);
    const listB = await listKeys(`Bearer ${adminB}`).expect(200);
    expect(listA.body.map((k: { id: string }) => k.id)).toContain(created.body.id);
    expect(listB.body.map((k: { id: string }) => k.id)).not.toContain(created.body.id);
    for (const k of [...listA.body, ...listB.body]) expect(k).not.toHaveProperty('token');

    // Another tenant's key id is "not found", never revocable.
    await t.http().delete(`/api/admin/api-keys/${created.body.id}`).set('Authorization', `Bearer ${adminB}`).expect(404);
    await t.http().delete('/api/admin/api-keys/not-a-uuid').set('Authorization', `Bearer ${adminA}`).expect(422);
  });

  it('revocation takes effect on the next request', async () => {
    const tenant = await t.tenant();
    const admin = await tenant.key(['admin']);
    const created = await t
      .http()
      .post('/api/admin/api-keys')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: 'short-lived', scopes: ['admin'] })
      .expect(200);
    await listKeys(`Bearer ${created.body.token}`).expect(200);
    await t
      .http()
      .delete(`/api/admin/api-keys/${created.body.id}`)
      .set('Authorization', `Bearer ${admin}`)
      .expect(200, { ok: true, message: `API key ${created.body.id} revoked` });
    await listKeys(`Bearer ${created.body.token}`).expect(401);
  });

  it('validates the create body with 422 locations', async () => {
    const admin = await (await t.tenant()).key(['admin']);
    const res = await t
      .http()
      .post('/api/admin/api-keys')
      .set('Authorization', `Bearer ${admin}`)
      .send({ scopes: ['root'], expires_at: 'soon' })
      .expect(422);
    const locs = res.body.detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.name', 'body.scopes', 'body.expires_at']));
  });

  it('refuses (422) a key whose expires_at is not in the future: its token would never work', async () => {
    const tenant = await t.tenant();
    const admin = await tenant.key(['admin']);
    const create = (expires_at: string) => t.http().post('/api/admin/api-keys').set('Authorization', `Bearer ${admin}`).send({ name: 'ci', expires_at });
    for (const past of ['2020-01-01T00:00:00Z', new Date(Date.now() - 1000).toISOString()]) {
      const res = await create(past).expect(422);
      expect(res.body.detail).toEqual([{ loc: ['body', 'expires_at'], msg: 'must be in the future', type: 'value_error.date.past' }]);
    }
    const before = (await listKeys(`Bearer ${admin}`).expect(200)).body.length;
    expect(before).toBe(1); // nothing was created by the refused requests
    const future = await create(new Date(Date.now() + 3_600_000).toISOString()).expect(200);
    await listKeys(`Bearer ${future.body.token}`).expect(403); // a working token (no admin scope by default)
  });

  it('never writes tokens or Authorization headers to the log', async () => {
    const tenant = await t.tenant();
    const token = await tenant.key(['admin']);
    await listKeys(`Bearer ${token}`).set('X-Request-Id', 'req-123').expect(200);
    await listKeys(`Bearer ${token}x`).expect(401);
    const created = await t.http().post('/api/admin/api-keys').set('Authorization', `Bearer ${token}`).send({ name: 'logged?' }).expect(200);
    const text = logs.text;
    expect(text).toContain('req-123'); // the request was logged, with its id ...
    expect(text).not.toContain(token); // ... but not its credential
    expect(text).not.toContain(created.body.token);
    expect(text).not.toMatch(/bwk_[0-9A-Za-z]{20,}/);
    expect(text.toLowerCase()).not.toContain('authorization');
  });
});

describe('first-start bootstrap key', () => {
  it('prints one admin key when no key exists, and none on later starts', async () => {
    const first = await createTestApp({ env: { DATABASE_URL: 'pglite://memory' } });
    try {
      expect(first.bootstrapLines).toHaveLength(1);
      const token = /^Bootstrap admin API key: (bwk_[0-9A-Za-z]{40})$/.exec(first.bootstrapLines[0]!)?.[1];
      expect(token).toBeDefined();
      const keys = await first.http().get('/api/admin/api-keys').set('Authorization', `Bearer ${token}`).expect(200);
      expect(keys.body).toEqual([expect.objectContaining({ name: 'bootstrap-admin', scopes: ['inventory:read', 'inventory:write', 'scan', 'admin'] })]);
      // A second bootstrap pass (as on a restart, or a second replica) creates nothing.
      await first.app.get(BootstrapAdminKey).onApplicationBootstrap();
      expect(first.bootstrapLines).toHaveLength(1);
    } finally {
      await first.close();
    }
  });
});

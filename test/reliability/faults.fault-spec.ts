import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import Redis from 'ioredis';
import { SCAN_EXECUTOR, SCAN_POOL_OPTIONS } from '../../src/scanner/scanner.tokens';
import type { ScanPoolOptions } from '../../src/scanner/worker/scan-pool';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { openSql, postgresBinDir, PrivatePostgres, PrivateRedis, redisServerAvailable } from './private-services';
import { sleep } from './reliability-support';

/**
 * Faults against real servers (docs/security.md, "Faults"). PRIVATE PostgreSQL and Redis
 * instances are started for this file and stopped/started here; the shared servers on
 * 5432/6379 are never touched. Not part of `npm test` (it would run twice there for nothing):
 * .ci/run runs it once with `jest --selectProjects db --testRegex 'test/reliability/.*\.fault-spec\.ts$'`.
 */
const available = postgresBinDir() !== null && redisServerAvailable();
if (!available) console.warn('faults.fault-spec: PostgreSQL binaries (initdb, pg_ctl) or redis-server not found: fault tests SKIPPED');

const MAIN = resolve(__dirname, '../../dist/main.js');
const ENGINE = join(__dirname, '../fixtures/scan/engines/scripted.engine.ts');

type Outcome = { phase: string; status: number; name?: string };

(available ? describe : describe.skip)('faults on real PostgreSQL and Redis (private instances)', () => {
  let pg: PrivatePostgres;
  let redis: PrivateRedis;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    [pg, redis] = await Promise.all([PrivatePostgres.create(), PrivateRedis.create()]);
    t = await createTestApp({ env: { DATABASE_URL: pg.url(), REDIS_URL: redis.url, LOG_LEVEL: 'error' } });
    token = await (await t.tenant()).key(['admin'], { rateLimitPerMinute: 1_000_000 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await Promise.all([pg?.destroy(), redis?.stop()]);
  });

  const auth = () => ({ Authorization: `Bearer ${token}` });
  const fallbacks = async (): Promise<number> => {
    const text = (await t.http().get('/metrics').expect(200)).text;
    return [...text.matchAll(/^bulwark_rate_limit_store_fallbacks_total\{[^}]*\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  };

  it('PostgreSQL stopped mid-load: 503 (never 500), /health/ready fails, then recovery without restarting the app', async () => {
    const outcomes: Outcome[] = [];
    let phase = 'before';
    let running = true;
    let n = 0;
    const worker = async (w: number) => {
      while (running) {
        const name = `load-${w}-${n++}`;
        const res = n % 2 ? await t.http().get('/api/applications?limit=5').set(auth()) : await t.http().post('/api/applications/').set(auth()).send({ name });
        outcomes.push({ phase, status: res.status, name: res.request.method === 'POST' ? name : undefined });
        if (res.status >= 500) expect(res.text).not.toMatch(/SELECT|INSERT|ECONNREFUSED|terminat|at /);
      }
    };
    const workers = [0, 1, 2, 3].map(worker);
    await sleep(1000);
    phase = 'down';
    await pg.stop('fast');
    await sleep(1500);
    const ready = await t.http().get('/health/ready');
    expect(ready.status).toBe(503);
    expect(JSON.stringify(ready.body)).toMatch(/database/);
    await pg.start();
    phase = 'recovering';
    const deadline = Date.now() + 30_000;
    while ((await t.http().get('/api/applications').set(auth())).status !== 200) {
      if (Date.now() > deadline) throw new Error('no recovery within 30 s of PostgreSQL coming back');
      await sleep(200);
    }
    phase = 'after';
    await sleep(1000);
    running = false;
    await Promise.all(workers);
    await t.http().get('/health/ready').expect(200);

    const by = (p: string) => outcomes.filter((o) => o.phase === p).map((o) => o.status);
    expect(new Set(outcomes.map((o) => o.status))).toEqual(new Set([200, 503]));
    expect(by('before').every((s) => s === 200)).toBe(true);
    expect(by('down')).toContain(503);
    expect(by('after').length).toBeGreaterThan(0);
    expect(by('after').every((s) => s === 200)).toBe(true);
    // Every create answered 200 is stored.
    const client = await openSql(pg.url());
    try {
      const stored = new Set(((await client.query('SELECT name FROM applications')) as { name: string }[]).map((r) => r.name));
      const confirmed = outcomes.filter((o) => o.name && o.status === 200).map((o) => o.name!);
      expect(confirmed.length).toBeGreaterThan(0);
      expect(confirmed.filter((name) => !stored.has(name))).toEqual([]);
    } finally {
      await client.destroy();
    }
    process.stdout.write(`faults/postgres: ${outcomes.length} requests, ${by('down').filter((s) => s === 503).length} answered 503 while down\n`);
  }, 120_000);

  it('Redis stopped: the limiter falls back to per-process counters (metric), the API keeps serving, then Redis is used again', async () => {
    const terms = () => t.http().get('/api/applications/_terms').set(auth());
    const base = await fallbacks();
    for (let i = 0; i < 5; i++) expect((await terms()).headers['x-ratelimit-limit']).toBeDefined();
    expect(await fallbacks()).toBe(base);

    await redis.stop();
    for (let i = 0; i < 10; i++) {
      const res = await terms();
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    }
    expect(await fallbacks()).toBeGreaterThanOrEqual(base + 10);
    expect((await t.http().get('/health/ready')).status).toBe(503);

    await redis.start();
    const deadline = Date.now() + 20_000;
    while ((await t.http().get('/health/ready')).status !== 200) {
      if (Date.now() > deadline) throw new Error('Redis not used again within 20 s');
      await sleep(200);
    }
    const afterRecovery = await fallbacks();
    for (let i = 0; i < 10; i++) expect((await terms()).status).toBe(200);
    expect(await fallbacks()).toBe(afterRecovery);
    const probe = new Redis(redis.url, { lazyConnect: true });
    try {
      await probe.connect();
      expect((await probe.keys('*')).length).toBeGreaterThan(0);
    } finally {
      probe.disconnect();
    }
  }, 60_000);

  it('a scan worker killed mid-scan: 502 for that request only, the other scan completes, the pool recovers', async () => {
    const options: ScanPoolOptions = { threads: 2, maxQueue: 2, timeoutMs: 20_000, engineModule: ENGINE };
    const s = await createTestApp({
      env: { DATABASE_URL: pg.url(), REDIS_URL: redis.url },
      override: (b) => b.overrideProvider(SCAN_POOL_OPTIONS).useValue(options),
    });
    try {
      const scanToken = await (await s.tenant()).key(['scan']);
      const scan = (name: string) =>
        s.http().post('/api/agent_files/scan').set('Authorization', `Bearer ${scanToken}`).attach('file', Buffer.from('# hi\n'), name);
      await scan('warm.md').expect(200);
      const a = scan('sleep-3000.md').then((r) => r.status);
      const b = scan('sleep-3000.md').then((r) => r.status);
      await sleep(1000);
      // The fault: kill one busy worker thread from outside (piscina's threads are the pool's own).
      const threads = (s.app.get(SCAN_EXECUTOR) as { pool?: { threads?: Worker[] } }).pool?.threads ?? [];
      expect(threads.length).toBe(2);
      await threads[0]!.terminate();
      expect([await a, await b].sort()).toEqual([200, 502]);
      const deadline = Date.now() + 30_000;
      let status = 0;
      while ((status = (await scan('after.md')).status) !== 200 && Date.now() < deadline) {
        expect(status).toBe(503); // a replacement worker still booting
        await sleep(500);
      }
      expect(status).toBe(200);
    } finally {
      await s.close();
    }
  }, 90_000);

  it('SIGTERM under load: in-flight requests complete, and no import is half-written', async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} missing: run \`npm run build\` first (.ci/run builds before this step)`);
    const admin = await openSql(pg.url('postgres'));
    await admin.query('CREATE DATABASE shutdown_load');
    await admin.destroy();
    const url = pg.url('shutdown_load');
    const proc: ChildProcess = spawn(process.execPath, [MAIN], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATABASE_URL: url, REDIS_URL: redis.url, EDGE_LIMITS: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((r) => proc.on('exit', (code, signal) => r(code ?? (signal ? 143 : null))));
    const { port, key } = await new Promise<{ port: number; key: string }>((res, rej) => {
      let out = '';
      const timer = setTimeout(() => rej(new Error(`server did not start: ${out}`)), 60_000);
      proc.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on http:\/\/localhost:(\d+)/.exec(out);
        const k = /Bootstrap admin API key: (bwk_\w+)/.exec(out);
        if (m && k) {
          clearTimeout(timer);
          res({ port: Number(m[1]), key: k[1]! });
        }
      });
      proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    });

    // Each import writes 3 services and an application using them, in one transaction.
    const doc = (n: number) => ({
      services: [1, 2, 3].map((i) => ({ id: n * 10 + i, name: `svc-${n}-${i}` })),
      resources: [{ platform_id: `res-${n}`, resource_type: 'aws_s3_bucket', service_ids: [n * 10 + 1] }],
      applications: [{ name: `imp-${n}`, service_ids: [n * 10 + 1, n * 10 + 2, n * 10 + 3] }],
    });
    const results: { n: number; status: number | 'error'; sentAt: number; doneAt: number }[] = [];
    let signalAt = Infinity;
    let next = 1;
    const worker = async () => {
      for (;;) {
        const n = next++;
        const sentAt = Date.now();
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/internal/inventory/import`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Connection: 'close' },
            body: JSON.stringify(doc(n)),
          });
          await res.arrayBuffer();
          results.push({ n, status: res.status, sentAt, doneAt: Date.now() });
        } catch {
          results.push({ n, status: 'error', sentAt, doneAt: Date.now() });
          return; // the server is gone
        }
      }
    };
    const workers = Array.from({ length: 6 }, worker);
    await sleep(1500);
    signalAt = Date.now();
    proc.kill('SIGTERM');
    await Promise.all(workers);
    expect([0, 143]).toContain(await exited);

    const answered = results.filter((r) => r.status !== 'error');
    expect(answered.length).toBeGreaterThan(5);
    // Every request the server answered was completed, including those in flight at SIGTERM.
    expect(answered.filter((r) => r.status !== 200)).toEqual([]);
    // Requests already in flight at the signal (sent 50 ms or more before it) were all answered: only
    // requests that arrived as the server stopped accepting connections failed to connect.
    expect(results.filter((r) => r.status === 'error' && r.sentAt < signalAt - 50)).toEqual([]);
    // And there were such requests: sent before the signal, answered (200, checked above) after it.
    expect(answered.filter((r) => r.sentAt < signalAt && r.doneAt > signalAt).length).toBeGreaterThan(0);
    const client = await openSql(url);
    const count = async (sql: string, params: unknown[]) => ((await client.query(sql, params)) as { c: number }[])[0]!.c;
    try {
      for (const r of results) {
        const services = await count('SELECT count(*)::int AS c FROM inventory_services WHERE id IN ($1, $2, $3)', [r.n * 10 + 1, r.n * 10 + 2, r.n * 10 + 3]);
        const apps = await count('SELECT count(*)::int AS c FROM applications WHERE name = $1', [`imp-${r.n}`]);
        const members = await count('SELECT count(*)::int AS c FROM application_services s JOIN applications a ON a.id = s.application_id WHERE a.name = $1', [
          `imp-${r.n}`,
        ]);
        const written = { services, apps, members };
        // All or nothing: a whole import, or none of it.
        expect([JSON.stringify({ services: 0, apps: 0, members: 0 }), JSON.stringify({ services: 3, apps: 1, members: 3 })]).toContain(JSON.stringify(written));
        if (r.status === 200) expect(written).toEqual({ services: 3, apps: 1, members: 3 });
      }
    } finally {
      await client.destroy();
    }
    process.stdout.write(
      `faults/sigterm: ${answered.length} imports answered 200, ${results.length - answered.length} refused after SIGTERM; all-or-nothing held\n`,
    );
  }, 120_000);
});

if (!available) {
  it.skip('is skipped: PostgreSQL binaries (initdb, pg_ctl) or redis-server not installed', () => undefined);
}

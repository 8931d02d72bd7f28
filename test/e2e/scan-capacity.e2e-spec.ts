import { join } from 'node:path';
import { Writable } from 'node:stream';
import { SCAN_EXECUTOR, SCAN_POOL_OPTIONS } from '../../src/scanner/scanner.tokens';
import type { ScanExecutor, ScanPoolOptions } from '../../src/scanner/worker/scan-pool';
import { validateScanReport } from '../../src/scanner/engine/scan-report.validator';
import { createTestApp, type TestApp } from '../support/create-test-app';

/**
 * 502 and 503 of the scan endpoint, through the real worker pool: the module's SCAN_POOL_OPTIONS
 * provider is overridden to run a scripted engine (crash, hang, sleep, throw) in the worker
 * threads, and a pool of one thread with a queue of one makes saturation deterministic.
 */
const ENGINE = join(__dirname, '../fixtures/scan/engines/scripted.engine.ts');

describe('scan capacity and failures (502/503)', () => {
  let t: TestApp;
  let token: string;
  const logs: { level: number; msg: string }[] = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });

  beforeAll(async () => {
    // Generous deadline: a replacement worker boots through ts-node under Jest (seconds on a busy machine).
    const options: ScanPoolOptions = { threads: 1, maxQueue: 1, timeoutMs: 10_000, engineModule: ENGINE };
    t = await createTestApp({ env: { LOG_LEVEL: 'warn' }, logDestination, override: (b) => b.overrideProvider(SCAN_POOL_OPTIONS).useValue(options) });
    token = await (await t.tenant()).key(['scan']);
    // Warm the pool so timings below measure scans, not thread start-up.
    await scan('warm.md').expect(200);
  });
  afterAll(() => t.close());

  /** "The pool recovers": a later scan gets 200. While the replacement worker boots (seconds under
   *  ts-node on a busy machine) a scan may be refused with 503; that is retried, nothing else is. */
  async function recovered(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const res = await scan('ok.md');
      if (res.status === 200) return;
      if (res.status !== 503 || attempt >= 5) throw new Error(`pool did not recover: HTTP ${res.status}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  function scan(filename: string, text = '# hello\n') {
    return t.http().post('/api/agent_files/scan').set('Authorization', `Bearer ${token}`).attach('file', Buffer.from(text), filename);
  }

  it('200 through the injected engine', async () => {
    const res = await scan('ok.md', 'DANGER\n').expect(200);
    expect(validateScanReport(res.body)).toEqual([]);
    expect(res.body.files[0].static_findings[0].rule_id).toBe('fake.danger');
  });

  it('502 when the worker crashes; the next scan succeeds', async () => {
    const res = await scan('crash.md').expect(502);
    expect(res.body.detail).toMatch(/worker failed/);
    expect(res.headers['retry-after']).toBeUndefined();
    // Logged at error, not only as the request's info line.
    expect(logs.some((l) => l.level === 50 && /^Scan worker crashed .*answered 502/.test(l.msg))).toBe(true);
    await recovered();
  });

  it('502 when the engine throws an unexpected error, without leaking it', async () => {
    const res = await scan('explode.md').expect(502);
    expect(JSON.stringify(res.body)).not.toMatch(/DANGER|engine bug/);
    await scan('ok.md').expect(200);
  });

  it('502 past the internal deadline; only that request fails and the pool recovers', async () => {
    const res = await scan('hang.md').expect(502);
    expect(res.body.detail).toMatch(/deadline/);
    await recovered();
  });

  it('503 with Retry-After when capacity is saturated, and the request is never processed', async () => {
    const running = scan('sleep-1500.md');
    const runningDone = running.then((r) => r);
    await new Promise((r) => setTimeout(r, 300));
    const queued = scan('sleep-10.md').then((r) => r);
    await new Promise((r) => setTimeout(r, 100));
    const t0 = performance.now();
    const rejected = await scan('ok.md');
    expect(rejected.status).toBe(503);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(Number(rejected.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(rejected.body.detail).toMatch(/saturated/);
    expect((await runningDone).status).toBe(200);
    expect((await queued).status).toBe(200);
  });

  it('503 without Retry-After when the scanner is down', async () => {
    await t.app.get<ScanExecutor>(SCAN_EXECUTOR).close();
    const res = await scan('ok.md').expect(503);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(res.body.detail).toMatch(/unavailable/);
  });
});

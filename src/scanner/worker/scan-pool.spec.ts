import { join } from 'node:path';
import { BadRequestError, ScannerFailedError, ServiceUnavailableError } from '../../common/errors';
import { fakeAnalyzer } from '../../../test/fixtures/scan/fake-scan-deps';
import { zipOf } from '../../../test/fixtures/zip/zip-writer';
import { prepareScan } from '../engine/scan-engine';
import { PiscinaScanExecutor } from './scan-pool';

const ENGINE = join(__dirname, '../../../test/fixtures/scan/engines/scripted.engine.ts');
const SLOW_START_ENGINE = join(__dirname, '../../../test/fixtures/scan/engines/slow-start.engine.ts');
const task = (filename: string, text = 'hello DANGER\n') => ({ filename, bytes: Buffer.from(text) });

/** "The pool recovers": a later scan succeeds. While the replacement worker boots (seconds under
 *  ts-node on a busy machine) a scan may be refused with 503; that is retried, nothing else is. */
async function recovered(pool: PiscinaScanExecutor): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await pool.prepare(task('ok.md'));
    } catch (err) {
      if (!(err instanceof ServiceUnavailableError) || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

describe('PiscinaScanExecutor (real worker threads)', () => {
  let pool: PiscinaScanExecutor;
  beforeAll(() => {
    // Generous deadline: a replacement worker boots through ts-node here (seconds on a busy machine).
    pool = new PiscinaScanExecutor({ threads: 1, maxQueue: 1, timeoutMs: 10_000, engineModule: ENGINE });
  });
  afterAll(() => pool.close());

  it('runs the CPU-bound phase in a worker and returns plain data', async () => {
    const prepared = await pool.prepare(task('AGENTS.md'));
    expect(prepared.files[0]).toMatchObject({
      file: { relativePath: 'AGENTS.md', kind: 'agent_file' },
      staticFindings: [expect.objectContaining({ rule_id: 'fake.danger' })],
    });
    expect(pool.stats()).toMatchObject({ started: true, available: true, threads: 1 });
  });

  it('rebuilds domain errors thrown inside the worker', async () => {
    await expect(pool.prepare(task('reject.md'))).rejects.toBeInstanceOf(BadRequestError);
    await expect(pool.prepare({ filename: 'a.md', bytes: new Uint8Array(0) })).rejects.toThrow(/empty/);
  });

  it('answers 502 for a crashed worker, then recovers', async () => {
    const err = await pool.prepare(task('crash.md')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScannerFailedError);
    await expect(recovered(pool)).resolves.toHaveProperty('files');
  });

  it('answers 502 past the internal deadline, then recovers', async () => {
    const err = await pool.prepare(task('hang.md')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScannerFailedError);
    expect((err as Error).message).toMatch(/deadline/);
    await expect(recovered(pool)).resolves.toHaveProperty('files');
  });

  it('answers 503 with Retry-After at once when the queue is full', async () => {
    const running = pool.prepare(task('sleep-1200.md'));
    await new Promise((r) => setTimeout(r, 100));
    const queued = pool.prepare(task('sleep-10.md'));
    const t0 = performance.now();
    const err = await pool.prepare(task('ok.md')).catch((e: unknown) => e);
    expect(performance.now() - t0).toBeLessThan(300);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    await expect(Promise.all([running, queued])).resolves.toHaveLength(2);
  });

  it('refuses with 503 (not a late 502) a scan that waited past half its deadline for a worker', async () => {
    const tight = new PiscinaScanExecutor({ threads: 1, maxQueue: 5, timeoutMs: 2000, engineModule: ENGINE, startTimeoutMs: 60_000 });
    try {
      await tight.prepare(task('warm.md'));
      const running = tight.prepare(task('sleep-1500.md'));
      await new Promise((r) => setTimeout(r, 50));
      const err = await tight.prepare(task('ok.md')).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceUnavailableError);
      expect((err as ServiceUnavailableError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
      await expect(running).resolves.toHaveProperty('files');
      // Once the running average knows scans are slow, a deep queue is refused at admission,
      // before the hard bound (threads + maxQueue = 6) is reached.
      const admitted: Promise<unknown>[] = [];
      let refusedAtAdmission = false;
      for (let i = 0; i < 6 && !refusedAtAdmission; i++) {
        const p = tight.prepare(task('sleep-1500.md')).catch((e: unknown) => e);
        const first = await Promise.race([p, new Promise((r) => setTimeout(() => r('pending'), 100))]);
        if (first instanceof ServiceUnavailableError) refusedAtAdmission = true;
        else admitted.push(p);
      }
      expect(refusedAtAdmission).toBe(true);
      expect(admitted.length).toBeLessThan(6);
      await Promise.all(admitted);
    } finally {
      await tight.close();
    }
  });

  it('answers 503 without Retry-After once closed', async () => {
    const closing = new PiscinaScanExecutor({ threads: 1, maxQueue: 1, timeoutMs: 4000, engineModule: ENGINE });
    await closing.close();
    const err = await closing.prepare(task('ok.md')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).retryAfterSeconds).toBeUndefined();
  });

  it('answers 503 without Retry-After when workers cannot start', async () => {
    const broken = new PiscinaScanExecutor({ threads: 1, maxQueue: 1, timeoutMs: 4000, engineModule: '/nonexistent/engine.js' });
    const err = await broken.prepare(task('ok.md')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).retryAfterSeconds).toBeUndefined();
    expect(broken.stats().available).toBe(false);
    await broken.close();
  });
});

describe('PiscinaScanExecutor start-up', () => {
  it('loads the engine in every worker before the first scan, so no scan spends its deadline on a cold worker', async () => {
    // Loading this engine takes 1.5 s per worker, longer than the 1 s deadline of a scan.
    const pool = new PiscinaScanExecutor({ threads: 2, maxQueue: 2, timeoutMs: 1000, engineModule: SLOW_START_ENGINE, startTimeoutMs: 60_000 });
    try {
      await expect(pool.prepare(task('first.md'))).resolves.toHaveProperty('files');
      // Two at once: one of them runs on the worker the first scan did not use.
      const both = await Promise.all([pool.prepare(task('a.md')), pool.prepare(task('b.md'))]);
      expect(both.map((p) => p.files.length)).toEqual([1, 1]);
    } finally {
      await pool.close();
    }
  }, 120_000);
});

describe('PiscinaScanExecutor sharing a large zip between idle workers', () => {
  const SHARE_FROM = 250;
  const large = zipOf({
    'SKILL.md': `# Skill\n${'Read the notes. '.repeat(20)}\nDANGER one\n`,
    'docs/a.md': 'two\n'.repeat(60),
    'docs/b.md': 'DANGER three\n',
  });
  const small = zipOf({ 'SKILL.md': 'DANGER\n' });
  let pool: PiscinaScanExecutor;
  beforeAll(() => {
    pool = new PiscinaScanExecutor({ threads: 2, maxQueue: 2, timeoutMs: 10_000, engineModule: ENGINE, startTimeoutMs: 60_000, shardMinBytes: SHARE_FROM });
  });
  afterAll(() => pool.close());

  it('answers with the scan one worker would give', async () => {
    expect(large.length).toBeGreaterThanOrEqual(SHARE_FROM);
    const whole = prepareScan({ filename: 'b.zip', bytes: large }, { analyzer: fakeAnalyzer });
    await expect(pool.prepare({ filename: 'b.zip', bytes: large })).resolves.toEqual(whole);
  }, 120_000);

  it('runs a part on each idle worker, and a part that fails fails the scan with 502', async () => {
    const err = await pool.prepare({ filename: 'crash-second-part.zip', bytes: large }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScannerFailedError);
    await expect(recovered(pool)).resolves.toHaveProperty('files');
  }, 120_000);

  it('runs a small zip, or one that finds a worker busy, on one worker', async () => {
    expect(small.length).toBeLessThan(SHARE_FROM);
    await expect(pool.prepare({ filename: 'crash-second-part.zip', bytes: small })).resolves.toHaveProperty('files');
    const busy = pool.prepare(task('sleep-1500.md'));
    await new Promise((r) => setTimeout(r, 200));
    await expect(pool.prepare({ filename: 'crash-second-part.zip', bytes: large })).resolves.toHaveProperty('files');
    await expect(busy).resolves.toHaveProperty('files');
  }, 120_000);
});

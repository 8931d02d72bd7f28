import fc from 'fast-check';
import { validateScanReport } from '../../src/scanner/engine/scan-report.validator';
import { DEFAULT_SCAN_LIMITS } from '../../src/scanner/archive/scan-limits';
import { buildZip } from '../fixtures/zip/zip-writer';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { markdownDocument, uploadName, zipEntry } from './fuzz-arbitraries';
import { fuzzRuns, fuzzSeed } from './reliability-support';

/**
 * Fuzzing the scan endpoint (docs/security.md): random bytes, generated zips with random entries,
 * flags and sizes (sometimes corrupted), random Markdown with frontmatter and hostile Unicode.
 * Invariants: the answer is a valid report (200) or a documented refusal (400/413/422), never
 * another 5xx than 502/503, never a hang (per-request timeout), heap bounded. Seeded
 * (FUZZ_SEED to replay); runs per property from FUZZ_RUNS (`npm run fuzz`), else a CI default
 * further capped by a time budget per property.
 */
const RUNS = fuzzRuns(40);
const TIME_BUDGET_MS = process.env.FUZZ_RUNS ? 30 * 60_000 : 6_000;
const REQUEST_TIMEOUT_MS = 30_000;
const ALLOWED = new Set([200, 400, 413, 422, 502, 503]);

describe('scan endpoint fuzzing', () => {
  let t: TestApp;
  let token: string;
  const statuses: Record<string, number> = {};
  let cases = 0;
  let heapBefore = 0;

  beforeAll(async () => {
    t = await createTestApp();
    token = await (await t.tenant()).key(['scan'], { rateLimitPerMinute: 1_000_000 });
    // Warm the worker pool so the time budget measures scans, not thread start-up.
    await scan(Buffer.from('# warm\n'), 'SKILL.md');
    heapBefore = process.memoryUsage().heapUsed;
  });
  afterAll(async () => {
    process.stdout.write(`scan fuzz: ${cases} cases, statuses ${JSON.stringify(statuses)}\n`);
    await t.close();
  });

  async function scan(bytes: Buffer, filename: string): Promise<{ status: number; body: unknown }> {
    const res = await t
      .http()
      .post('/api/agent_files/scan')
      .set('Authorization', `Bearer ${token}`)
      .timeout(REQUEST_TIMEOUT_MS)
      .attach('file', bytes, { filename: filename || 'x' });
    return { status: res.status, body: res.body };
  }

  async function check(bytes: Buffer, filename: string): Promise<void> {
    cases++;
    const { status, body } = await scan(bytes, filename);
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (!ALLOWED.has(status)) throw new Error(`status ${status} for ${filename} (${bytes.length} bytes): ${JSON.stringify(body).slice(0, 300)}`);
    if (status === 200) {
      const errors = validateScanReport(body);
      if (errors.length) throw new Error(`invalid report for ${filename}: ${errors.slice(0, 3).join('; ')}`);
    } else if (typeof (body as { detail?: unknown }).detail === 'undefined') {
      throw new Error(`status ${status} without a detail body`);
    }
  }

  function run<T>(property: fc.IAsyncProperty<T>, numRuns = RUNS): Promise<void> {
    return fc.assert(property, { numRuns, seed: fuzzSeed(), interruptAfterTimeLimit: TIME_BUDGET_MS, markInterruptAsFailure: false, endOnFailure: true });
  }

  it('random bytes under random names', () =>
    run(fc.asyncProperty(fc.uint8Array({ minLength: 0, maxLength: 8192 }), uploadName, (bytes, name) => check(Buffer.from(bytes), name))));

  it('random Markdown with frontmatter and hostile Unicode (tags, bidi, zero-width)', () =>
    run(
      fc.asyncProperty(markdownDocument, fc.constantFrom('SKILL.md', 'AGENTS.md', 'CLAUDE.md', '.cursorrules', 'x.mdc', 'README.md'), (text, name) =>
        check(Buffer.from(text, 'utf8'), name),
      ),
    ));

  it('generated zips: random entries, flags, methods, declared sizes, corruption', () =>
    run(
      fc.asyncProperty(
        fc.array(zipEntry, { minLength: 0, maxLength: 5 }),
        fc.option(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 0xffff }), { nil: undefined }),
        async (entries, corrupt, totalEntries) => {
          const zip = buildZip({ entries, totalEntries });
          if (corrupt && zip.length) zip[corrupt[0] % zip.length] = corrupt[1];
          await check(zip, 'bundle.zip');
        },
      ),
    ));

  it('near the limits: files around 250 KB and uploads around 1 MB', () =>
    run(
      fc.asyncProperty(fc.integer({ min: -2, max: 2 }), fc.boolean(), async (delta, asZip) => {
        const size = (asZip ? DEFAULT_SCAN_LIMITS.maxFileBytes : DEFAULT_SCAN_LIMITS.maxUploadBytes) + delta;
        const text = Buffer.alloc(Math.max(1, size), 0x61);
        await check(asZip ? buildZip({ entries: [{ name: 'SKILL.md', data: text, method: 0 }] }) : text, asZip ? 'bundle.zip' : 'SKILL.md');
      }),
      // 10 distinct inputs; more runs only repeat megabyte uploads.
      Math.min(RUNS, 10),
    ));

  it('ran cases, and the heap stayed bounded', () => {
    expect(cases).toBeGreaterThanOrEqual(20);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(512 * 1024 * 1024);
  });
});

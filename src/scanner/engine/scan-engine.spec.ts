import { BadRequestError, PayloadTooLargeError, ScannerFailedError } from '../../common/errors';
import { HOSTILE_CASES } from '../../../test/fixtures/zip/hostile-zips';
import { appleDouble } from '../../../test/fixtures/zip/os-metadata-files';
import { zipOf } from '../../../test/fixtures/zip/zip-writer';
import { fakeAnalyzer, fakeScoreFile, tableJudge } from '../../../test/fixtures/scan/fake-scan-deps';
import { mergeShards, prepareScan, scanUpload, shardOwners, type ScanDeps } from './scan-engine';
import { validateScanReport } from './scan-report.validator';
import type { AnalysisBundle, Judge, JudgeInput, ScanReport } from './scan-report.types';

const deps: ScanDeps = { analyzer: fakeAnalyzer, scoreFile: fakeScoreFile };
const SKILL = '---\nname: demo\ndescription: Demo.\n---\n# Demo\nSummarise the README.\n';

async function scan(filename: string, bytes: Buffer | string, extra: Partial<ScanDeps> = {}): Promise<ScanReport> {
  const report = await scanUpload({ filename, bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes }, { ...deps, ...extra });
  expect(validateScanReport(report)).toEqual([]);
  return report;
}

describe('scanUpload: single files', () => {
  it('scans one file and reports kind, score, sha256 and a static summary', async () => {
    const r = await scan('SKILL.md', `${SKILL}DANGER here\n`);
    expect(r.files).toHaveLength(1);
    const f = r.files[0];
    expect(f).toMatchObject({ relative_path: 'SKILL.md', kind: 'agent_file', score: 70, band: 'low', content_skipped: false, assessed_intent: null });
    expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(f.static_findings.map((s) => s.locator)).toEqual(['SKILL.md:7']);
    expect(f.score_breakdown?.coverage.judge_status).toBe('disabled');
    expect(r.summary).toEqual({
      file_count: 1,
      scored_count: 1,
      judged_count: 0,
      worst_score: 70,
      worst_band: 'low',
      aggregate_assessed_intent: null,
      decision: 'allow',
      coverage: { files_analysed: 1, files_not_analysed: 0, bytes_analysed: 79, bytes_total: 79 },
    });
  });

  it('hashes the original bytes', async () => {
    const r = await scan('a.md', 'hello');
    expect(r.files[0].sha256).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
  });

  it('scores a binary uploaded alone from its not-analysed finding (nothing else can carry it)', async () => {
    const elf = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3]);
    const r = await scan('tool', elf);
    expect(r.files[0]).toMatchObject({ kind: 'binary', content_skipped: true, skip_reason: 'binary', score: 70 });
    expect(r.files[0].static_findings).toEqual([expect.objectContaining({ rule_id: 'bundle.opaque-binary', severity: 'high', locator: 'tool:1' })]);
    expect(r.files[0].score_breakdown.coverage).toEqual({ bytes_analysed: 0, bytes_total: elf.length, judge_status: 'skipped', skip_reason: 'binary' });
    expect(r.summary).toMatchObject({
      file_count: 1,
      scored_count: 1,
      decision: 'review',
      coverage: { files_analysed: 0, files_not_analysed: 1, bytes_analysed: 0, bytes_total: elf.length },
    });
  });

  it('leaves an empty upload of a harmless skip unscored', async () => {
    const r = await scan('b.zip', zipOf({ 'empty.md': '' }));
    expect(r.files[0]).toMatchObject({ content_skipped: true, skip_reason: 'empty', score: null, band: 'info' });
    expect(r.summary).toMatchObject({ worst_band: null, decision: 'allow' });
  });

  it('throws the typed errors for empty and oversized uploads', async () => {
    await expect(scanUpload({ filename: 'a.md', bytes: Buffer.alloc(0) }, deps)).rejects.toBeInstanceOf(BadRequestError);
    await expect(scanUpload({ filename: 'a.md', bytes: Buffer.alloc(251 * 1024, 0x61) }, deps)).rejects.toBeInstanceOf(PayloadTooLargeError);
  });
});

describe('scanUpload: bundles', () => {
  it('passes the whole bundle to the analyzer and attaches skipped-file risk to SKILL.md', async () => {
    const seen: AnalysisBundle[] = [];
    const analyzer = { analyze: (...args: Parameters<typeof fakeAnalyzer.analyze>) => (seen.push(args[1]), fakeAnalyzer.analyze(...args)) };
    const r = await scan(
      'bundle.zip',
      zipOf({ 'skill/SKILL.md': SKILL, 'skill/run.sh': '#!/bin/sh\necho ok\n', 'skill/inner.zip': zipOf({ 'x.sh': 'rm -rf /' }) }),
      { analyzer },
    );
    expect(seen[0].primaryPath).toBe('skill/SKILL.md');
    expect(seen[0].files.map((f) => f.relativePath).sort()).toEqual(['skill/SKILL.md', 'skill/run.sh']);
    expect(seen[0].skipped).toEqual([{ relativePath: 'skill/inner.zip', kind: 'archive', skipReason: 'nested_archive', byteLength: expect.any(Number) }]);

    const byPath = Object.fromEntries(r.files.map((f) => [f.relative_path, f]));
    expect(byPath['skill/inner.zip']).toMatchObject({ kind: 'archive', content_skipped: true, skip_reason: 'nested_archive', score: null });
    expect(byPath['skill/inner.zip'].verdict.decision).toBe('review');
    expect(byPath['skill/run.sh'].kind).toBe('script');
    const primary = byPath['skill/SKILL.md'];
    expect(primary.static_findings).toEqual([
      expect.objectContaining({ rule_id: 'bundle.nested-archive', locator: 'skill/SKILL.md:1', evidence: expect.stringContaining('skill/inner.zip') }),
    ]);
    expect(primary.score).toBe(70);
    expect(r.summary.file_count).toBe(3);
  });

  it('lists directories, OS metadata and empty files as skipped; counts only real files', async () => {
    const r = await scan('b.zip', zipOf({ 'd/': '', 'd/SKILL.md': SKILL, 'd/empty.md': '', '__MACOSX/d/._SKILL.md': appleDouble() }));
    const reasons = Object.fromEntries(r.files.map((f) => [f.relative_path, f.skip_reason ?? null]));
    expect(reasons).toEqual({ d: 'directory', 'd/SKILL.md': null, 'd/empty.md': 'empty', '__MACOSX/d/._SKILL.md': 'os_metadata' });
    expect(r.summary.file_count).toBe(2);
    // Harmless skips carry no finding on the primary file.
    expect(r.files.find((f) => f.relative_path === 'd/SKILL.md')?.static_findings).toEqual([]);
  });

  it('gives a directory the kind `directory`, and reports __MACOSX folders and their AppleDouble files as skipped metadata', async () => {
    const r = await scan('b.zip', zipOf({ 'd/': '', 'd/SKILL.md': SKILL, '__MACOSX/': '', '__MACOSX/d/': '', '__MACOSX/d/._SKILL.md': appleDouble() }));
    expect(r.files.map((f) => [f.relative_path, f.kind, f.skip_reason ?? null])).toEqual([
      ['__MACOSX', 'directory', 'os_metadata'],
      ['__MACOSX/d', 'directory', 'os_metadata'],
      ['__MACOSX/d/._SKILL.md', 'binary', 'os_metadata'],
      ['d', 'directory', 'directory'],
      ['d/SKILL.md', 'agent_file', null],
    ]);
    expect(r.files.filter((f) => f.content_skipped).map((f) => f.verdict.decision)).toEqual(['allow', 'allow', 'allow', 'allow']);
    expect(r.summary).toMatchObject({ file_count: 1, coverage: { files_analysed: 1, files_not_analysed: 0 } });
    expect(r.files.find((f) => f.relative_path === 'd/SKILL.md')?.static_findings).toEqual([]);
  });

  it('gives every skipped entry a score breakdown whose coverage says why it was not analysed', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]);
    const r = await scan('b.zip', zipOf({ 'd/': '', 'd/SKILL.md': SKILL, 'd/empty.md': '', 'd/logo.png': png }));
    const coverage = Object.fromEntries(r.files.map((f) => [f.relative_path, f.score_breakdown.coverage]));
    expect(coverage).toEqual({
      d: { bytes_analysed: 0, bytes_total: 0, judge_status: 'skipped', skip_reason: 'directory' },
      'd/SKILL.md': { bytes_analysed: SKILL.length, bytes_total: SKILL.length, judge_status: 'disabled' },
      'd/empty.md': { bytes_analysed: 0, bytes_total: 0, judge_status: 'skipped', skip_reason: 'empty' },
      'd/logo.png': { bytes_analysed: 0, bytes_total: png.length, judge_status: 'skipped', skip_reason: 'binary' },
    });
    // Nothing was scored on a skipped entry: no risk and no ceiling.
    expect(r.files.find((f) => f.relative_path === 'd/logo.png')?.score_breakdown).toMatchObject({
      raw_score: 100,
      ceiling: { value: 100, source: null },
      static_risk: 0,
      judge_risk: 0,
    });
  });

  it('reports bytecode and binaries as skipped with their reason and a finding each', async () => {
    const r = await scan(
      'b.zip',
      zipOf({
        'SKILL.md': SKILL,
        'helper.pyc': Buffer.from([0x6f, 0x0d, 0x0d, 0x0a, 0, 0, 0, 0]),
        'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]),
      }),
    );
    expect(r.files.map((f) => [f.relative_path, f.kind, f.skip_reason ?? null])).toEqual([
      ['SKILL.md', 'agent_file', null],
      ['helper.pyc', 'binary', 'bytecode'],
      ['logo.png', 'binary', 'binary'],
    ]);
    const ids = r.files
      .find((f) => f.relative_path === 'SKILL.md')
      ?.static_findings.map((f) => f.rule_id)
      .sort();
    expect(ids).toEqual(['bundle.bytecode', 'bundle.opaque-binary']);
  });

  it('produces a valid report for every accepted hostile-catalogue case', async () => {
    for (const c of HOSTILE_CASES.filter((h) => h.status === 200)) await scan(c.filename, c.build());
  });
});

describe('scanUpload: judge and summary rules', () => {
  it('aggregates the most severe judged intent and counts judged files', async () => {
    const r = await scan('b.zip', zipOf({ 'SKILL.md': SKILL, 'a.md': 'x', 'b.md': 'y' }), {
      judge: tableJudge({ 'a.md': 'suspicious', 'b.md': 'malicious', 'SKILL.md': 'benign' }),
    });
    expect(r.summary).toMatchObject({ judged_count: 3, aggregate_assessed_intent: 'malicious' });
    expect(r.files.find((f) => f.relative_path === 'b.md')?.assessed_intent).toBe('malicious');
  });

  it('without a judge, carries the static intent but counts no file as judged', async () => {
    // A critical band from findings of no intent-showing rule: risky practice, static intent suspicious.
    const r = await scan('SKILL.md', 'DANGER\nDANGER\nDANGER\n');
    expect(r.files[0]).toMatchObject({ band: 'critical', assessed_intent: 'suspicious' });
    expect(r.files[0].score_breakdown.coverage.judge_status).toBe('disabled');
    expect(r.summary).toMatchObject({ judged_count: 0, aggregate_assessed_intent: 'suspicious' });
  });

  it('takes worst_score and worst_band from the lowest-scored file', async () => {
    const r = await scan('b.zip', zipOf({ 'SKILL.md': SKILL, 'a.md': 'DANGER\nDANGER\nDANGER\n' }));
    expect(r.summary).toMatchObject({ worst_score: 10, worst_band: 'critical', scored_count: 2 });
  });

  it('scores statically when the judge throws or fails, with intent null', async () => {
    const throwing: Judge = { provider: 'openai', judge: () => Promise.reject(new Error('boom')) };
    const r = await scan('SKILL.md', SKILL, { judge: throwing });
    expect(r.files[0]).toMatchObject({ assessed_intent: null, score: 100 });
    expect(r.files[0].score_breakdown?.coverage.judge_status).toBe('provider_error');
    const timedOut: Judge = {
      provider: 'openai',
      judge: () => Promise.resolve({ status: 'timeout', assessed_intent: 'malicious', confidence: null, findings: [], demoted_rule_ids: [] }),
    };
    const r2 = await scan('SKILL.md', SKILL, { judge: timedOut });
    expect(r2.files[0].assessed_intent).toBeNull();
    expect(r2.summary.judged_count).toBe(0);
  });

  it('gives the judge the static findings and the abort signal', async () => {
    const inputs: JudgeInput[] = [];
    const spy: Judge = { provider: 'openai', judge: (i) => (inputs.push(i), tableJudge({}).judge(i)) };
    const controller = new AbortController();
    await scan('SKILL.md', `${SKILL}DANGER\n`, { judge: spy, signal: controller.signal });
    expect(inputs[0].staticFindings.map((f) => f.rule_id)).toEqual(['fake.danger']);
    expect(inputs[0].signal).toBe(controller.signal);
  });
});

describe('scanUpload: failures and bounds', () => {
  it('maps an analyzer crash to ScannerFailedError without content in the message', async () => {
    const analyzer = {
      analyze: () => {
        throw new Error('secret content DANGER');
      },
    };
    const err = await scanUpload({ filename: 'a.md', bytes: Buffer.from('x') }, { ...deps, analyzer }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScannerFailedError);
    expect((err as Error).message).not.toMatch(/secret|DANGER/);
  });

  it('fails with 502 when the deadline passes during the CPU-bound phase', async () => {
    const controller = new AbortController();
    const analyzer = { analyze: (...a: Parameters<typeof fakeAnalyzer.analyze>) => (controller.abort(), fakeAnalyzer.analyze(...a)) };
    await expect(scanUpload({ filename: 'a.md', bytes: Buffer.from('x') }, { ...deps, analyzer, signal: controller.signal })).rejects.toThrow(/deadline/);
  });

  it('scores statically (no 502) when the deadline passes while judging', async () => {
    const controller = new AbortController();
    const slow: Judge = {
      provider: 'openai',
      judge: () => (controller.abort(), Promise.resolve({ status: 'timeout', assessed_intent: null, confidence: null, findings: [], demoted_rule_ids: [] })),
    };
    const r = await scan('a.md', 'DANGER\n', { judge: slow, signal: controller.signal });
    expect(r.files[0]).toMatchObject({ score: 70, assessed_intent: null });
    expect(r.files[0].score_breakdown?.coverage.judge_status).toBe('timeout');
  });

  it('prepareScan output survives structured cloning (worker boundary)', () => {
    const prepared = prepareScan(
      { filename: 'b.zip', bytes: zipOf({ 'SKILL.md': `${SKILL}DANGER\n`, 'x.pyc': Buffer.from([1, 2, 13, 10]) }) },
      { analyzer: fakeAnalyzer },
    );
    expect(structuredClone(prepared)).toEqual(prepared);
  });

  it('rejects an out-of-range score from scoring as a scanner failure', async () => {
    const bad = (i: Parameters<typeof fakeScoreFile>[0]) => ({ ...fakeScoreFile(i), score: 101 });
    await expect(scanUpload({ filename: 'a.md', bytes: Buffer.from('x') }, { ...deps, scoreFile: bad })).rejects.toBeInstanceOf(ScannerFailedError);
  });

  it('bounds and redacts evidence from any source', async () => {
    const key = `AKIA${'ABCDEFGHIJKLMNOP'}`;
    const r = await scan('a.md', `DANGER ${key} ${'x'.repeat(1000)}\n`);
    const ev = r.files[0].static_findings[0].evidence;
    expect(ev.length).toBeLessThanOrEqual(240);
    expect(ev).not.toContain(key);
    expect(ev).toContain('[REDACTED:aws_access_key_id]');
  });

  it('reports invalid UTF-8 as a finding instead of failing', async () => {
    const r = await scan('a.md', Buffer.concat([Buffer.from('line one\nbad '), Buffer.from([0xc3, 0x28]), Buffer.from(' here\n')]));
    expect(r.files[0].content_skipped).toBe(false);
    expect(r.files[0].static_findings).toEqual([expect.objectContaining({ rule_id: 'encoding.invalid-sequences', locator: 'a.md:2' })]);
  });

  it('decodes UTF-16 with a BOM and analyses the text', async () => {
    const text = Buffer.from('\ufeffhello\nDANGER\n', 'utf16le');
    const r = await scan('AGENTS.md', text);
    expect(r.files[0].static_findings.map((f) => f.locator)).toEqual(['AGENTS.md:2']);
  });
});

describe('a scan shared between workers (shards)', () => {
  it('gives each part a share of the bytes: largest file first, to the lightest part, the same split everywhere', () => {
    expect(shardOwners([100, 100, 100], 2)).toEqual([0, 1, 0]);
    expect(shardOwners([10, 300, 20, 250, 40], 2)).toEqual([0, 0, 1, 1, 1]);
    expect(shardOwners([5, 5], 3)).toEqual([0, 1]);
    expect(shardOwners([], 2)).toEqual([]);
  });

  it('merges its parts into the scan of the whole bundle, files in bundle order, whatever order the parts come in', () => {
    const bundle = {
      'SKILL.md': `${SKILL}DANGER here\n`,
      'docs/guide.md': `Guide.\n${'word '.repeat(400)}\nDANGER\n`,
      'scripts/run.sh': 'echo DANGER\n'.repeat(30),
      'notes.txt': 'plain notes\n',
      'x.pyc': Buffer.from([1, 2, 13, 10]),
      'empty.md': '',
    };
    const upload = { filename: 'b.zip', bytes: zipOf(bundle) };
    const limits = { maxFiles: 10 };
    const whole = prepareScan(upload, { analyzer: fakeAnalyzer, limits });
    expect(whole.files).toHaveLength(4);
    for (const count of [2, 3, 4]) {
      const parts = Array.from({ length: count }, (_, index) => prepareScan(upload, { analyzer: fakeAnalyzer, limits, shard: { index, count } }));
      // Each part analysed only its own files.
      expect(parts.map((p) => p.files.length).reduce((a, b) => a + b, 0)).toBe(whole.files.length);
      expect(structuredClone(mergeShards([...parts].reverse()))).toEqual(whole);
    }
  });

  it('refuses parts that do not add up to the bundle (a file twice or missing) as a scanner failure', () => {
    const upload = { filename: 'b.zip', bytes: zipOf({ 'a.md': 'DANGER\n', 'b.md': 'ok\n', 'c.md': 'DANGER\n' }) };
    const part = (index: number) => prepareScan(upload, { analyzer: fakeAnalyzer, shard: { index, count: 2 } });
    expect(() => mergeShards([part(0)])).toThrow(ScannerFailedError);
    expect(() => mergeShards([part(0), part(0), part(1)])).toThrow(ScannerFailedError);
    expect(() => mergeShards([prepareScan(upload, { analyzer: fakeAnalyzer })])).toThrow(ScannerFailedError);
    expect(mergeShards([part(1), part(0)]).files.map((f) => f.file.relativePath)).toEqual(['a.md', 'b.md', 'c.md']);
  });
});

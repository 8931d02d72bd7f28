import { Writable } from 'node:stream';
import { validateScanReport } from '../../src/scanner/engine/scan-report.validator';
import { HOSTILE_CASES, noiseText } from '../fixtures/zip/hostile-zips';
import { appleDouble } from '../fixtures/zip/os-metadata-files';
import { zipOf } from '../fixtures/zip/zip-writer';
import { createTestApp, type TestApp } from '../support/create-test-app';

/**
 * POST /api/agent_files/scan over HTTP with the real pipeline (worker pool, rule engine, `none`
 * judge): every status the endpoint documents except 502/503 (scan-capacity.e2e-spec.ts), the
 * hostile-archive catalogue, and privacy of logs.
 */
const SECRET_MARKER = 'UNIQUE-CONTENT-MARKER-7f3a';
const SKILL = `---\nname: notes\ndescription: Summarise notes.\n---\n# Notes\n${SECRET_MARKER}\nSummarise the README for the user.\n`;

describe('POST /api/agent_files/scan', () => {
  let t: TestApp;
  let token: string;
  const logs: string[] = [];

  beforeAll(async () => {
    const logDestination = new Writable({
      write(chunk: Buffer, _enc, cb) {
        logs.push(chunk.toString());
        cb();
      },
    });
    // A generous deadline: admission control (503 when the expected wait exceeds half of it) is
    // tested in scan-capacity; here a loaded CI machine must not turn heavy scans into 503s.
    t = await createTestApp({ env: { LOG_LEVEL: 'debug', SCAN_TIMEOUT_MS: '120000' }, logDestination });
    token = await (await t.tenant()).key(['scan']);
  });
  afterAll(() => t.close());

  // `filepath` (not `filename`): form-data would reduce the name to its base name.
  const scan = (bytes: Buffer, filename = 'SKILL.md') =>
    t
      .http()
      .post('/api/agent_files/scan')
      .set('Authorization', `Bearer ${token}`)
      .attach('file', bytes, { filepath: filename, contentType: 'application/octet-stream' } as unknown as { filename: string });

  it('200: scans a single file and returns a schema-valid report', async () => {
    const res = await scan(Buffer.from(SKILL), '.claude/commands/notes.md').expect(200);
    expect(validateScanReport(res.body)).toEqual([]);
    expect(res.body.files[0]).toMatchObject({ relative_path: '.claude/commands/notes.md', kind: 'agent_file', content_skipped: false });
    expect(res.body.summary).toMatchObject({ file_count: 1, scored_count: 1, judged_count: 0, aggregate_assessed_intent: null });
  });

  it('200: scans a zip bundle decided by content, with skipped entries listed', async () => {
    const bundle = zipOf({
      'SKILL.md': SKILL,
      'scripts/run.sh': '#!/bin/sh\necho ok\n',
      'inner.zip': zipOf({ 'x.md': 'x' }),
      '__MACOSX/._SKILL.md': appleDouble(),
    });
    const res = await scan(bundle, 'skill-upload').expect(200);
    expect(validateScanReport(res.body)).toEqual([]);
    const byPath = Object.fromEntries(res.body.files.map((f: { relative_path: string }) => [f.relative_path, f]));
    expect(Object.keys(byPath).sort()).toEqual(['SKILL.md', '__MACOSX/._SKILL.md', 'inner.zip', 'scripts/run.sh']);
    expect(byPath['inner.zip']).toMatchObject({ content_skipped: true, skip_reason: 'nested_archive', score: null, band: 'info' });
    expect(byPath['SKILL.md'].static_findings.map((f: { rule_id: string }) => f.rule_id)).toContain('bundle.nested-archive');
    expect(res.body.summary.file_count).toBe(3);
  });

  it('200: keeps a non-ASCII file name intact', async () => {
    const res = await scan(Buffer.from('# Règles\n'), 'règles/AGENTS.md').expect(200);
    expect(res.body.files[0].relative_path).toBe('règles/AGENTS.md');
  });

  it('401: without a token, and with an invalid token', async () => {
    await t.http().post('/api/agent_files/scan').attach('file', Buffer.from('x'), 'a.md').expect(401);
    await t
      .http()
      .post('/api/agent_files/scan')
      .set('Authorization', 'Bearer bwk_notarealtokennotarealtokennotarealtoken')
      .attach('file', Buffer.from('x'), 'a.md')
      .expect(401);
  });

  it('403: a key without the scan scope', async () => {
    const readOnly = await (await t.tenant()).key(['inventory:read']);
    await t.http().post('/api/agent_files/scan').set('Authorization', `Bearer ${readOnly}`).attach('file', Buffer.from('x'), 'a.md').expect(403);
  });

  it('400: an empty upload', async () => {
    const res = await scan(Buffer.alloc(0), 'a.md').expect(400);
    expect(res.body.detail).toMatch(/empty/i);
  });

  it('413: an upload over 1 MB is refused while streaming, naming the file and the limit', async () => {
    const res = await scan(noiseText(1024 * 1024 + 10), 'big.md').expect(413);
    expect(res.body.detail).toMatch(/"big\.md" is larger than 1 MB/);
  });

  it('413: more than 3 files names the first file over the count and the limit (directories and OS metadata not counted)', async () => {
    const res = await scan(
      zipOf({
        'skill/': '',
        'skill/SKILL.md': 'a',
        '__MACOSX/skill/._SKILL.md': appleDouble(),
        'skill/a.sh': 'b',
        'skill/b.py': 'c',
        'skill/c.json': '{}',
        'skill/d.md': 'd',
      }),
      'four.zip',
    ).expect(413);
    expect(res.body.detail).toBe(
      'Upload exceeds a limit: the zip archive holds 5 files; the limit is 3 files per upload (the first file over it is "skill/c.json").',
    );
  });

  it('422: no file field, another field name, an extra field, two files, not multipart', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    const cases = [
      t.http().post('/api/agent_files/scan').set(auth).field('note', 'x'),
      t.http().post('/api/agent_files/scan').set(auth).attach('upload', Buffer.from('x'), 'a.md'),
      t.http().post('/api/agent_files/scan').set(auth).field('note', 'x').attach('file', Buffer.from('x'), 'a.md'),
      t.http().post('/api/agent_files/scan').set(auth).attach('file', Buffer.from('x'), 'a.md').attach('file', Buffer.from('y'), 'b.md'),
      t.http().post('/api/agent_files/scan').set(auth).send({ file: 'x' }),
    ];
    for (const req of cases) {
      const res = await req.expect(422);
      expect(res.body.detail).toEqual([{ loc: expect.arrayContaining(['body']), msg: expect.any(String), type: expect.stringMatching(/^value_error\./) }]);
    }
    const missing = await t.http().post('/api/agent_files/scan').set(auth).attach('upload', Buffer.from('x'), 'a.md').expect(422);
    expect(missing.body.detail[0].loc).toEqual(['body', 'file']);
  });

  it('422: a malformed multipart body', async () => {
    const res = await t
      .http()
      .post('/api/agent_files/scan')
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'multipart/form-data; boundary=XYZ')
      .send('--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.md"\r\n\r\nunterminated')
      .expect(422);
    expect(res.body.detail[0].type).toBe('value_error.multipart');
  });

  describe('hostile archives', () => {
    it.each(HOSTILE_CASES.map((c) => [c.name, c] as const))('%s', async (_n, c) => {
      const res = await scan(c.build(), c.filename);
      expect(res.status).toBe(c.status);
      if (c.status === 200) expect(validateScanReport(res.body)).toEqual([]);
      else expect(typeof res.body.detail).toBe('string');
      if (c.detail) expect(res.body.detail).toMatch(c.detail);
    });
  });

  it('keeps the event loop responsive while scans run (health answers)', async () => {
    const heavy = zipOf({ 'a.md': noiseText(240 * 1024, 'a'), 'b.md': noiseText(240 * 1024, 'b'), 'c.md': noiseText(240 * 1024, 'c') });
    const scans = Array.from({ length: 4 }, () => scan(heavy, 'b.zip'));
    const t0 = performance.now();
    await t.http().get('/health/live').expect(200);
    const healthMs = performance.now() - t0;
    const done = await Promise.all(scans);
    expect(done.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(healthMs).toBeLessThan(1000);
  });

  it('writes no file content, evidence or file names to the logs', () => {
    const all = logs.join('');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(SECRET_MARKER);
    expect(all).not.toContain('SKILL.md');
    expect(all).not.toContain('règles');
    expect(all).not.toContain('scripts/run.sh');
  });
});

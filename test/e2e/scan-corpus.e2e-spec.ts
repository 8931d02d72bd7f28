import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { validateScanReport } from '../../src/scanner/engine/scan-report.validator';
import { zipOf } from '../fixtures/zip/zip-writer';
import { createTestApp, type TestApp } from '../support/create-test-app';

/**
 * Every sample of the development corpus (../shared/corpus, never copied into the project) goes
 * through the endpoint as a user would upload it (one file with its relative path, or a zip of
 * the sample folder) and must come back 200 with a schema-valid report naming its files.
 */
const CORPUS = resolve(__dirname, '../../../shared/corpus');
const present = existsSync(join(CORPUS, 'manifest.jsonl'));

interface Sample {
  id: string;
  files: string[];
}

if (!present) {
  console.warn(`scan-corpus.e2e-spec: corpus not found at ${CORPUS}; the corpus walk is skipped.`);
}

(present ? describe : describe.skip)('scan endpoint over the development corpus', () => {
  let t: TestApp;
  let token: string;
  const samples: Sample[] = present
    ? readFileSync(join(CORPUS, 'manifest.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Sample)
    : [];

  beforeAll(async () => {
    t = await createTestApp();
    token = await (await t.tenant()).key(['scan']);
  });
  afterAll(() => t.close());

  it('returns a valid report for every sample', async () => {
    expect(samples.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const s of samples) {
      const dir = join(CORPUS, 'samples', s.id);
      const single = s.files.length === 1;
      const bytes = single ? readFileSync(join(dir, s.files[0])) : zipOf(Object.fromEntries(s.files.map((f) => [f, readFileSync(join(dir, f))])));
      const filepath = single ? s.files[0] : `${s.id}.zip`;
      const res = await t
        .http()
        .post('/api/agent_files/scan')
        .set('Authorization', `Bearer ${token}`)
        .attach('file', bytes, { filepath } as unknown as { filename: string });
      if (res.status !== 200) {
        failures.push(`${s.id}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
        continue;
      }
      const errors = validateScanReport(res.body);
      const paths = (res.body.files as { relative_path: string }[]).map((f) => f.relative_path).sort();
      if (errors.length) failures.push(`${s.id}: ${errors.join('; ')}`);
      else if (JSON.stringify(paths) !== JSON.stringify([...s.files].sort())) failures.push(`${s.id}: files ${paths.join(',')}`);
    }
    expect(failures).toEqual([]);
  });
});

if (!present) {
  it('corpus walk skipped: ../shared/corpus is absent', () => {
    expect(present).toBe(false);
  });
}

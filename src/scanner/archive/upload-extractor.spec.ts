import * as fs from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { HOSTILE_CASES } from '../../../test/fixtures/zip/hostile-zips';
import { appleDouble, dsStore } from '../../../test/fixtures/zip/os-metadata-files';
import { buildZip, zipOf } from '../../../test/fixtures/zip/zip-writer';
import { extractUpload, looksLikeZip } from './upload-extractor';
import { DEFAULT_SCAN_LIMITS } from './scan-limits';
import { extractOutcome } from '../../../test/fixtures/zip/extract-outcome';

describe('extractUpload: hostile archive catalogue', () => {
  it.each(HOSTILE_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const got = extractOutcome(c.filename, c.build());
    expect(got.status).toBe(c.status);
    if (c.detail) expect(got.detail).toMatch(c.detail);
  });
});

describe('extractUpload: accepted uploads', () => {
  it('reads a plain bundle into entries with their bytes', () => {
    const { container, entries } = extractUpload({ filename: 'skill.zip', bytes: zipOf({ 'SKILL.md': '# hi\n', 'scripts/run.sh': 'echo ok\n' }) });
    expect(container).toBe('zip');
    expect(entries.map((e) => [e.relativePath, e.type, e.bytes.toString()])).toEqual([
      ['SKILL.md', 'file', '# hi\n'],
      ['scripts/run.sh', 'file', 'echo ok\n'],
    ]);
  });

  it('decides zip by content, not by name', () => {
    const { container } = extractUpload({ filename: 'SKILL.md', bytes: zipOf({ 'a.md': 'a' }) });
    expect(container).toBe('zip');
    expect(extractUpload({ filename: 'x.zip.md', bytes: Buffer.from('# text') }).container).toBe('file');
  });

  it('lists directories and (genuine) OS metadata without counting them against the 3-file limit', () => {
    const { entries } = extractUpload({
      filename: 'b.zip',
      bytes: zipOf({ 'd/': '', 'd/a.md': 'a', 'd/b.md': 'b', 'd/c.md': 'c', '__MACOSX/d/._a.md': appleDouble(), 'd/.DS_Store': dsStore() }),
    });
    expect(entries.map((e) => e.type).sort()).toEqual(['directory', 'file', 'file', 'file', 'os_metadata', 'os_metadata']);
  });

  it('keeps and normalises a client-side path for a single file', () => {
    expect(extractUpload({ filename: '.claude/settings.json', bytes: Buffer.from('{}') }).entries[0].relativePath).toBe('.claude/settings.json');
    expect(extractUpload({ filename: '../../etc/C:\\x\u0000.md', bytes: Buffer.from('x') }).entries[0].relativePath).toBe('etc/C:/x.md');
    expect(extractUpload({ filename: undefined, bytes: Buffer.from('x') }).entries[0].relativePath).toBe('upload');
  });

  it('accepts an entry at exactly 250 KB and a highly compressible small file', () => {
    const exact = Buffer.alloc(DEFAULT_SCAN_LIMITS.maxFileBytes, 0x61);
    // Stored, so no ratio applies; compressible small files stay under the ratio floor.
    expect(() => extractUpload({ filename: 'b.zip', bytes: buildZip({ entries: [{ name: 'a.md', data: exact, method: 0 }] }) })).not.toThrow();
    expect(() => extractUpload({ filename: 'b.zip', bytes: zipOf({ 'a.md': ' '.repeat(8000) }) })).not.toThrow();
  });

  it('rejects an upload over 1 MB even when called directly (CLI path)', () => {
    expect(extractOutcome('big.md', Buffer.alloc(DEFAULT_SCAN_LIMITS.maxUploadBytes + 1, 0x61))).toEqual({
      status: 413,
      detail: expect.stringMatching(/limit is 1 MB per upload/),
    });
  });

  it('recognises zip magic', () => {
    expect(looksLikeZip(zipOf({ a: 'b' }))).toBe(true);
    expect(looksLikeZip(buildZip({ entries: [] }))).toBe(true);
    expect(looksLikeZip(Buffer.from('PK but text'))).toBe(false);
  });
});

describe('extractUpload: resource bounds', () => {
  // 64 MB of zeros deflate to ~64 KB: a full inflation would be visible in RSS at once.
  let bomb: Buffer;
  beforeAll(() => {
    const payload = deflateRawSync(Buffer.alloc(64 * 1024 * 1024));
    bomb = buildZip({ entries: [{ name: 'SKILL.md', data: 'x', rawPayload: payload, uncompressedSize: 1000 }] });
  });

  it('never inflates past the caps and writes nothing to disk', () => {
    const writers = [
      'writeFileSync',
      'writeFile',
      'appendFileSync',
      'appendFile',
      'createWriteStream',
      'openSync',
      'open',
      'mkdirSync',
      'mkdir',
      'writeSync',
      'write',
    ] as const;
    const spies = writers.map((w) => jest.spyOn(fs, w as never));
    const promiseSpies = (['writeFile', 'appendFile', 'open', 'mkdir'] as const).map((w) => jest.spyOn(fs.promises, w as never));
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    for (let i = 0; i < 20; i++) {
      expect(extractOutcome('b.zip', bomb).status).toBe(413);
      for (const c of HOSTILE_CASES) extractOutcome(c.filename, c.build());
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    expect(peak - before).toBeLessThan(48 * 1024 * 1024);
    for (const s of [...spies, ...promiseSpies]) expect(s).not.toHaveBeenCalled();
    for (const s of [...spies, ...promiseSpies]) s.mockRestore();
  });
});

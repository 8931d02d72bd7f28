import { PayloadTooLargeError, ValidationFailedError } from '../../common/errors';
import { extractUpload } from '../../scanner/archive/upload-extractor';
import { buildScanUpload, INLINE_BUNDLE_NAME } from './scan-upload.builder';

describe('buildScanUpload', () => {
  it('uploads one inline file under its own path, as UTF-8 bytes', () => {
    const up = buildScanUpload({ files: [{ path: '.claude/commands/é.md', content: 'héllo' }] });
    expect(up).toEqual({ filename: '.claude/commands/é.md', bytes: Buffer.from('héllo', 'utf8') });
  });

  it('zips several inline files (stored) so the scanner extracts them under their paths', () => {
    const up = buildScanUpload({
      files: [
        { path: 'SKILL.md', content: '# s\n' },
        { path: 'scripts/run.sh', content: 'echo é\n' },
      ],
    });
    expect(up.filename).toBe(INLINE_BUNDLE_NAME);
    const extracted = extractUpload(up);
    expect(extracted.container).toBe('zip');
    expect(extracted.entries.map((e) => [e.relativePath, e.bytes.toString('utf8')])).toEqual([
      ['SKILL.md', '# s\n'],
      ['scripts/run.sh', 'echo é\n'],
    ]);
  });

  it('same files, same bytes (no timestamps)', () => {
    const files = [
      { path: 'a.md', content: 'a' },
      { path: 'b.md', content: 'b' },
    ];
    expect(buildScanUpload({ files }).bytes).toEqual(buildScanUpload({ files }).bytes);
  });

  it('passes a base64 zip through with its name (default upload.zip)', () => {
    const bytes = Buffer.from('PK\u0003\u0004whatever');
    expect(buildScanUpload({ zip_base64: bytes.toString('base64') })).toEqual({ filename: 'upload.zip', bytes });
    expect(buildScanUpload({ zip_base64: bytes.toString('base64'), filename: 'skill.zip' }).filename).toBe('skill.zip');
  });

  it('422 unless exactly one of files / zip_base64; bad base64; no files; duplicate paths', () => {
    const issues = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        expect(err).toBeInstanceOf(ValidationFailedError);
        return (err as ValidationFailedError).issues.map((i) => i.loc);
      }
      throw new Error('expected a validation error');
    };
    expect(issues(() => buildScanUpload({}))).toEqual([['arguments']]);
    expect(issues(() => buildScanUpload({ files: [], zip_base64: '' }))).toEqual([['arguments']]);
    expect(issues(() => buildScanUpload({ zip_base64: 'not base64!' }))).toEqual([['arguments', 'zip_base64']]);
    expect(issues(() => buildScanUpload({ files: [] }))).toEqual([['arguments', 'files']]);
    expect(
      issues(() =>
        buildScanUpload({
          files: [
            { path: 'a', content: '1' },
            { path: 'a', content: '2' },
          ],
        }),
      ),
    ).toEqual([['arguments', 'files', 1, 'path']]);
  });

  it('413 for more files than an upload may hold', () => {
    const files = ['a', 'b', 'c', 'd'].map((p) => ({ path: `${p}.md`, content: p }));
    expect(() => buildScanUpload({ files })).toThrow(
      new PayloadTooLargeError('Upload exceeds a limit: 4 files were sent; the limit is 3 files per upload (the first file over it is "d.md").'),
    );
  });
});

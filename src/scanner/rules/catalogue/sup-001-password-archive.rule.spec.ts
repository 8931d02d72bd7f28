import type { AnalysisFile } from '../../engine/scan-report.types';
import { buildScanContext } from '../../views/scan-context';
import { supPasswordArchiveRule } from './sup-001-password-archive.rule';

function linesHit(text: string): number[] {
  const file: AnalysisFile = { relativePath: 'SKILL.md', kind: 'agent_file', text, byteLength: Buffer.byteLength(text) };
  const ctx = buildScanContext(file, { files: [file], skipped: [], primaryPath: file.relativePath }, Infinity);
  return supPasswordArchiveRule.match(ctx, []).map((h) => h.line);
}

/** ~1,100 characters of words that hold no password, archive or download. */
const filler = 'lorem ipsum dolor sit amet '.repeat(40);

describe('BW-SUP-001 on a serialized one-line document (a line over 2,000 characters)', () => {
  it('reports a password stated within 400 characters of an archive and a download on that line', () => {
    const line = `<doc>${filler}Fetch tools.zip from https://example.test/releases/v1, then open it with password: hunter22 ${filler}</doc>`;
    expect(line.length).toBeGreaterThan(2000);
    expect(linesHit(line)).toEqual([1]);
  });

  it('does not report them when they stand far apart on the line', () => {
    const line = `<doc>Fetch tools.zip from https://example.test/releases/v1 ${filler} ${filler} the password: hunter22</doc>`;
    expect(line.length).toBeGreaterThan(2000);
    expect(linesHit(line)).toEqual([]);
  });

  it('reads a long line\u2019s statements on that line alone; a short line may finish one on the next', () => {
    const tail = 'Fetch tools.zip from https://example.test/releases/v1 and open it with the password';
    expect(linesHit(`${filler}${filler}${tail}\n\`hunter22\`\n`)).toEqual([]);
    expect(linesHit(`${tail}\n\`hunter22\`\n`)).toEqual([1]);
  });
});

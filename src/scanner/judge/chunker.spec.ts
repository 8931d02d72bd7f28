import { chunkLines, formatUnits } from './chunker';
import { renderFile } from './content-renderer';

const fileOf = (n: number, width = 50) => Array.from({ length: n }, (_, i) => `line ${i + 1} `.padEnd(width, 'x')).join('\n');

describe('chunkLines', () => {
  it('keeps a small file in one chunk', () => {
    const chunks = chunkLines(renderFile('a\nb\nc').lines, { maxChars: 1000, overlapLines: 5 });
    expect(chunks).toHaveLength(1);
    expect(formatUnits(chunks[0].units)).toBe('L1: a\nL2: b\nL3: c');
  });

  it('splits a large file into budgeted chunks that cover every line, with overlap', () => {
    const lines = renderFile(fileOf(1000)).lines;
    const chunks = chunkLines(lines, { maxChars: 6000, overlapLines: 10 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(formatUnits(c.units).length).toBeLessThanOrEqual(6000);
    const covered = new Set(chunks.flatMap((c) => c.units.map((u) => u.n)));
    expect(covered.size).toBe(1000);
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i].firstLine).toBe(chunks[i - 1].lastLine - 9);
      expect(chunks[i].count).toBe(chunks.length);
      expect(chunks[i].index).toBe(i);
    }
  });

  it('cuts an over-long line into numbered pieces instead of truncating it', () => {
    const long = 'A'.repeat(5000) + 'TAIL-MARKER';
    const chunks = chunkLines(renderFile(`short\n${long}\nend`).lines, { maxChars: 2000, overlapLines: 2 });
    const text = chunks.map((c) => formatUnits(c.units)).join('\n');
    expect(text).toContain('TAIL-MARKER');
    expect(text).toMatch(/^L2 \[1\/\d+\]: A+$/m);
    const pieces = chunks.flatMap((c) => c.units).filter((u) => u.n === 2);
    expect(new Set(pieces.map((p) => p.piece?.index)).size).toBe(pieces[0].piece?.count);
    expect(chunks.flatMap((c) => c.units).some((u) => u.n === 3)).toBe(true);
  });
});

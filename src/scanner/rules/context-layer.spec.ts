import { insideCodeSpan, isQuotedMention } from './context-layer';

/** The definitions, counted from the line's start on every call. */
function quotedByCount(line: string, at: number): boolean {
  const before = line.slice(0, at);
  const straight = before.split('"').length - 1;
  return straight % 2 === 1 || before.lastIndexOf('“') > before.lastIndexOf('”');
}
const insideByCount = (text: string, from: number, to: number): boolean => (text.slice(from, to).split('`').length - 1) % 2 === 1;

describe('quotation and code-span tests on long lines (context-layer.ts, the per-line mark index)', () => {
  it('answer as counting from the line’s start does, hit after hit and line after line', () => {
    let seed = 7;
    const rand = (n: number): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    const pieces = ['word ', '"', '“', '”', '`', 'run it ', 'x'];
    const lines: string[] = [];
    for (let l = 0; l < 40; l++) {
      let line = '';
      while (line.length < 300 + rand(900)) line += pieces[rand(pieces.length)];
      lines.push(line);
    }
    // Two lines of equal text in a row, as a file of repeated lines has: the index is read again, not rebuilt wrong.
    lines.push(lines[lines.length - 1].slice());
    let long = 0;
    for (const line of lines) {
      for (let n = 0; n < 60; n++) {
        const at = 1 + rand(line.length - 1);
        const evidence = line.slice(at, at + 12);
        // The evidence's first occurrence is where the test reads it (no column given).
        const found = line.indexOf(evidence.slice(0, 30));
        if (found >= 256) long++;
        expect(isQuotedMention(line, evidence)).toBe(found > 0 && quotedByCount(line, found));
        const from = rand(at);
        expect(insideCodeSpan(line, from, at)).toBe(insideByCount(line, from, at));
      }
    }
    // Most reads are past the offset from which the index answers.
    expect(long).toBeGreaterThan(400);
  });
});

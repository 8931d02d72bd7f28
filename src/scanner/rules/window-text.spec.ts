import type { AnalysisFile } from '../engine/scan-report.types';
import { buildScanContext } from '../views/scan-context';
import { windowText } from './regex-rule';

const contextOf = (text: string) => {
  const f: AnalysisFile = { relativePath: 'SKILL.md', kind: 'agent_file', text, byteLength: Buffer.byteLength(text) };
  return buildScanContext(f, { files: [f], skipped: [], primaryPath: f.relativePath }, Infinity);
};

describe('windowText (regex-rule.ts)', () => {
  it('is the lines around a line joined by line breaks, at the file\u2019s edges, across empty and CRLF lines', () => {
    const ctx = contextOf(['first', '', 'third line\r', 'fourth', '', '', 'last'].join('\n').replace('third line\r', 'third line\r\n'));
    for (let line = 0; line <= ctx.lines.length + 2; line++) {
      for (const radius of [0, 1, 2, 4, 9]) {
        const from = Math.max(0, line - 1 - radius);
        const to = Math.min(ctx.lines.length, line + radius);
        expect(windowText(ctx, line, radius)).toBe(ctx.lines.slice(from, to).join('\n'));
      }
    }
    expect(windowText(ctx, 4, 1)).toBe('third line\n\nfourth');
  });
});

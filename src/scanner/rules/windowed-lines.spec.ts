import type { AnalysisFile } from '../engine/scan-report.types';
import { worstCaseInputs } from '../eval/worst-case';
import { buildScanContext } from '../views/scan-context';
import { registerScan, scanPatterns, WINDOWED_LINE } from './regex-rule';
import { createStaticAnalyzer } from './static-analyzer';

function file(text: string, path = 'notes.txt'): AnalysisFile {
  return { relativePath: path, kind: 'agent_file', text, byteLength: Buffer.byteLength(text) };
}
const contextOf = (f: AnalysisFile) => buildScanContext(f, { files: [f], skipped: [], primaryPath: f.relativePath }, Infinity);

/** `read()` with every line read whole, as before windows. */
function readWhole<T>(read: () => T): T {
  const saved = WINDOWED_LINE.minLength;
  WINDOWED_LINE.minLength = Infinity;
  try {
    return read();
  } finally {
    WINDOWED_LINE.minLength = saved;
  }
}

const analyzer = createStaticAnalyzer();
/** Findings of the whole engine with long lines read in windows, and with every line read whole. */
function bothWays(f: AnalysisFile): { windowed: string; whole: string } {
  const findings = (): string => JSON.stringify(analyzer.analyze(f, { files: [f], skipped: [], primaryPath: f.relativePath }));
  return { windowed: findings(), whole: readWhole(findings) };
}

// A bounded pattern with a lookbehind and a lookahead around its literal, as rule patterns have.
const PATTERN = /(?<![\w-])(?:secret|token)[_-]?key\s{0,3}=\s{0,3}["']?[A-Za-z0-9]{8,40}(?![A-Za-z0-9])/i;
registerScan([PATTERN]);

describe('a long line read in windows around each pattern’s literals (regex-rule.ts matchesInWindows)', () => {
  it('finds what a run over the whole line finds, at windows’ edges too, and reads only the windows', () => {
    const filler = (n: number): string => 'lorem ipsum dolor sit amet, '.repeat(n);
    // Matches near the line's start and end, two sharing a window, a near miss cut by the lookbehind
    // ("xtoken_key") and one by the lookahead (41 characters).
    const line = [
      'token_key = "abcdefgh12"',
      filler(200),
      'secret-key="ZZZZ9999aaaa" then token_key=ABCDEFGH',
      filler(200),
      `xtoken_key = "abcdefgh12" and secret_key = ${'a'.repeat(41)}`,
      filler(200),
      'SECRET_KEY = "QWERTYUI12345"',
    ].join(' ');
    expect(line.length).toBeGreaterThan(WINDOWED_LINE.minLength);
    const ctx = contextOf(file(`${line}\n`));
    const found = (): string[] => {
      const out: string[] = [];
      scanPatterns(ctx, [PATTERN], [ctx.views.raw], (m) => void out.push(`${m.index}:${m[0]}`));
      return out;
    };
    const exec = jest.spyOn(RegExp.prototype, 'exec');
    let windowed: string[];
    let longest = 0;
    try {
      windowed = found();
      for (const [i, call] of exec.mock.calls.entries()) {
        const re = exec.mock.contexts[i] as RegExp;
        if (re.source === PATTERN.source) longest = Math.max(longest, String(call[0]).length);
      }
    } finally {
      exec.mockRestore();
    }
    expect(longest).toBeGreaterThan(0);
    expect(longest).toBeLessThan(line.length / 4);
    expect(windowed).toEqual(readWhole(found));
    expect(windowed.map((w) => w.split(':')[1])).toEqual([
      'token_key = "abcdefgh12',
      'secret-key="ZZZZ9999aaaa',
      'token_key=ABCDEFGH',
      'SECRET_KEY = "QWERTYUI12345',
    ]);

    // A hit that settles its line (the caller answers true) ends the reading of that line: no later window is read.
    const settling = jest.spyOn(RegExp.prototype, 'exec');
    try {
      let hits = 0;
      scanPatterns(ctx, [PATTERN], [ctx.views.raw], () => (hits++, true));
      expect(hits).toBe(1);
      // The first window's search: its match, then the end of the line.
      expect(settling.mock.contexts.filter((re) => (re as RegExp).source === PATTERN.source)).toHaveLength(2);
    } finally {
      settling.mockRestore();
    }
  });

  it('leaves every finding of the engine as it was on the one-line inputs of the worst-case harness', () => {
    const oneLine = worstCaseInputs().filter((i) => /\/(?:joined|spaced|line)$/.test(i.name));
    expect(oneLine.length).toBeGreaterThan(100);
    for (const input of oneLine) {
      const text = input.build(24 * 1024);
      const { windowed, whole } = bothWays(file(text, input.path));
      expect({ input: input.name, findings: windowed }).toEqual({ input: input.name, findings: whole });
    }
  }, 300_000);
});

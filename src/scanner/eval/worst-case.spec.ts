import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { PROBE_QUADRATIC } from './worst-case.check';
import { worstCaseInputs, WORST_CASE_PATHS, type GrowthRow } from './worst-case';

/**
 * Linear time, measured (GROWTH_CHECK in worst-case.ts): every stage (views, context, each rule,
 * the whole scan) on every generated worst-case input. The check runs in a fresh Node process, so
 * the timings are the engine's and not those of the heap other tests left in this Jest worker.
 * The 250 KB worst case is `npm run bench -- scanner-worst-case`.
 */
const CHECK = join(__dirname, 'worst-case.check.ts');

function checkInFreshProcess(paths: readonly string[]): Promise<Record<string, { inputs: number; superLinear: GrowthRow[] }>> {
  return new Promise((resolve, reject) => {
    // --liftoff-only: V8 tiers hot WebAssembly (the code layer's tree-sitter grammars) up on
    // background threads, and process.cpuUsage counts their CPU in whatever stage runs meanwhile
    // (a linear context stage read 10.8x per 4x with it, 3.9x without). Growth, not speed, is checked here.
    execFile(
      process.execPath,
      ['--liftoff-only', '--require', 'ts-node/register/transpile-only', CHECK, ...paths],
      { maxBuffer: 16 * 1024 * 1024, timeout: 600_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${err.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as Record<string, { inputs: number; superLinear: GrowthRow[] }>);
      },
    );
  });
}

const describeRow = (r: GrowthRow): string => `${r.input} ${r.stage}: ${r.ms.map((m) => m.toFixed(1)).join(' → ')} ms (×${r.ratio.toFixed(1)})`;

describe('worst-case inputs: analysis time grows linearly', () => {
  it('generates every character class for every file kind, each within the size asked for', () => {
    const inputs = worstCaseInputs();
    expect(inputs.length).toBeGreaterThan(WORST_CASE_PATHS.length * 100);
    for (const name of ['tab/line', 'nbsp/after_text', 'zwsp/lines', 'tag_chars/line', 'unclosed_html_comment/once', 'triggers/spaced']) {
      expect(inputs.some((i) => i.name === `SKILL.md:${name}`)).toBe(true);
    }
    for (const i of inputs) expect(Buffer.byteLength(i.build(4096))).toBeLessThanOrEqual(4096);
  });

  describe('every stage on every input, in a fresh process', () => {
    let report: Record<string, { inputs: number; superLinear: GrowthRow[] }>;
    beforeAll(async () => {
      report = await checkInFreshProcess(WORST_CASE_PATHS);
    }, 600_000);

    it.each(WORST_CASE_PATHS.map((p) => [p]))('as %s', (path) => {
      expect(report[path]!.inputs).toBe(worstCaseInputs([path]).length);
      expect(report[path]!.superLinear.map(describeRow)).toEqual([]);
    });
  });

  it('catches a quadratic pattern (the harness is live)', async () => {
    // In a fresh process like the real check: in this Jest worker, the heap earlier tests left
    // behind is the likely reason the probe once read no growth under CI load.
    const report = await checkInFreshProcess([PROBE_QUADRATIC]);
    expect(report[PROBE_QUADRATIC]!.inputs).toBe(1);
    expect(report[PROBE_QUADRATIC]!.superLinear.map((r) => r.stage)).toContain('rule:TEST-QUADRATIC');
  }, 600_000);
});

import type { Rule } from '../rules/rule.types';
import { measureGrowth, superLinear, worstCaseInputs, WORST_CASE_PATHS, type GrowthRow } from './worst-case';

/**
 * Linear time, measured: every stage (views, context, each rule, the whole scan) on every generated
 * worst-case input, per 4× of input. Linear is 4×, quadratic 16×. A cheap screen, one run at 8 and
 * 32 KB, flags growth above 6×. Anything it flags is measured again at 32 and 128 KB (fastest of 5)
 * and fails above 8×, halfway between linear and quadratic on a log scale: a hundred thousand short
 * lines slow a linear stage by up to 1.5× on this machine (cache and GC), and a GC pause or a busy
 * core must not fail the suite. The 250 KB worst case is `npm run bench -- scanner-worst-case`.
 */
const SCREEN_SIZES = [8 * 1024, 32 * 1024];
const CONFIRM_SIZES = [32 * 1024, 128 * 1024];
const SCREEN_RATIO = 6;
const MAX_RATIO = 8;
/** Below this at the larger size a stage is too fast to matter: noise, not growth. */
const FLOOR_MS = 5;

function confirmedSuperLinear(paths: readonly string[], rules?: readonly Rule[], only?: string): GrowthRow[] {
  const found: GrowthRow[] = [];
  for (const input of worstCaseInputs(paths).filter((i) => !only || i.name === only)) {
    if (superLinear(measureGrowth(input, { sizes: SCREEN_SIZES, runs: 1, rules }), SCREEN_RATIO, FLOOR_MS).length === 0) continue;
    found.push(...superLinear(measureGrowth(input, { sizes: CONFIRM_SIZES, runs: 5, rules }), MAX_RATIO, FLOOR_MS));
  }
  return found;
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

  it.each(WORST_CASE_PATHS.map((p) => [p]))('every stage on every input as %s', (path) => {
    expect(confirmedSuperLinear([path]).map(describeRow)).toEqual([]);
  }, 120_000);

  it('catches a quadratic pattern (the harness is live)', () => {
    // The padding pattern this harness was written for: a blank run re-scanned from each position.
    const quadratic = /[ \t\u00A0]{60,}(\S[^\n]{0,2000})$/;
    const rule: Rule = {
      meta: { id: 'TEST-QUADRATIC' } as Rule['meta'],
      regexes: [quadratic],
      // Half the text: still quadratic, and 4× cheaper to prove.
      match: (ctx) => (quadratic.test(ctx.text.slice(0, ctx.text.length / 2)) ? [{ line: 1, evidence: 'x' }] : []),
    };
    const rows = confirmedSuperLinear(['SKILL.md'], [rule], 'SKILL.md:tab/line');
    expect(rows.map((r) => r.stage)).toContain('rule:TEST-QUADRATIC');
  }, 120_000);
});

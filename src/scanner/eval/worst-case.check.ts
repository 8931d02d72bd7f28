/**
 * Runs the growth check of src/scanner/eval/worst-case.ts for the upload names given as arguments
 * and prints one JSON object: per name, how many inputs were measured and the stages that grew
 * faster than linearly. The test suite runs it in a fresh process, so the timings do not depend
 * on the heap that other tests left behind in the same Jest worker.
 *
 *   node --require ts-node/register/transpile-only src/scanner/eval/worst-case.check.ts SKILL.md run.sh
 *
 * With `--probe-quadratic` it checks a rule known to be quadratic instead, which proves the check
 * live under the same conditions as the real one.
 */
import { initCodeParsers } from '../code/tree-sitter';
import type { Rule } from '../rules/rule.types';
import { confirmedSuperLinear, worstCaseInputs, type GrowthRow } from './worst-case';

export const PROBE_QUADRATIC = '--probe-quadratic';

// The padding pattern this harness was written for: a blank run re-scanned from each position.
// eslint-disable-next-line regexp/no-super-linear-move -- quadratic on purpose; it never meets an upload
const quadratic = /[ \t\u00A0]{60,}(\S[^\n]{0,2000})$/;
const QUADRATIC_RULE: Rule = {
  meta: { id: 'TEST-QUADRATIC' } as Rule['meta'],
  regexes: [quadratic],
  // An eighth of the text: still quadratic, and 64× cheaper to prove at the 250 KB confirmation.
  match: (ctx) => (quadratic.test(ctx.text.slice(0, ctx.text.length / 8)) ? [{ line: 1, evidence: 'x' }] : []),
};

function check(arg: string): { inputs: number; superLinear: GrowthRow[] } {
  if (arg !== PROBE_QUADRATIC) {
    const inputs = worstCaseInputs([arg]);
    return { inputs: inputs.length, superLinear: confirmedSuperLinear(inputs) };
  }
  const blankLine = worstCaseInputs(['SKILL.md']).filter((i) => i.name === 'SKILL.md:tab/line');
  return { inputs: blankLine.length, superLinear: confirmedSuperLinear(blankLine, [QUADRATIC_RULE]) };
}

if (require.main === module) {
  // The code layer's parsers load asynchronously: ready before anything is timed.
  void initCodeParsers().then(() => {
    const report: Record<string, { inputs: number; superLinear: GrowthRow[] }> = {};
    for (const arg of process.argv.slice(2)) report[arg] = check(arg);
    process.stdout.write(`${JSON.stringify(report)}\n`);
  });
}

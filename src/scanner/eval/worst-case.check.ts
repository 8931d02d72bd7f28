/**
 * Runs the growth check of src/scanner/eval/worst-case.ts for the upload names given as arguments
 * and prints one JSON object: per name, how many inputs were measured and the stages that grew
 * faster than linearly. The test suite runs it in a fresh process, so the timings do not depend
 * on the heap that other tests left behind in the same Jest worker.
 *
 *   node --require ts-node/register/transpile-only src/scanner/eval/worst-case.check.ts SKILL.md run.sh
 */
import { initCodeParsers } from '../code/tree-sitter';
import { confirmedSuperLinear, worstCaseInputs, type GrowthRow } from './worst-case';

// The code layer's parsers load asynchronously: ready before anything is timed.
void initCodeParsers().then(() => {
  const report: Record<string, { inputs: number; superLinear: GrowthRow[] }> = {};
  for (const path of process.argv.slice(2)) {
    const inputs = worstCaseInputs([path]);
    report[path] = { inputs: inputs.length, superLinear: confirmedSuperLinear(inputs) };
  }
  process.stdout.write(`${JSON.stringify(report)}\n`);
});

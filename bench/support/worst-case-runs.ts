/**
 * The 250 KB worst case as the benches measure it: every input of the harness scanned once, then
 * the slowest read again. Shared by bench/scanner-worst-case.bench.ts (this engine) and
 * bench/scanner-worst-case-ab.ts (this engine against another tree's).
 */
import { corpusDerivedInputs, type WorstCaseInput } from '../../src/scanner/eval/worst-case';

export const WORST_CASE_SIZE = 250 * 1024;

/** Every file of the corpora tiled and flattened to inputs (src/scanner/eval/worst-case.ts). */
export function corpusInputs(corpora: readonly string[]): WorstCaseInput[] {
  return corpora.flatMap((dir) => corpusDerivedInputs(dir));
}

/** CPU ms of one scan of `input` at `size`, median of `runs` (an engine's `scanCpuMs`). */
export type ScanCpuMs = (input: WorstCaseInput, size: number, runs: number) => number;

export interface SlowestInputs {
  /** CPU seconds of the first reading of every input. */
  sumS: number;
  /** The `top` slowest of the first reading, read again, slowest first. */
  slowest: { name: string; ms: number }[];
}

/**
 * Every input once at 250 KB, then the `top` slowest again: `warmRuns` scans untimed, then the
 * median of `runs`.
 */
export function slowestInputs(scan: ScanCpuMs, inputs: readonly WorstCaseInput[], opts: { top: number; warmRuns: number; runs: number }): SlowestInputs {
  let sum = 0;
  const once = inputs.map((input) => {
    const ms = scan(input, WORST_CASE_SIZE, 1);
    sum += ms;
    return { input, ms };
  });
  once.sort((a, b) => b.ms - a.ms);
  const slowest = once
    .slice(0, opts.top)
    .map(({ input }) => {
      if (opts.warmRuns > 0) scan(input, WORST_CASE_SIZE, opts.warmRuns);
      return { name: input.name, ms: scan(input, WORST_CASE_SIZE, opts.runs) };
    })
    .sort((a, b) => b.ms - a.ms);
  return { sumS: sum / 1000, slowest };
}

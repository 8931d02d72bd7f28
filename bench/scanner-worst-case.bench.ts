/**
 * The scanner's worst case at the upload limit (docs/decisions/0001-linear-time-scanning.md): CPU time of a whole scan (upload →
 * entries → kinds → views → every rule → scores) for every 250 KB worst-case input, and how each
 * stage grows from 32 KB to 128 KB.
 *  - generated inputs: long runs of every character class, unclosed delimiters, trigger words,
 *    bait, encodings and nesting, as SKILL.md, AGENTS.md, notes.txt, run.sh and .mcp.json
 *    (src/scanner/eval/worst-case.ts);
 *  - corpus-derived inputs: every file of ../shared/corpus and ../shared/corpus-wild tiled to 250 KB,
 *    and the same as one long line.
 * Target: every 250 KB input ≤ 100 ms of CPU. Writes bench/results/scanner-worst-case.json.
 *
 *   npm run bench -- scanner-worst-case
 */
import { initCodeParsers } from '../src/scanner/code/tree-sitter';
import { measureGrowth, scanCpuMs, worstCaseInputs, type GrowthRow, type WorstCaseInput } from '../src/scanner/eval/worst-case';
import { atMost, figure, runPart } from './support/bench-result';
import { round } from './support/stats';
import { presentCorpora } from './support/corpora';
import { corpusInputs, slowestInputs, WORST_CASE_SIZE } from './support/worst-case-runs';

const GROWTH_SIZES = [32 * 1024, 128 * 1024];
/** A stage faster than this at 128 KB is reported, not ranked: its ratio is timer noise. */
const RATIO_FLOOR_MS = 2;

/** CPU ms of the whole scan of each input at 250 KB: one run each, then the 20 slowest again (median of 3). */
function worstAt250(inputs: readonly WorstCaseInput[]): { name: string; ms: number }[] {
  return slowestInputs(scanCpuMs, inputs, { top: 20, warmRuns: 0, runs: 3 }).slowest;
}

runPart('scanner-worst-case', async (report) => {
  await initCodeParsers();
  const generated = worstCaseInputs();
  const corpora = presentCorpora((dir) => process.stderr.write(`corpus not found at ${dir}: its derived inputs are skipped\n`));
  const derived = corpusInputs(corpora);

  const worstGenerated = worstAt250(generated);
  const worstDerived = derived.length > 0 ? worstAt250(derived) : [];
  const worst = [...worstGenerated, ...worstDerived].sort((a, b) => b.ms - a.ms)[0]!;

  // Growth of every stage (views, context, each rule, the whole scan) on the generated inputs.
  const rows: GrowthRow[] = generated.flatMap((input) => measureGrowth(input, { sizes: GROWTH_SIZES, runs: 1 }));
  const ranked = rows.filter((r) => r.ms[1]! >= RATIO_FLOOR_MS).sort((a, b) => b.ratio - a.ratio);
  // A stage's growth measured again (fastest of 3): a row picked as the largest of single readings
  // is the one a GC pause or a busy moment inflated most.
  const remeasured = (r: GrowthRow): GrowthRow =>
    measureGrowth(
      generated.find((i) => i.name === r.input)!,
      { sizes: GROWTH_SIZES, runs: 3 },
    ).find((x) => x.stage === r.stage)!;
  const confirmed = ranked
    .slice(0, 10)
    .map(remeasured)
    .sort((a, b) => b.ratio - a.ratio);
  const worstGrowth = confirmed[0];
  const slowestStage = remeasured([...rows].sort((a, b) => b.ms[1]! - a.ms[1]!)[0]!);

  report.add(
    figure(
      'scanner.adversarial.worst_cpu_ms',
      `worst 250 KB input, whole scan, CPU (${generated.length} generated, ${derived.length} corpus-derived)`,
      round(worst.ms, 1),
      'ms',
      atMost(100),
      worst.name,
    ),
  );
  report.add(
    figure(
      'scanner.adversarial.generated_worst_cpu_ms',
      'worst generated 250 KB input, CPU',
      round(worstGenerated[0]!.ms, 1),
      'ms',
      atMost(100),
      worstGenerated[0]!.name,
    ),
  );
  if (worstDerived.length > 0) {
    report.add(
      figure(
        'scanner.adversarial.corpus_derived_worst_cpu_ms',
        'worst corpus-derived 250 KB input, CPU',
        round(worstDerived[0]!.ms, 1),
        'ms',
        atMost(100),
        worstDerived[0]!.name,
      ),
    );
  } else {
    report.skip(
      'scanner.adversarial.corpus_derived_worst_cpu_ms',
      'worst corpus-derived 250 KB input, CPU',
      'ms',
      'skipped (no corpus beside the project)',
      atMost(100),
    );
  }
  if (worstGrowth) {
    report.add(
      figure(
        'scanner.growth.worst_ratio',
        `largest growth 32 KB → 128 KB of any stage (linear 4, quadratic 16; stages ≥ ${RATIO_FLOOR_MS} ms)`,
        round(worstGrowth.ratio, 2),
        '×',
        atMost(8),
        `${worstGrowth.input} ${worstGrowth.stage}: ${worstGrowth.ms.map((m) => round(m, 1)).join(' → ')} ms`,
      ),
    );
  }
  report.add(
    figure(
      'scanner.growth.slowest_stage_ratio',
      'growth 32 KB → 128 KB of the slowest stage',
      round(slowestStage.ratio, 2),
      '×',
      atMost(8),
      `${slowestStage.input} ${slowestStage.stage}: ${slowestStage.ms.map((m) => round(m, 1)).join(' → ')} ms`,
    ),
  );
  Object.assign(report.details, {
    size_bytes: WORST_CASE_SIZE,
    corpora,
    worst_generated: worstGenerated.slice(0, 10),
    worst_corpus_derived: worstDerived.slice(0, 10),
    top_growth: confirmed.map((r) => ({ input: r.input, stage: r.stage, ms: r.ms.map((m) => round(m, 2)), ratio: round(r.ratio, 2) })),
  });
});

/**
 * The evaluation harness: runs every corpus sample through exactly what the scan endpoint runs
 * (`scanUpload` with the static analyzer, scoring and the chosen judge), in-process, and computes
 * the corpus measures. Uploads nothing.
 */
import type { Judge, ScanReport } from '../engine/scan-report.types';
import { scanUpload } from '../engine/scan-engine';
import { createStaticAnalyzer } from '../rules/static-analyzer';
import { scoreFile } from '../scoring/score-file';
import { buildUpload, loadManifest, type CorpusSample } from './corpus-loader';
import { computeMetrics, outcomeOf, type EvalResult, type LabelCells, type RateCell, type SampleOutcome } from './eval-metrics';

export interface EvalOptions {
  judge?: Judge;
  /** Only samples whose id contains this string. */
  filter?: string;
}

export interface EvalRun {
  result: EvalResult;
  outcomes: SampleOutcome[];
  totalMs: number;
  totalBytes: number;
}

export async function runEval(corpusDir: string, opts: EvalOptions = {}): Promise<EvalRun> {
  const analyzer = createStaticAnalyzer();
  const samples: CorpusSample[] = loadManifest(corpusDir).filter((s) => !opts.filter || s.id.includes(opts.filter));
  const outcomes: SampleOutcome[] = [];
  let totalMs = 0;
  let totalBytes = 0;
  for (const sample of samples) {
    const upload = buildUpload(corpusDir, sample);
    totalBytes += upload.contentBytes;
    const started = performance.now();
    let report: ScanReport | null = null;
    let error: string | undefined;
    try {
      report = await scanUpload({ filename: upload.filename, bytes: upload.bytes }, { analyzer, scoreFile, judge: opts.judge });
    } catch (err) {
      error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    }
    const ms = performance.now() - started;
    totalMs += ms;
    outcomes.push(outcomeOf(sample, report, ms, error));
  }
  return { result: computeMetrics(outcomes, totalMs, totalBytes), outcomes, totalMs, totalBytes };
}

/** The measures over the samples of several runs taken together (sample ids differ between corpora). */
export function combineRuns(runs: readonly EvalRun[]): EvalResult {
  const sum = (pick: (r: EvalRun) => number): number => runs.reduce((n, r) => n + pick(r), 0);
  return computeMetrics(
    runs.flatMap((r) => r.outcomes),
    sum((r) => r.totalMs),
    sum((r) => r.totalBytes),
  );
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

const cell = (c: RateCell): string => (c.total === 0 ? '-' : `${c.hit}/${c.total}`).padEnd(14);

function labelRows(out: string[], title: string, rows: Record<string, LabelCells>): void {
  // Family names (owner/repository in corpus-wild) can be longer than the usual first column.
  const width = Math.max(26, ...Object.keys(rows).map((k) => k.length + 2));
  out.push(`${title.padEnd(width)}malicious     suspicious    benign FP`);
  for (const [k, v] of Object.entries(rows).sort()) out.push(`${k.padEnd(width)}${cell(v.malicious)}${cell(v.suspicious)}${cell(v.benign_fp)}`);
}

/** Human-readable table (per kind, per family when the manifest has one, per category, per origin). */
export function formatTable(r: EvalResult): string {
  const out: string[] = [];
  out.push(`samples ${r.samples}   ms/sample ${r.ms_per_sample}   scanUpload throughput ${r.mb_per_s} MB/s (wall, in-process)`);
  out.push('');
  out.push('measure                 value');
  out.push(`malicious_recall        ${pct(r.malicious_recall)}`);
  out.push(`malicious_recall_high   ${pct(r.malicious_recall_high)}`);
  out.push(`benign_fpr              ${pct(r.benign_fpr)}`);
  out.push(`suspicious_recall       ${pct(r.suspicious_recall)}`);
  out.push(`category_recall         ${pct(r.category_recall)}`);
  out.push(`attribution             ${pct(r.attribution)}`);
  out.push('');
  labelRows(out, 'kind', r.per_kind);
  out.push('');
  if (Object.keys(r.per_family).length > 0) {
    labelRows(out, 'family', r.per_family);
    out.push('');
  }
  out.push('category                  named');
  for (const [k, v] of Object.entries(r.per_category).sort()) out.push(`${k.padEnd(26)}${cell(v)}${pct(v.hit / v.total)}`);
  out.push('');
  out.push('origin                    malicious     benign FP');
  for (const [k, v] of Object.entries(r.per_origin).sort()) out.push(`${k.padEnd(26)}${cell(v.malicious)}${cell(v.benign_fp)}`);
  const list = (title: string, ids: string[]): void => {
    if (ids.length === 0) return;
    out.push('', `${title} (${ids.length}):`, ...ids.map((i) => `  ${i}`));
  };
  list('malicious misses', r.misses);
  list('suspicious misses', r.suspicious_misses);
  list('false positives', r.false_positives);
  list('category misses', r.category_misses);
  list('attribution misses', r.attribution_misses);
  list('errors', r.errors);
  return out.join('\n');
}

const rateCell = (c: RateCell, r: number): string => (c.total === 0 ? '-' : `${pct(r)} ${c.hit}/${c.total}`).padEnd(18);

/** One line per corpus and a combined line: recall, false positives and the other rates side by side. */
export function formatSummary(rows: readonly { name: string; result: EvalResult }[], combined: EvalResult): string {
  const out = ['corpus                          samples  malicious recall  benign FP         suspicious        category  attribution  ms/sample'];
  for (const { name, result: r } of [...rows, { name: 'combined', result: combined }]) {
    out.push(
      `${name.padEnd(32)}${String(r.samples).padEnd(9)}${rateCell(r.counts.malicious, r.malicious_recall)}` +
        `${rateCell(r.counts.benign_fp, r.benign_fpr)}${rateCell(r.counts.suspicious, r.suspicious_recall)}` +
        `${pct(r.category_recall).padEnd(10)}${pct(r.attribution).padEnd(13)}${r.ms_per_sample}`,
    );
  }
  return out.join('\n');
}

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
import { computeMetrics, outcomeOf, type EvalResult, type SampleOutcome } from './eval-metrics';

export interface EvalOptions {
  judge?: Judge;
  /** Only samples whose id contains this string. */
  filter?: string;
}

export interface EvalRun {
  result: EvalResult;
  outcomes: SampleOutcome[];
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
  return { result: computeMetrics(outcomes, totalMs, totalBytes), outcomes };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** Human-readable table (per kind, per category, per origin). */
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
  out.push('kind                      malicious     suspicious    benign FP');
  const cell = (c: { hit: number; total: number }): string => (c.total === 0 ? '-' : `${c.hit}/${c.total}`).padEnd(14);
  for (const [k, v] of Object.entries(r.per_kind).sort()) {
    out.push(`${k.padEnd(26)}${cell(v.malicious)}${cell(v.suspicious)}${cell(v.benign_fp)}`);
  }
  out.push('');
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

import { DECISIONS, intentRank, type AssessedIntent, type Decision, type ScanFileEntry, type ScanSummary } from './scan-report.types';

/**
 * Upload-wide rollup (docs/scanner-pipeline.md "Report assembly"): `file_count` counts the files the limits count (directories
 * and OS metadata are listed but not counted); `worst_score` is the minimum over scored files and
 * `worst_band` that file's band; `judged_count` counts the files the judge read;
 * `aggregate_assessed_intent` is the most severe intent over the files that have one (the judge's
 * or the static one, docs/decisions/0011-assessed-intent-without-a-judge.md; benign < suspicious <
 * malicious), null when none has. `decision` is the strictest
 * file decision, and `coverage` says how much of the upload was analysed; `byteLengths` gives each
 * file's size by path.
 */
export function buildSummary(files: ScanFileEntry[], byteLengths: ReadonlyMap<string, number>): ScanSummary {
  const counted = files.filter((f) => f.skip_reason !== 'directory' && f.skip_reason !== 'os_metadata');
  const scored = files.filter((f) => f.score !== null);
  const withIntent = files.filter((f) => f.assessed_intent !== null);

  let worst: ScanFileEntry | null = null;
  for (const f of scored) if (worst === null || (f.score as number) < (worst.score as number)) worst = f;

  let intent: AssessedIntent | null = null;
  for (const f of withIntent) {
    const i = f.assessed_intent as AssessedIntent;
    if (intent === null || intentRank(i) > intentRank(intent)) intent = i;
  }

  let decision: Decision = 'allow';
  for (const f of counted) if (DECISIONS.indexOf(f.verdict.decision) > DECISIONS.indexOf(decision)) decision = f.verdict.decision;
  const analysed = counted.filter((f) => !f.content_skipped);
  const bytes = (list: ScanFileEntry[]): number => list.reduce((n, f) => n + (byteLengths.get(f.relative_path) ?? 0), 0);

  return {
    file_count: counted.length,
    scored_count: scored.length,
    judged_count: files.filter(judgeRead).length,
    worst_score: worst ? worst.score : null,
    worst_band: worst ? worst.band : null,
    aggregate_assessed_intent: intent,
    decision,
    coverage: {
      files_analysed: analysed.length,
      files_not_analysed: counted.length - analysed.length,
      bytes_analysed: bytes(analysed),
      bytes_total: bytes(counted),
    },
  };
}

/** The judge read the file and answered (its intent may still be null: a judge may decline one). */
export function judgeRead(f: ScanFileEntry): boolean {
  return f.score_breakdown.coverage.judge_status === 'ok';
}

import { INTENTS, type AssessedIntent, type ScanFileEntry, type ScanSummary } from './scan-report.types';

/**
 * Upload-wide rollup (DESIGN.md §9): `file_count` counts the files the limits count (directories
 * and OS metadata are listed but not counted); `worst_score` is the minimum over scored files and
 * `worst_band` that file's band; `aggregate_assessed_intent` the most severe intent over judged
 * files (benign < suspicious < malicious), null when nothing was judged.
 */
export function buildSummary(files: ScanFileEntry[]): ScanSummary {
  const counted = files.filter((f) => f.skip_reason !== 'directory' && f.skip_reason !== 'os_metadata');
  const scored = files.filter((f) => f.score !== null);
  const judged = files.filter((f) => f.assessed_intent !== null);

  let worst: ScanFileEntry | null = null;
  for (const f of scored) if (worst === null || (f.score as number) < (worst.score as number)) worst = f;

  let intent: AssessedIntent | null = null;
  for (const f of judged) {
    const i = f.assessed_intent as AssessedIntent;
    if (intent === null || INTENTS.indexOf(i) > INTENTS.indexOf(intent)) intent = i;
  }

  return {
    file_count: counted.length,
    scored_count: scored.length,
    judged_count: judged.length,
    worst_score: worst ? worst.score : null,
    worst_band: worst ? worst.band : null,
    aggregate_assessed_intent: intent,
  };
}

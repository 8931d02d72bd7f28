import Ajv, { type ValidateFunction } from 'ajv';
import { scanReportSchema } from './scan-report.schema';
import { BANDS, INTENTS, intentRank, type AssessedIntent, type ScanReport } from './scan-report.types';
import { judgeRead } from './report-summary';

/**
 * Validates a ScanReport against the JSON Schema plus the cross-field rules a schema in the
 * OpenAPI 3.0 subset cannot state (skip_reason iff content_skipped, also in the breakdown's coverage; the summary rollup). Used by
 * every test that produces a report, and available to the CLI and the evaluation harness.
 */

let compiled: ValidateFunction | null = null;

function schemaValidator(): ValidateFunction {
  compiled ??= new Ajv({ allErrors: true, strict: true, strictTypes: false }).compile(scanReportSchema);
  return compiled;
}

export function validateScanReport(report: unknown): string[] {
  const validate = schemaValidator();
  if (!validate(report)) {
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'invalid'}`);
  }
  const r = report as ScanReport;
  const errors: string[] = [];
  r.files.forEach((f, i) => {
    const at = `/files/${i}`;
    if (f.content_skipped !== (f.skip_reason !== undefined)) errors.push(`${at} skip_reason must be present exactly when content_skipped`);
    // Every entry has a breakdown; its coverage names the skip reason exactly when the content was skipped.
    if (f.score_breakdown.coverage.skip_reason !== f.skip_reason) errors.push(`${at} score_breakdown.coverage.skip_reason must equal skip_reason`);
    // A skipped file is unscored, unless nothing else in the upload could carry its risk: then it
    // is scored from its own not-analysed finding alone (docs/decisions/0002-unanalysed-content.md).
    const unscored = f.score === null && f.band === 'info' && f.static_findings.length === 0;
    const scoredFromSkip = f.score !== null && f.static_findings.length > 0 && f.static_findings.every((s) => s.rule_id.startsWith('bundle.'));
    if (f.content_skipped && (f.score_breakdown.coverage.bytes_analysed !== 0 || (!unscored && !scoredFromSkip))) {
      errors.push(`${at} a skipped file has no bytes analysed, and score null and band info, or a score from its not-analysed findings alone`);
    }
    if (!f.content_skipped && f.score === null) errors.push(`${at} an analysed file has a score`);
    for (const s of f.static_findings) if (!s.locator.startsWith(`${f.relative_path}:`)) errors.push(`${at} locator ${s.locator} points outside the file`);
  });
  const paths = r.files.map((f) => f.relative_path);
  if (new Set(paths).size !== paths.length) errors.push('/files relative_path values must be unique');

  const scored = r.files.filter((f) => f.score !== null);
  const withIntent = r.files.filter((f) => f.assessed_intent !== null);
  const counted = r.files.filter((f) => f.skip_reason !== 'directory' && f.skip_reason !== 'os_metadata');
  const s = r.summary;
  if (s.file_count !== counted.length) errors.push('/summary/file_count does not match the files');
  if (s.scored_count !== scored.length) errors.push('/summary/scored_count does not match the files');
  if (s.judged_count !== r.files.filter(judgeRead).length) errors.push('/summary/judged_count does not match the files');
  const worst = scored.length ? Math.min(...scored.map((f) => f.score as number)) : null;
  if (s.worst_score !== worst) errors.push('/summary/worst_score is not the minimum score');
  const worstBand = worst === null ? null : (scored.find((f) => f.score === worst)?.band ?? null);
  if (s.worst_band !== worstBand || (s.worst_band !== null && !BANDS.includes(s.worst_band))) errors.push('/summary/worst_band is not the worst file band');
  const intents = withIntent.map((f) => intentRank(f.assessed_intent as AssessedIntent));
  const agg = intents.length ? INTENTS[Math.max(...intents)] : null;
  if (s.aggregate_assessed_intent !== agg) errors.push('/summary/aggregate_assessed_intent is not the most severe intent of the files');
  return errors;
}

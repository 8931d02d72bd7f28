/**
 * Intent from static signals, so a report carries one without the judge. Risky practice alone
 * (a medium band or worse) is `suspicious`; `malicious` needs intent shown by a direct, confident,
 * high or critical finding of a rule whose technique shows intent (`shows_intent` in its meta:
 * concealment, prepared lies, hidden or overriding instructions, attacker destinations,
 * destruction or spending nobody asked for). A credential flow or a risky command alone is
 * practice, not intent. Nothing to report yields null: the rules never vouch for a file as benign.
 */
import { bandRank, intentRank, severityRank, type AssessedIntent, type Band, type StaticFinding } from '../engine/scan-report.types';
import { ALL_RULES } from '../rules/presets';

const INTENT_RULES: ReadonlySet<string> = new Set(ALL_RULES.filter((r) => r.meta.shows_intent).map((r) => r.meta.id));

function showsIntent(f: StaticFinding): boolean {
  if ((f.context ?? 'direct') !== 'direct' || f.confidence === 'low') return false;
  return severityRank(f.severity) >= severityRank('high') && INTENT_RULES.has(f.rule_id);
}

export function staticIntent(band: Band, findings: readonly StaticFinding[]): AssessedIntent | null {
  if (bandRank(band) < bandRank('medium')) return null;
  return findings.some(showsIntent) ? 'malicious' : 'suspicious';
}

/** The more severe of two assessments (the judge's, when it answered, and the static one). */
export function worseIntent(a: AssessedIntent | null, b: AssessedIntent | null): AssessedIntent | null {
  if (a === null) return b;
  if (b === null) return a;
  return intentRank(a) >= intentRank(b) ? a : b;
}

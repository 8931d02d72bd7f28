import { createHash } from 'node:crypto';
import { severityRank, type Band, type RiskCategory, type ScanFileEntry, type Severity } from '../../scanner/engine/scan-report.types';
import type { Baseline } from './baseline';
import { policyDisables, type Policy } from './policy';
import type { ScanConfig } from './scan-config';

/**
 * Every finding of a run with what the scanning user's side says about it (decision 0012):
 * suppressed by `.bulwark.yaml` (a path ignore or a rule disable), re-rated by a severity
 * override, or accepted by a baseline. Nothing here reads the scanned files: an inline marker in
 * a scanned file cannot change any of this. Suppressed findings stay in every output; they only
 * stop counting toward the gates.
 */

export type SuppressionKind = 'policy' | 'config_path' | 'config_rule' | 'baseline';

export interface Suppression {
  kind: SuppressionKind;
  reason: string;
  /** The policy flag, or the config file or baseline file that holds the entry. */
  source: string;
}

export interface TriagedFinding {
  /** Stable under line moves and whitespace edits: rule, path, normalised evidence, occurrence. */
  fingerprint: string;
  rule_id: string;
  origin: 'static' | 'judge';
  /** Path of the finding's location (its locator without the line). */
  path: string;
  line: number;
  /** The file entry the finding belongs to. */
  file: string;
  /** Effective severity (after a config override). */
  severity: Severity;
  /** Present when a config override changed the severity. */
  original_severity?: Severity;
  severity_override?: { reason: string; source: string };
  message: string;
  evidence: string;
  /** The finding's risk category (the rule's, or the judge's). */
  category: RiskCategory;
  /**
   * How the finding's text stands in its file (the report's `context`): only `direct` findings
   * count at `--fail-on-severity` (except under `--policy strict`); a negated, quoted or example mention is already discounted
   * in the file's band and would otherwise fail the gate on documentation about attacks.
   */
  context: string;
  suppressed: Suppression | null;
}

export function parseLocator(locator: string, fallbackPath: string): { path: string; line: number } {
  const m = /^(.*):(\d{1,9})$/.exec(locator);
  if (!m) return { path: fallbackPath, line: 1 };
  return { path: m[1] || fallbackPath, line: Math.max(1, Number(m[2])) };
}

/** Whitespace runs collapse to one space; ends trimmed. Case and wording are kept. */
export const normaliseEvidence = (e: string): string => e.replace(/\s+/g, ' ').trim();

const fingerprintOf = (ruleId: string, path: string, evidence: string, occurrence: number): string =>
  createHash('sha256')
    .update(`bulwark-fp/v1\u0000${ruleId}\u0000${path}\u0000${normaliseEvidence(evidence)}\u0000${occurrence}`)
    .digest('hex')
    .slice(0, 32);

/** The findings of the merged files with fingerprints, nothing suppressed yet. */
export function collectFindings(files: ScanFileEntry[]): TriagedFinding[] {
  const raw: Omit<TriagedFinding, 'fingerprint'>[] = [];
  for (const f of files) {
    for (const s of f.static_findings) {
      const loc = parseLocator(s.locator, f.relative_path);
      raw.push({
        rule_id: s.rule_id,
        origin: 'static',
        ...loc,
        file: f.relative_path,
        severity: s.severity,
        message: s.message,
        evidence: s.evidence ?? '',
        category: s.category,
        context: s.context ?? 'direct',
        suppressed: null,
      });
    }
    for (const j of f.llm_findings) {
      const loc = parseLocator(j.locator, f.relative_path);
      raw.push({
        rule_id: `judge/${j.category}`,
        origin: 'judge',
        ...loc,
        file: f.relative_path,
        severity: j.severity,
        message: j.rationale,
        evidence: j.evidence ?? '',
        category: j.category,
        context: 'direct',
        suppressed: null,
      });
    }
  }
  // Occurrence index: the k-th finding with the same rule, path and evidence, in line order.
  const ordered = raw.map((r, i) => ({ r, i })).sort((a, b) => (a.r.path < b.r.path ? -1 : a.r.path > b.r.path ? 1 : a.r.line - b.r.line || a.i - b.i));
  const seen = new Map<string, number>();
  const out: TriagedFinding[] = new Array<TriagedFinding>(raw.length);
  for (const { r, i } of ordered) {
    const key = `${r.rule_id}\u0000${r.path}\u0000${normaliseEvidence(r.evidence)}`;
    const k = seen.get(key) ?? 0;
    seen.set(key, k + 1);
    out[i] = { fingerprint: fingerprintOf(r.rule_id, r.path, r.evidence, k), ...r };
  }
  return out;
}

export interface TriageInputs {
  config: ScanConfig | null;
  baseline: Baseline | null;
  /** The preset (decision 0016); none: every rule counts. */
  policy?: Policy | null;
}

/**
 * Applies the policy preset, then the config (path ignores, rule disables, severity overrides),
 * then the baseline. A config entry for a rule replaces the preset's word on that rule where it
 * applies: a severity override counts the rule again at that severity, a disable keeps it off.
 */
export function triage(findings: TriagedFinding[], { config, baseline, policy }: TriageInputs): TriagedFinding[] {
  const baselined = new Map<string, number>();
  for (const e of baseline?.fingerprints ?? []) baselined.set(e, (baselined.get(e) ?? 0) + 1);
  return findings.map((f0) => {
    const f: TriagedFinding = { ...f0 };
    const applies = config?.rules.filter((r) => r.ruleId === f.rule_id && (!r.paths || r.paths.some((g) => g.matches(f.path) || g.matches(f.file)))) ?? [];
    const off = policy && applies.length === 0 ? policyDisables(policy, f.rule_id) : null;
    if (policy && off) f.suppressed = { kind: 'policy', reason: off, source: `--policy ${policy.name}` };
    if (config) {
      const ignore = config.ignore.find((i) => i.glob.matches(f.path) || i.glob.matches(f.file));
      if (ignore) f.suppressed = { kind: 'config_path', reason: ignore.reason, source: `${config.source} ignore ${ignore.glob.source}` };
      const override = applies.find((r) => r.severity);
      if (override?.severity && override.severity !== f.severity) {
        f.original_severity = f.severity;
        f.severity = override.severity;
        f.severity_override = { reason: override.reason, source: config.source };
      }
      const disable = applies.find((r) => r.disable);
      if (disable && !f.suppressed) f.suppressed = { kind: 'config_rule', reason: disable.reason, source: `${config.source} rules.${disable.ruleId}` };
    }
    const left = baselined.get(f.fingerprint) ?? 0;
    if (baseline && left > 0 && !f.suppressed) {
      baselined.set(f.fingerprint, left - 1);
      f.suppressed = { kind: 'baseline', reason: 'accepted in the baseline', source: baseline.source };
    }
    return f;
  });
}

/**
 * The band a file counts with at `--fail-on`: the report's band when nothing in it was
 * suppressed or re-rated; else capped at its worst remaining finding (none left: it does not
 * count). A file's score is the server's whole-file judgement and cannot be split per finding,
 * so the cap is the honest bound; `--fail-on-severity` gates per finding.
 */
export function effectiveBand(file: ScanFileEntry, findings: TriagedFinding[]): Band | null {
  if (file.score === null) return null;
  const own = findings.filter((f) => f.file === file.relative_path);
  const touched = own.some((f) => f.suppressed || f.original_severity);
  if (!touched) return file.band;
  const active = own.filter((f) => !f.suppressed);
  if (active.length === 0) return null;
  const worst = active.reduce((w, f) => (severityRank(f.severity) > severityRank(w) ? f.severity : w), 'info' as Severity);
  return severityRank(worst) < severityRank(file.band) ? worst : file.band;
}

import { bandRank, severityRank, type Band, type ScanFileEntry, type ScanReport, type Severity } from '../../scanner/engine/scan-report.types';
import { EXIT_ERROR, EXIT_GATED, EXIT_OK, EXIT_UNSCANNED } from '../cli-io';
import type { Baseline } from './baseline';
import { coverageOf, type Coverage } from './coverage';
import type { InlineMarker } from './inline-markers';
import { policyOf, type PolicyName } from './policy';
import type { ScanConfig } from './scan-config';
import { collectFindings, effectiveBand, triage, type TriagedFinding } from './triage';
import type { NotSentFile, PlannedUpload } from './upload-planner';

/** One upload and what came back: a report, or the reason it failed. */
export interface UploadOutcome {
  filename: string;
  files: string[];
  report?: ScanReport;
  error?: { status: number | null; message: string };
}

/** Everything one `bulwark scan` produced; the formatters render it and the gate reads it. */
export interface ScanRun {
  mode: 'local' | 'remote';
  server: string | null;
  judge: string;
  outcomes: UploadOutcome[];
  notSent: NotSentFile[];
  failOn: Band | null;
  /** `--fail-on-severity`: fails when any finding that is not suppressed has this severity or worse. */
  failOnSeverity?: Severity | null;
  /** `--allow-unscanned`: files found but not analysed do not fail the run. */
  allowUnscanned?: boolean;
  /** Folder arguments under which no agent file was found. */
  emptyRoots: string[];
  /** The walk stopped at its entry budget: some of the tree was never looked at. */
  walkTruncated?: boolean;
  /** `--policy` (decision 0016); absent: balanced. */
  policy?: PolicyName;
  /** The scanning user's suppressions (decision 0012). */
  config?: ScanConfig | null;
  baseline?: Baseline | null;
  /** Inline suppression markers found in scanned files: reported, never obeyed. */
  inlineMarkers?: InlineMarker[];
  /** Other notes for the user (config files inside scanned folders that were not read …). */
  notes?: string[];
}

/**
 * Every file of every report, one entry per path. A SKILL.md sent with several batches of its
 * scripts appears in each report; the worst-scored entry is kept.
 */
export function mergedFiles(run: ScanRun): ScanFileEntry[] {
  const byPath = new Map<string, ScanFileEntry>();
  for (const o of run.outcomes) {
    for (const f of o.report?.files ?? []) {
      const prev = byPath.get(f.relative_path);
      if (!prev || worse(f, prev)) byPath.set(f.relative_path, f);
    }
  }
  return [...byPath.values()].sort(
    (a, b) => bandRank(b.band) - bandRank(a.band) || (a.score ?? 101) - (b.score ?? 101) || (a.relative_path < b.relative_path ? -1 : 1),
  );
}

function worse(a: ScanFileEntry, b: ScanFileEntry): boolean {
  if (a.score === null) return false;
  if (b.score === null) return true;
  return a.score < b.score || (a.score === b.score && a.static_findings.length + a.llm_findings.length > b.static_findings.length + b.llm_findings.length);
}

export interface RunSummary {
  uploads: number;
  failed_uploads: number;
  files: number;
  scored_files: number;
  worst_band: Band | null;
  worst_score: number | null;
  /** Findings that count (not suppressed), by effective severity. */
  findings: Record<Severity, number>;
  /** Findings suppressed by the config or the baseline (still listed in every output). */
  suppressed: number;
  not_sent: number;
  coverage: Coverage;
}

/** Every finding with its suppression state (policy preset, config, then baseline). */
export function findingsOf(run: ScanRun): TriagedFinding[] {
  return triage(collectFindings(mergedFiles(run)), { config: run.config ?? null, baseline: run.baseline ?? null, policy: policyOf(run.policy) });
}

export function summarise(run: ScanRun): RunSummary {
  const files = mergedFiles(run);
  const scored = files.filter((f) => f.score !== null);
  const worst = scored.reduce<ScanFileEntry | null>((w, f) => (!w || (f.score ?? 101) < (w.score ?? 101) ? f : w), null);
  const findings: Record<Severity, number> = { info: 0, low: 0, medium: 0, high: 0, critical: 0 };
  const triaged = findingsOf(run);
  for (const x of triaged) if (!x.suppressed) findings[x.severity] += 1;
  return {
    uploads: run.outcomes.length,
    failed_uploads: run.outcomes.filter((o) => o.error).length,
    files: files.length,
    scored_files: scored.length,
    // Bands come from the reports (the server's scoring), not recomputed from the score here.
    worst_band: scored.reduce<Band | null>((w, f) => (w === null || bandRank(f.band) > bandRank(w) ? f.band : w), null),
    worst_score: worst?.score ?? null,
    findings,
    suppressed: triaged.filter((x) => x.suppressed).length,
    not_sent: run.notSent.length,
    coverage: coverageOf(run),
  };
}

export interface GateResult {
  /** `--fail-on`: the worst band a file counts with (suppressed findings removed, see effectiveBand). */
  band: { threshold: Band; worst: Band | null; failed: boolean } | null;
  /** `--fail-on-severity`: the worst severity of a finding that is not suppressed. */
  severity: { threshold: Severity; worst: Severity | null; failed: boolean } | null;
  /** Files found but not analysed that fail the run (exit 3) unless --allow-unscanned. */
  unscanned: { count: number; allowed: boolean; failed: boolean };
  failed: boolean;
}

export function gateOf(run: ScanRun, summary: RunSummary = summarise(run)): GateResult {
  const triaged = findingsOf(run);
  let band: GateResult['band'] = null;
  if (run.failOn) {
    const worst = mergedFiles(run).reduce<Band | null>((w, f) => {
      const b = effectiveBand(f, triaged);
      return b !== null && (w === null || bandRank(b) > bandRank(w)) ? b : w;
    }, null);
    band = { threshold: run.failOn, worst, failed: worst !== null && bandRank(worst) >= bandRank(run.failOn) };
  }
  let severity: GateResult['severity'] = null;
  if (run.failOnSeverity) {
    const contexts: readonly string[] = policyOf(run.policy).gatedContexts;
    const worst = triaged
      .filter((f) => !f.suppressed && contexts.includes(f.context))
      .reduce<Severity | null>((w, f) => (w === null || severityRank(f.severity) > severityRank(w) ? f.severity : w), null);
    severity = { threshold: run.failOnSeverity, worst, failed: worst !== null && severityRank(worst) >= severityRank(run.failOnSeverity) };
  }
  const count = summary.coverage.unscanned;
  const unscanned = { count, allowed: run.allowUnscanned === true, failed: count > 0 && run.allowUnscanned !== true };
  return { band, severity, unscanned, failed: !!band?.failed || !!severity?.failed || unscanned.failed };
}

/** The findings gates (`--fail-on`, `--fail-on-severity`), suppressed findings excluded. */
export function gateFailed(run: ScanRun, summary: RunSummary = summarise(run)): boolean {
  const g = gateOf(run, summary);
  return !!g.band?.failed || !!g.severity?.failed;
}

/**
 * 2 when any upload failed (the scan is incomplete), else 3 when files were found but not
 * analysed (without --allow-unscanned), else 1 when a findings gate fails, else 0.
 */
export function exitCodeOf(run: ScanRun): number {
  if (run.outcomes.some((o) => o.error)) return EXIT_ERROR;
  const summary = summarise(run);
  const gate = gateOf(run, summary);
  if (gate.unscanned.failed) return EXIT_UNSCANNED;
  return gate.band?.failed || gate.severity?.failed ? EXIT_GATED : EXIT_OK;
}

/** One line per gate that applies, then the exit code when it is not 0; `ok` drives the colour. */
export function gateReport(run: ScanRun): { ok: boolean; text: string }[] {
  const summary = summarise(run);
  const g = gateOf(run, summary);
  const code = exitCodeOf(run);
  const out: { ok: boolean; text: string }[] = [];
  if (g.band)
    out.push({
      ok: !g.band.failed,
      text: `Gate --fail-on ${g.band.threshold}: ${g.band.failed ? 'FAILED' : 'passed'} (worst band counted: ${g.band.worst ?? 'none'})`,
    });
  if (g.severity)
    out.push({
      ok: !g.severity.failed,
      text: `Gate --fail-on-severity ${g.severity.threshold}: ${g.severity.failed ? 'FAILED' : 'passed'} (worst finding counted: ${g.severity.worst ?? 'none'})`,
    });
  if (g.unscanned.count > 0) {
    out.push({
      ok: !g.unscanned.failed,
      text: g.unscanned.failed
        ? `Coverage: FAILED: ${g.unscanned.count} file(s) found but not analysed (listed above); fix the cause or pass --allow-unscanned`
        : `Coverage: ${g.unscanned.count} file(s) found but not analysed, accepted by --allow-unscanned`,
    });
  }
  if (summary.suppressed) out.push({ ok: true, text: `${summary.suppressed} suppressed finding(s) do not count toward the gates (listed in json and sarif)` });
  if (code !== 0)
    out.push({
      ok: false,
      text: `Exit ${code}${code === EXIT_ERROR ? ': the scan is incomplete (errors above)' : code === EXIT_UNSCANNED ? ': not every file found was analysed' : ': gated findings'}`,
    });
  return out;
}

export const gateLines = (run: ScanRun): string[] => gateReport(run).map((l) => l.text);

export const outcomeOf = (u: PlannedUpload): Pick<UploadOutcome, 'filename' | 'files'> => ({ filename: u.filename, files: u.files });

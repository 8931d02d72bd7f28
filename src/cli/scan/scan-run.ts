import { BANDS, type Band, type ScanFileEntry, type ScanReport } from '../../scanner/engine/scan-report.types';
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
  /** Folder arguments under which no agent file was found. */
  emptyRoots: string[];
}

export const bandRank = (b: Band): number => BANDS.indexOf(b);

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
  findings: Record<Band, number>;
  not_sent: number;
}

export function summarise(run: ScanRun): RunSummary {
  const files = mergedFiles(run);
  const scored = files.filter((f) => f.score !== null);
  const worst = scored.reduce<ScanFileEntry | null>((w, f) => (!w || (f.score ?? 101) < (w.score ?? 101) ? f : w), null);
  const findings: Record<Band, number> = { info: 0, low: 0, medium: 0, high: 0, critical: 0 };
  for (const f of files) for (const x of [...f.static_findings, ...f.llm_findings]) findings[x.severity] += 1;
  return {
    uploads: run.outcomes.length,
    failed_uploads: run.outcomes.filter((o) => o.error).length,
    files: files.length,
    scored_files: scored.length,
    // Bands come from the reports (the server's scoring), not recomputed from the score here.
    worst_band: scored.reduce<Band | null>((w, f) => (w === null || bandRank(f.band) > bandRank(w) ? f.band : w), null),
    worst_score: worst?.score ?? null,
    findings,
    not_sent: run.notSent.length,
  };
}

/** The CI gate: fails when some scanned file is in the `--fail-on` band or a worse one. */
export function gateFailed(run: ScanRun, summary: RunSummary = summarise(run)): boolean {
  return run.failOn !== null && summary.worst_band !== null && bandRank(summary.worst_band) >= bandRank(run.failOn);
}

/** 2 when any upload failed (the scan is incomplete), else 1 when the gate fails, else 0. */
export function exitCodeOf(run: ScanRun): number {
  if (run.outcomes.some((o) => o.error)) return 2;
  return gateFailed(run) ? 1 : 0;
}

export const outcomeOf = (u: PlannedUpload): Pick<UploadOutcome, 'filename' | 'files'> => ({ filename: u.filename, files: u.files });

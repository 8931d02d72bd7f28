import type { JudgeFinding, ScanFileEntry, Severity, StaticFinding } from '../../scanner/engine/scan-report.types';
import { exitCodeOf, gateFailed, mergedFiles, summarise, type ScanRun } from '../scan/scan-run';
import { safeText, type Palette } from './terminal';

/** Findings printed per file; the rest are counted (the JSON and SARIF outputs carry them all). */
export const MAX_FINDINGS_SHOWN = 20;

const SEVERITY_ORDER: Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

interface Row {
  locator: string;
  severity: Severity;
  id: string;
  message: string;
  evidence: string;
}

const lineOf = (locator: string): number => Number(/:(\d+)$/.exec(locator)?.[1] ?? 0);

function rows(f: ScanFileEntry): Row[] {
  const s = f.static_findings.map((x: StaticFinding) => ({ locator: x.locator, severity: x.severity, id: x.rule_id, message: x.message, evidence: x.evidence }));
  const j = f.llm_findings.map((x: JudgeFinding) => ({ locator: x.locator, severity: x.severity, id: `judge/${x.category}`, message: x.rationale, evidence: x.evidence }));
  return [...s, ...j].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || lineOf(a.locator) - lineOf(b.locator));
}

/** The terminal report: worst band first, findings with `path:line`, then what was not scanned. */
export function formatText(run: ScanRun, p: Palette): string {
  const out: string[] = [];
  const summary = summarise(run);
  const where = run.mode === 'local' ? 'local (in-process engine)' : `remote ${safeText(run.server ?? '')}`;
  out.push(p.bold(`Bulwark scan: ${where} · ${summary.uploads} upload${summary.uploads === 1 ? '' : 's'} · judge ${run.judge}`));
  out.push('');

  const files = mergedFiles(run);
  for (const f of files) {
    const band = f.band.toUpperCase().padEnd(8);
    const score = f.score === null ? '  -/100' : `${String(f.score).padStart(3)}/100`;
    const tail = f.content_skipped ? `not analysed: ${f.skip_reason ?? 'skipped'}` : `${f.kind}, ${f.verdict?.decision ?? ''}`.replace(/, $/, '');
    out.push(`${p.band(f.score === null ? null : f.band, band)} ${score}  ${p.bold(safeText(f.relative_path))}  ${p.dim(`(${tail})`)}`);
    const list = rows(f);
    for (const r of list.slice(0, MAX_FINDINGS_SHOWN)) {
      out.push(`    ${safeText(r.locator)}  ${p.band(r.severity, r.severity.padEnd(8))} ${r.id}  ${safeText(r.message, 160)}`);
      if (r.evidence) out.push(`        ${p.dim(safeText(r.evidence, 120))}`);
    }
    if (list.length > MAX_FINDINGS_SHOWN) out.push(p.dim(`    … and ${list.length - MAX_FINDINGS_SHOWN} more (see --format json or sarif)`));
  }
  if (files.length === 0) out.push(p.dim('No files were scanned.'));

  if (run.notSent.length) {
    out.push('', p.bold(`Not sent (${run.notSent.length}):`));
    for (const n of run.notSent) out.push(`    ${safeText(n.path)}: ${safeText(n.reason)}`);
  }
  for (const root of run.emptyRoots) out.push('', p.dim(`No agent files found under ${safeText(root)}.`));
  const failed = run.outcomes.filter((o) => o.error);
  if (failed.length) {
    out.push('', p.bad(p.bold(`Errors (${failed.length}):`)));
    for (const o of failed) out.push(`    ${safeText(o.files.join(', '), 160)}: ${o.error!.message}`);
  }

  const counts = SEVERITY_ORDER.filter((s) => summary.findings[s]).map((s) => `${summary.findings[s]} ${s}`);
  out.push(
    '',
    `${summary.files} file${summary.files === 1 ? '' : 's'} in ${summary.uploads} upload${summary.uploads === 1 ? '' : 's'} · worst band: ${
      summary.worst_band ? p.band(summary.worst_band, `${summary.worst_band} (${summary.worst_score}/100)`) : 'none'
    } · findings: ${counts.length ? counts.join(', ') : 'none'}`,
  );
  if (run.failOn) {
    const code = exitCodeOf(run);
    out.push(gateFailed(run, summary) ? p.bad(`Gate --fail-on ${run.failOn}: FAILED (exit ${code})`) : p.ok(`Gate --fail-on ${run.failOn}: passed${code ? ` (exit ${code}: errors above)` : ''}`));
  }
  return `${out.join('\n')}\n`;
}

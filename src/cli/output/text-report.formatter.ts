import type { Severity } from '../../scanner/engine/scan-report.types';
import { coverageLine } from '../scan/coverage';
import { findingsOf, gateReport, mergedFiles, summarise, type ScanRun } from '../scan/scan-run';
import type { TriagedFinding } from '../scan/triage';
import { safeText, type Palette } from './terminal';

/** Findings printed per file; the rest are counted (the JSON and SARIF outputs carry them all). */
export const MAX_FINDINGS_SHOWN = 20;

const SEVERITY_ORDER: Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

const byWorst = (a: TriagedFinding, b: TriagedFinding): number => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || a.line - b.line;

const KIND_LABEL = { policy: 'policy', config_path: 'config ignore', config_rule: 'config', baseline: 'baseline' } as const;

/** The terminal report: worst band first, findings with `path:line`, then what was not scanned. */
export function formatText(run: ScanRun, p: Palette): string {
  const out: string[] = [];
  const summary = summarise(run);
  const where = run.mode === 'local' ? 'local (in-process engine)' : `remote ${safeText(run.server ?? '')}`;
  out.push(p.bold(`Bulwark scan: ${where} · ${summary.uploads} upload${summary.uploads === 1 ? '' : 's'} · judge ${run.judge}`));
  out.push('');

  const files = mergedFiles(run);
  const triaged = findingsOf(run);
  for (const f of files) {
    const band = f.band.toUpperCase().padEnd(8);
    const score = f.score === null ? '  -/100' : `${String(f.score).padStart(3)}/100`;
    const tail = f.content_skipped ? `not analysed: ${f.skip_reason ?? 'skipped'}` : `${f.kind}, ${f.verdict?.decision ?? ''}`.replace(/, $/, '');
    const own = triaged.filter((x) => x.file === f.relative_path);
    const list = own.filter((x) => !x.suppressed).sort(byWorst);
    // The band is the report's; say when nothing behind it counts any more.
    const quiet = own.length > 0 && list.length === 0 ? ', every finding suppressed' : '';
    out.push(`${p.band(f.score === null ? null : f.band, band)} ${score}  ${p.bold(safeText(f.relative_path))}  ${p.dim(`(${tail}${quiet})`)}`);
    for (const r of list.slice(0, MAX_FINDINGS_SHOWN)) {
      const was = r.original_severity ? p.dim(` (was ${r.original_severity}: ${safeText(r.severity_override!.reason, 80)})`) : '';
      out.push(`    ${safeText(`${r.path}:${r.line}`)}  ${p.band(r.severity, r.severity.padEnd(8))} ${r.rule_id}  ${safeText(r.message, 160)}${was}`);
      if (r.evidence) out.push(`        ${p.dim(safeText(r.evidence, 120))}`);
    }
    if (list.length > MAX_FINDINGS_SHOWN) out.push(p.dim(`    … and ${list.length - MAX_FINDINGS_SHOWN} more (see --format json or sarif)`));
    const suppressed = own.filter((x) => x.suppressed);
    if (suppressed.length) {
      const by = new Map<string, number>();
      for (const x of suppressed) by.set(KIND_LABEL[x.suppressed!.kind], (by.get(KIND_LABEL[x.suppressed!.kind]) ?? 0) + 1);
      out.push(p.dim(`    ${suppressed.length} suppressed (${[...by].map(([k, n]) => `${n} by ${k}`).join(', ')}; listed in json and sarif)`));
    }
  }
  if (files.length === 0) out.push(p.dim('No files were scanned.'));

  if (run.notSent.length) {
    out.push('', p.bold(`Not sent (${run.notSent.length}):`));
    const gating = new Set(summary.coverage.not_analysed.filter((i) => i.stage === 'not_sent' && i.gating).map((i) => i.path));
    for (const n of run.notSent) out.push(`    ${safeText(n.path)}: ${safeText(n.reason)}${gating.has(n.path) ? p.bad(' [unscanned]') : ''}`);
  }
  const markers = run.inlineMarkers ?? [];
  if (markers.length) {
    out.push('', p.bold(`Inline suppression markers in scanned files (${markers.length}), not obeyed: suppressions come only from .bulwark.yaml / --config and --baseline:`));
    for (const m of markers) out.push(`    ${safeText(`${m.path}:${m.line}`)}  ${safeText(m.text, 60)}`);
  }
  for (const n of run.notes ?? []) out.push('', p.dim(n));
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
  out.push(coverageLine(summary.coverage));
  for (const l of gateReport(run)) out.push(l.ok ? p.ok(l.text) : p.bad(l.text));
  return `${out.join('\n')}\n`;
}

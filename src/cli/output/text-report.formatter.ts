import { SEVERITIES_WORST_FIRST } from '../../scanner/engine/scan-report.types';
import { coverageLine } from '../scan/coverage';
import { gateReport, summarise, type ScanRun } from '../scan/scan-run';
import { fileSections } from './report-model';
import { safeText, type Palette } from './terminal';

/** Findings printed per file; the rest are counted (the JSON and SARIF outputs carry them all). */
export const MAX_FINDINGS_SHOWN = 20;

const WIDTH = 100;

/** Untrusted or long text as indented lines of at most WIDTH columns (words kept whole when they fit). */
function wrapped(prefix: string, text: string, indent: string, max = 600): string[] {
  const words = safeText(text, max).split(' ');
  const lines: string[] = [];
  let cur = prefix;
  for (const w of words) {
    if (cur.length + w.length + 1 > WIDTH && cur.trim().length > prefix.trim().length) {
      lines.push(cur);
      cur = indent;
    }
    cur += (cur === prefix || cur === indent ? '' : ' ') + w;
  }
  lines.push(cur);
  return lines;
}

/**
 * The terminal report: files worst first, each with a one-line verdict, then every counted
 * finding with what it is, where, the evidence, why it matters, how to fix it and its docs link
 * (once per rule per file), then what was not scanned, the coverage line and the gates.
 */
export function formatText(run: ScanRun, p: Palette, env: Readonly<Record<string, string | undefined>> = {}): string {
  const out: string[] = [];
  const summary = summarise(run);
  const where = run.mode === 'local' ? 'local (in-process engine)' : `remote ${safeText(run.server ?? '')}`;
  out.push(p.bold(`Bulwark scan: ${where} · ${summary.uploads} upload${summary.uploads === 1 ? '' : 's'} · judge ${run.judge}`));

  const sections = fileSections(run, env);
  for (const { file: f, findings, suppressed, verdict } of sections) {
    const band = f.band.toUpperCase().padEnd(8);
    const score = f.score === null ? '  -/100' : `${String(f.score).padStart(3)}/100`;
    const tail = f.content_skipped ? `not analysed: ${f.skip_reason ?? 'skipped'}` : `${f.kind}, ${f.verdict?.decision ?? ''}`.replace(/, $/, '');
    const quiet = suppressed.total > 0 && findings.length === 0 ? ', every finding suppressed' : '';
    out.push('', `${p.band(f.score === null ? null : f.band, band)} ${score}  ${p.bold(safeText(f.relative_path))}  ${p.dim(`(${tail}${quiet})`)}`);
    out.push(`  Verdict: ${safeText(verdict, 300)}`);
    const explained = new Set<string>();
    for (const r of findings.slice(0, MAX_FINDINGS_SHOWN)) {
      const was = r.original_severity ? p.dim(` (was ${r.original_severity}: ${safeText(r.severity_override!.reason, 80)})`) : '';
      out.push(`  ${p.band(r.severity, r.severity.padEnd(8))} ${r.rule_id}  ${safeText(r.guidance.title, 120)}${was}`);
      const message = r.message && r.message !== r.guidance.title ? `: ${safeText(r.message, 160)}` : '';
      out.push(`      at ${safeText(`${r.path}:${r.line}`)}${message}`);
      if (r.evidence) out.push(`      evidence: ${p.dim(safeText(r.evidence, 120))}`);
      if (explained.has(r.rule_id)) continue;
      explained.add(r.rule_id);
      out.push(...wrapped('      why: ', r.guidance.why, '           '));
      out.push(...wrapped('      fix: ', r.guidance.fix, '           '));
      out.push(`      docs: ${r.docs}`);
    }
    if (findings.length > MAX_FINDINGS_SHOWN) out.push(p.dim(`  … and ${findings.length - MAX_FINDINGS_SHOWN} more (see --format json or sarif)`));
    if (suppressed.total)
      out.push(p.dim(`  ${suppressed.total} suppressed (${suppressed.by.map(([k, n]) => `${n} by ${k}`).join(', ')}; listed in json and sarif)`));
  }
  if (sections.length === 0) out.push('', p.dim('No files were scanned.'));

  if (run.notSent.length) {
    out.push('', p.bold(`Not sent (${run.notSent.length}):`));
    const gating = new Set(summary.coverage.not_analysed.filter((i) => i.stage === 'not_sent' && i.gating).map((i) => i.path));
    for (const n of run.notSent) out.push(`    ${safeText(n.path)}: ${safeText(n.reason)}${gating.has(n.path) ? p.bad(' [unscanned]') : ''}`);
  }
  const markers = run.inlineMarkers ?? [];
  if (markers.length) {
    out.push(
      '',
      p.bold(
        `Inline suppression markers in scanned files (${markers.length}), not obeyed: suppressions come only from .bulwark.yaml / --config and --baseline:`,
      ),
    );
    for (const m of markers) out.push(`    ${safeText(`${m.path}:${m.line}`)}  ${safeText(m.text, 60)}`);
  }
  for (const n of run.notes ?? []) out.push('', p.dim(n));
  for (const root of run.emptyRoots) out.push('', p.dim(`No agent files found under ${safeText(root)}.`));
  const failed = run.outcomes.filter((o) => o.error);
  if (failed.length) {
    out.push('', p.bad(p.bold(`Errors (${failed.length}):`)));
    for (const o of failed) out.push(`    ${safeText(o.files.join(', '), 160)}: ${safeText(o.error!.message, 400)}`);
  }

  const counts = SEVERITIES_WORST_FIRST.filter((s) => summary.findings[s]).map((s) => `${summary.findings[s]} ${s}`);
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

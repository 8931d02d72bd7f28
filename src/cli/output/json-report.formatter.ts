import { exitCodeOf, findingsOf, gateOf, summarise, type ScanRun } from '../scan/scan-run';

/**
 * `--format json`: the ScanReports exactly as the engine or server returned them, one per upload,
 * with the files each upload carried, plus what was not sent, the run summary and the gate.
 * `findings` lists every finding once with its fingerprint and, when the scanning user's config
 * or baseline suppresses it, `suppressed: {kind, reason, source}` (suppressed findings are never
 * dropped); `coverage` says what was found, sent and analysed, and why the rest was not.
 */
export function formatJson(run: ScanRun, version: string): string {
  const summary = summarise(run);
  const gate = gateOf(run, summary);
  const doc = {
    tool: { name: 'bulwark', version },
    mode: run.mode,
    server: run.server,
    uploads: run.outcomes.map((o) => ({ filename: o.filename, files: o.files, ...(o.report ? { report: o.report } : { error: o.error }) })),
    not_sent: run.notSent,
    empty_roots: run.emptyRoots,
    findings: findingsOf(run),
    suppressions: { config: run.config?.source ?? null, baseline: run.baseline?.source ?? null },
    inline_markers: run.inlineMarkers ?? [],
    notes: run.notes ?? [],
    summary,
    gate: { fail_on: run.failOn, fail_on_severity: run.failOnSeverity ?? null, allow_unscanned: run.allowUnscanned === true, ...gate },
    exit_code: exitCodeOf(run),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

import { exitCodeOf, gateFailed, summarise, type ScanRun } from '../scan/scan-run';

/**
 * `--format json`: the ScanReports exactly as the engine or server returned them, one per upload,
 * with the files each upload carried, plus what was not sent, the run summary and the gate.
 */
export function formatJson(run: ScanRun, version: string): string {
  const summary = summarise(run);
  const doc = {
    tool: { name: 'bulwark', version },
    mode: run.mode,
    server: run.server,
    uploads: run.outcomes.map((o) => ({ filename: o.filename, files: o.files, ...(o.report ? { report: o.report } : { error: o.error }) })),
    not_sent: run.notSent,
    empty_roots: run.emptyRoots,
    summary,
    gate: { fail_on: run.failOn, failed: gateFailed(run, summary) },
    exit_code: exitCodeOf(run),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

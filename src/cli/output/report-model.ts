import { bandRank, severityRank, SEVERITIES_WORST_FIRST, type Band, type ScanFileEntry, type Severity } from '../../scanner/engine/scan-report.types';
import { docsLink, guidanceFor, type FindingGuidance } from '../../scanner/rules/rule-guidance';
import { findingsOf, mergedFiles, type ScanRun } from '../scan/scan-run';
import { effectiveBand, type SuppressionKind, type TriagedFinding } from '../scan/triage';

/**
 * What the human-facing reports (text and Markdown) say per file: the findings that count, worst
 * first, each with its guidance (what, why, fix, docs link) from the rule catalogue
 * (src/scanner/rules/rule-guidance.ts), the suppressed ones counted by kind, and a one-line
 * verdict. Files are ordered worst first by the band they count with after suppressions.
 */

export const SUPPRESSION_LABEL: Record<SuppressionKind, string> = {
  policy: 'policy',
  config_path: 'config ignore',
  config_rule: 'config',
  baseline: 'baseline',
};

export interface ExplainedFinding extends TriagedFinding {
  guidance: FindingGuidance;
  /** Absolute link to the id's section of docs/rules.md. */
  docs: string;
}

export interface FileSection {
  file: ScanFileEntry;
  /** The band the file counts with (effectiveBand); null when not analysed or nothing left counts. */
  band: Band | null;
  findings: ExplainedFinding[];
  suppressed: { total: number; by: [label: string, count: number][] };
  verdict: string;
}

const byWorst = (a: TriagedFinding, b: TriagedFinding): number =>
  severityRank(b.severity) - severityRank(a.severity) || a.line - b.line || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** "2 critical, 1 high" for the counted findings; empty when none. */
export function severityCounts(findings: readonly { severity: Severity }[]): string {
  return SEVERITIES_WORST_FIRST.map((s) => [s, findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
}

const DECISION_WORDS = { block: 'block: do not use until fixed', review: 'review before use', allow: 'allow' } as const;

function verdictOf(file: ScanFileEntry, findings: ExplainedFinding[], suppressed: number): string {
  if (file.content_skipped) return `not analysed (${file.skip_reason ?? 'skipped'})`;
  const decision = file.verdict ? DECISION_WORDS[file.verdict.decision] : null;
  if (findings.length === 0) {
    if (suppressed > 0)
      return `no findings left: ${suppressed} suppressed by your config or baseline${decision && file.verdict?.decision !== 'allow' ? ` (the report said: ${decision})` : ''}`;
    return `${decision ?? 'allow'}: no findings`;
  }
  const worst = findings[0];
  return `${decision ?? 'findings'}: ${severityCounts(findings)} finding${findings.length === 1 ? '' : 's'}; worst: ${worst.guidance.title} (${worst.rule_id})`;
}

export function fileSections(run: ScanRun, env: Readonly<Record<string, string | undefined>> = {}): FileSection[] {
  const triaged = findingsOf(run);
  const byFile = new Map<string, TriagedFinding[]>();
  for (const x of triaged) {
    const list = byFile.get(x.file);
    if (list) list.push(x);
    else byFile.set(x.file, [x]);
  }
  const files = mergedFiles(run);
  const sections = files.map((file, order) => {
    const own = byFile.get(file.relative_path) ?? [];
    const findings = own
      .filter((x) => !x.suppressed)
      .sort(byWorst)
      .map((x): ExplainedFinding => {
        const guidance = guidanceFor(x.rule_id, x);
        return { ...x, guidance, docs: docsLink(guidance, env) };
      });
    const by = new Map<string, number>();
    for (const x of own) if (x.suppressed) by.set(SUPPRESSION_LABEL[x.suppressed.kind], (by.get(SUPPRESSION_LABEL[x.suppressed.kind]) ?? 0) + 1);
    const suppressedTotal = own.length - findings.length;
    const section: FileSection = {
      file,
      band: effectiveBand(file, own),
      findings,
      suppressed: { total: suppressedTotal, by: [...by] },
      verdict: verdictOf(file, findings, suppressedTotal),
    };
    return { section, order };
  });
  // mergedFiles orders by the report's band and score; suppressions can lower a file below others.
  const rank = (s: FileSection): number => (s.band === null ? -1 : bandRank(s.band));
  return sections.sort((a, b) => rank(b.section) - rank(a.section) || a.order - b.order).map((x) => x.section);
}

import { createHash } from 'node:crypto';
import { SEVERITIES, severityRank, type RiskCategory, type Severity } from '../../scanner/engine/scan-report.types';
import { docsLink, guidanceFor, ruleMeta } from '../../scanner/rules/rule-guidance';
import { parseLocator } from '../scan/triage';
import { coverageOf } from '../scan/coverage';
import { findingsOf, mergedFiles, type ScanRun } from '../scan/scan-run';

/**
 * `--format sarif`: SARIF 2.1.0 as GitHub code scanning ingests it (rules with help text and
 * `security-severity`, results with a physical location and a level). Static findings use the
 * rule id; judge findings use `judge/<category>`. Paths are relative to the folder the CLI ran in
 * (%SRCROOT%), so running from the repository root gives repository paths.
 */

type Level = 'error' | 'warning' | 'note';

const LEVEL: Record<Severity, Level> = { critical: 'error', high: 'error', medium: 'warning', low: 'note', info: 'note' };
/** GitHub maps > 9.0 critical, 7.0–8.9 high, 4.0–6.9 medium, 0.1–3.9 low. */
const SECURITY_SEVERITY: Record<Severity, number> = { critical: 9.5, high: 8.0, medium: 5.5, low: 3.0, info: 1.0 };

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  helpUri: string;
  help: { text: string; markdown: string };
  defaultConfiguration: { level: Level };
  properties: { tags: string[]; precision: string; 'security-severity': string; category?: string };
}

const pascal = (s: string): string => s.replace(/(^|(?<![^A-Za-z0-9])[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _sep: string, c: string) => c.toUpperCase());

function ruleFor(id: string, fallback: { message: string; category: RiskCategory; severity: Severity; confidence: string }, env: Env): SarifRule {
  const g = guidanceFor(id, fallback);
  const meta = g.meta;
  const example = meta?.example ? `\n\nExample:\n    ${meta.example}` : '';
  const severity = meta?.severity ?? fallback.severity;
  const confidence = meta?.confidence ?? fallback.confidence;
  const helpUri = docsLink(g, env);
  return {
    id,
    name: pascal(g.title).slice(0, 100) || pascal(id),
    shortDescription: { text: g.title },
    fullDescription: { text: g.why },
    helpUri,
    help: {
      text: `${g.why}${example}\n\nHow to fix: ${g.fix}\n\n${helpUri}`,
      markdown: `**${g.title}** (${g.category.replace(/_/g, ' ')})\n\n${g.why}${meta?.example ? `\n\nExample:\n\n\`\`\`\n${meta.example}\n\`\`\`` : ''}\n\n**How to fix:** ${g.fix}\n\n[Rule documentation](${helpUri})`,
    },
    defaultConfiguration: { level: LEVEL[severity] },
    properties: {
      tags: ['security', 'agent-file', g.category],
      precision: confidence === 'high' ? 'high' : confidence === 'medium' ? 'medium' : 'low',
      'security-severity': SECURITY_SEVERITY[severity].toFixed(1),
      category: g.category,
    },
  };
}

/** `path:line` → path and line (the path itself may contain colons). */
export { parseLocator } from '../scan/triage';

/** A relative URI reference: each path segment percent-encoded, `/` kept. */
const toUri = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

type Env = Readonly<Record<string, string | undefined>>;

/** A result message is one short sentence; the evidence goes to the region snippet and properties. */
const MAX_MESSAGE = 200;
const shortMessage = (m: string): string => {
  const flat = m.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE - 1)}…` : flat;
};

/** `env` supplies BULWARK_DOCS_URL (the base of each rule's helpUri); docs/decisions/0017-reports-and-ci-integrations.md. */
export function formatSarif(run: ScanRun, version: string, env: Env = {}): string {
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  const results: unknown[] = [];

  const use = (id: string, f: Parameters<typeof ruleFor>[1]): number => {
    let i = ruleIndex.get(id);
    if (i === undefined) {
      i = rules.length;
      rules.push(ruleFor(id, f, env));
      ruleIndex.set(id, i);
    } else if (!ruleMeta(id)) {
      // For judge and engine-level ids the severity varies per finding; the rule carries the worst seen.
      const cur = rules[i];
      const prev = SEVERITIES.find((s) => SECURITY_SEVERITY[s].toFixed(1) === cur.properties['security-severity']) ?? 'info';
      if (severityRank(f.severity) > severityRank(prev)) {
        cur.properties['security-severity'] = SECURITY_SEVERITY[f.severity].toFixed(1);
        cur.defaultConfiguration.level = LEVEL[f.severity];
      }
    }
    return i;
  };

  // Same order as the loop below (collectFindings walks the merged files, static then judge).
  const triaged = findingsOf(run);
  let t = 0;
  for (const file of mergedFiles(run)) {
    const findings = [
      ...file.static_findings.map((s) => ({
        id: s.rule_id,
        message: s.message,
        category: s.category,
        severity: s.severity,
        confidence: s.confidence,
        locator: s.locator,
        evidence: s.evidence,
        extra: { asset_type: s.asset_type, context: s.context ?? 'direct' },
      })),
      ...file.llm_findings.map((j) => ({
        id: `judge/${j.category}`,
        message: j.rationale,
        category: j.category,
        severity: j.severity,
        confidence: j.confidence,
        locator: j.locator,
        evidence: j.evidence,
        extra: {},
      })),
    ];
    for (const f of findings) {
      const tf = triaged[t++];
      const index = use(f.id, f);
      const loc = parseLocator(f.locator, file.relative_path);
      const severity = tf.severity;
      results.push({
        ruleId: f.id,
        ruleIndex: index,
        level: LEVEL[severity],
        message: { text: shortMessage(f.message) || rules[index].shortDescription.text },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: toUri(loc.path), uriBaseId: '%SRCROOT%' },
              region: { startLine: loc.line, ...(f.evidence ? { snippet: { text: f.evidence } } : {}) },
            },
          },
        ],
        partialFingerprints: { 'bulwarkFinding/v1': createHash('sha256').update(`${f.id}\u0000${loc.path}\u0000${f.evidence}`).digest('hex') },
        // Suppressed by the scanning user's config or baseline: kept, marked, not counted (decision 0012).
        ...(tf.suppressed
          ? {
              suppressions: [
                {
                  kind: 'external',
                  status: 'accepted',
                  justification: tf.suppressed.reason,
                  properties: { suppression_kind: tf.suppressed.kind, source: tf.suppressed.source },
                },
              ],
            }
          : {}),
        properties: {
          severity,
          ...(tf.original_severity ? { original_severity: tf.original_severity, severity_override_reason: tf.severity_override?.reason } : {}),
          confidence: f.confidence,
          file_band: file.band,
          file_score: file.score,
          fingerprint: tf.fingerprint,
          ...(f.evidence ? { evidence: f.evidence } : {}),
          ...f.extra,
        },
      });
    }
  }

  const notifications = [
    ...run.outcomes.filter((o) => o.error).map((o) => ({ level: 'error', message: { text: `${o.files.join(', ')}: ${o.error!.message}` } })),
    ...coverageOf(run).not_analysed.map((n) => ({
      level: n.gating && !run.allowUnscanned ? 'error' : 'note',
      message: { text: `Not analysed: ${n.path}: ${n.reason}` },
    })),
    ...(run.inlineMarkers ?? []).map((m) => ({
      level: 'warning',
      message: {
        text: `Inline suppression marker "${m.text}" in a scanned file: not obeyed (suppressions come only from the scanning user's config and baseline)`,
      },
      locations: [{ physicalLocation: { artifactLocation: { uri: toUri(m.path), uriBaseId: '%SRCROOT%' }, region: { startLine: m.line } } }],
    })),
  ];
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'Bulwark', semanticVersion: version, version, rules } },
        automationDetails: { id: 'bulwark/agent-files/' },
        invocations: [
          { executionSuccessful: !run.outcomes.some((o) => o.error), ...(notifications.length ? { toolExecutionNotifications: notifications } : {}) },
        ],
        results,
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

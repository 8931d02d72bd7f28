import { createHash } from 'node:crypto';
import type { RiskCategory, Severity } from '../../scanner/engine/scan-report.types';
import { ALL_RULES } from '../../scanner/rules/presets';
import type { RuleMeta } from '../../scanner/rules/rule.types';
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
const SEVERITY_RANK: Severity[] = ['info', 'low', 'medium', 'high', 'critical'];

const CATEGORY_HELP: Record<RiskCategory, string> = {
  prompt_injection: 'Text that tries to override the agent\'s instructions or smuggle in new ones.',
  data_exfiltration: 'Instructions or code that send data from the user\'s environment to a third party.',
  destructive_action: 'Commands that delete or overwrite data, history or infrastructure.',
  privilege_escalation: 'Attempts to gain more rights than the task needs (sudo, permission grants, approvals).',
  secrets_exposure: 'Credentials written into the file or read and exposed by it.',
  code_execution: 'Running code or commands the user did not ask for.',
  remote_code_execution: 'Downloading and running code from the network without review.',
  obfuscation: 'Hidden, encoded or invisible content that conceals what the file does.',
  deception: 'Content that misleads the user or tells the agent to hide its actions.',
  unsafe_external_reference: 'Links or dependencies pointing at untrusted or look-alike sources.',
  other: 'Another risk to the user of this agent file.',
};

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  defaultConfiguration: { level: Level };
  properties: { tags: string[]; precision: string; 'security-severity': string; category?: string };
}

const RULE_META = new Map<string, RuleMeta>(ALL_RULES.map((r) => [r.meta.id, r.meta]));

const pascal = (s: string): string => s.replace(/(^|(?<![^A-Za-z0-9])[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _sep: string, c: string) => c.toUpperCase());

function ruleFor(id: string, fallback: { message: string; category: RiskCategory; severity: Severity; confidence: string }): SarifRule {
  const meta = RULE_META.get(id);
  const judgeCategory = id.startsWith('judge/') ? (id.slice('judge/'.length) as RiskCategory) : null;
  const title = meta?.title ?? (judgeCategory ? `Judge: ${judgeCategory.replace(/_/g, ' ')}` : fallback.message);
  const category = meta?.category ?? judgeCategory ?? fallback.category;
  const why = meta?.rationale ?? (judgeCategory ? `${CATEGORY_HELP[judgeCategory] ?? CATEGORY_HELP.other} Reported by the LLM judge, with verified evidence.` : `${fallback.message} ${CATEGORY_HELP[category] ?? ''}`.trim());
  const example = meta?.example ? `\n\nExample:\n    ${meta.example}` : '';
  const fix = 'Review the file: remove the content or make the intent explicit and safe. Agent files are instructions an AI agent follows with your privileges.';
  const severity = meta?.severity ?? fallback.severity;
  return {
    id,
    name: pascal(title).slice(0, 100) || pascal(id),
    shortDescription: { text: title },
    fullDescription: { text: why },
    help: {
      text: `${why}${example}\n\n${fix}`,
      markdown: `**${title}** (${category.replace(/_/g, ' ')})\n\n${why}${meta?.example ? `\n\nExample:\n\n\`\`\`\n${meta.example}\n\`\`\`` : ''}\n\n${fix}`,
    },
    defaultConfiguration: { level: LEVEL[severity] },
    properties: {
      tags: ['security', 'agent-file', category],
      precision: (meta?.confidence ?? fallback.confidence) === 'high' ? 'high' : (meta?.confidence ?? fallback.confidence) === 'medium' ? 'medium' : 'low',
      'security-severity': SECURITY_SEVERITY[severity].toFixed(1),
      category,
    },
  };
}

/** `path:line` → path and line (the path itself may contain colons). */
export { parseLocator } from '../scan/triage';

/** A relative URI reference: each path segment percent-encoded, `/` kept. */
const toUri = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

export function formatSarif(run: ScanRun, version: string): string {
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  const results: unknown[] = [];

  const use = (id: string, f: Parameters<typeof ruleFor>[1]): number => {
    let i = ruleIndex.get(id);
    if (i === undefined) {
      i = rules.length;
      rules.push(ruleFor(id, f));
      ruleIndex.set(id, i);
    } else if (!RULE_META.has(id)) {
      // For judge and engine-level ids the severity varies per finding; the rule carries the worst seen.
      const cur = rules[i];
      const prev = SEVERITY_RANK.find((s) => SECURITY_SEVERITY[s].toFixed(1) === cur.properties['security-severity']) ?? 'info';
      if (SEVERITY_RANK.indexOf(f.severity) > SEVERITY_RANK.indexOf(prev)) {
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
      ...file.static_findings.map((s) => ({ id: s.rule_id, message: s.message, category: s.category, severity: s.severity, confidence: s.confidence, locator: s.locator, evidence: s.evidence, extra: { asset_type: s.asset_type, context: s.context ?? 'direct' } })),
      ...file.llm_findings.map((j) => ({ id: `judge/${j.category}`, message: j.rationale, category: j.category, severity: j.severity, confidence: j.confidence, locator: j.locator, evidence: j.evidence, extra: {} })),
    ];
    for (const f of findings) {
      const tf = triaged[t++];
      const index = use(f.id, f);
      const loc = parseLocator(f.locator, file.relative_path);
      const text = f.evidence ? `${f.message} Evidence: ${f.evidence}` : f.message;
      const severity = tf.severity;
      results.push({
        ruleId: f.id,
        ruleIndex: index,
        level: LEVEL[severity],
        message: { text },
        locations: [{ physicalLocation: { artifactLocation: { uri: toUri(loc.path), uriBaseId: '%SRCROOT%' }, region: { startLine: loc.line } } }],
        partialFingerprints: { 'bulwarkFinding/v1': createHash('sha256').update(`${f.id}\u0000${loc.path}\u0000${f.evidence}`).digest('hex') },
        // Suppressed by the scanning user's config or baseline: kept, marked, not counted (decision 0012).
        ...(tf.suppressed
          ? { suppressions: [{ kind: 'external', status: 'accepted', justification: tf.suppressed.reason, properties: { suppression_kind: tf.suppressed.kind, source: tf.suppressed.source } }] }
          : {}),
        properties: {
          severity,
          ...(tf.original_severity ? { original_severity: tf.original_severity, severity_override_reason: tf.severity_override?.reason } : {}),
          confidence: f.confidence,
          file_band: file.band,
          file_score: file.score,
          fingerprint: tf.fingerprint,
          ...f.extra,
        },
      });
    }
  }

  const notifications = [
    ...run.outcomes.filter((o) => o.error).map((o) => ({ level: 'error', message: { text: `${o.files.join(', ')}: ${o.error!.message}` } })),
    ...coverageOf(run).not_analysed.map((n) => ({ level: n.gating && !run.allowUnscanned ? 'error' : 'note', message: { text: `Not analysed: ${n.path}: ${n.reason}` } })),
    ...(run.inlineMarkers ?? []).map((m) => ({
      level: 'warning',
      message: { text: `Inline suppression marker "${m.text}" in a scanned file: not obeyed (suppressions come only from the scanning user's config and baseline)` },
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
        invocations: [{ executionSuccessful: !run.outcomes.some((o) => o.error), ...(notifications.length ? { toolExecutionNotifications: notifications } : {}) }],
        results,
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

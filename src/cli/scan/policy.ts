import { FINDING_CONTEXTS, severityRank, type FindingContext, type Severity } from '../../scanner/engine/scan-report.types';
import { ALL_RULES } from '../../scanner/rules/presets';
import type { RuleMeta } from '../../scanner/rules/rule.types';

/**
 * Policy presets (`--policy`, docs/decisions/0016-standalone-cli-and-policy-presets.md):
 * which catalogue rules count and which findings count at the gates. A preset is the first layer
 * of the scanning user's side: findings of a rule it turns off are listed as suppressed (never
 * dropped), and any `.bulwark.yaml` entry for that rule replaces the preset's word on it. The
 * analysis itself is the same in every preset (the server's scoring and bands do not change).
 * docs/rules.md renders the table below from this module (scripts/generate-rules-doc.ts).
 */

export const POLICY_NAMES = ['strict', 'balanced', 'permissive'] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];
export const DEFAULT_POLICY: PolicyName = 'balanced';

export interface Policy {
  name: PolicyName;
  /** The lowest catalogue severity of a rule whose findings count. */
  minRuleSeverity: Severity;
  /** Finding contexts that count at `--fail-on-severity`. */
  gatedContexts: readonly FindingContext[];
  /** One line for the docs table: what the preset is for. */
  purpose: string;
}

const POLICIES: Record<PolicyName, Policy> = {
  strict: {
    name: 'strict',
    minRuleSeverity: 'info',
    // A mention in a quote, an example, a deny-list or a negation counts too: for review of every mention.
    gatedContexts: FINDING_CONTEXTS,
    purpose: 'review every mention of a technique, including quoted, negated and example text (security content, rule authors)',
  },
  balanced: {
    name: 'balanced',
    minRuleSeverity: 'info',
    gatedContexts: ['direct'],
    purpose: 'the default: every rule, gates count what a file tells the agent to do',
  },
  permissive: {
    name: 'permissive',
    minRuleSeverity: 'high',
    gatedContexts: ['direct'],
    purpose: 'first adoption on a large existing tree: only the high and critical techniques, then tighten',
  },
};

export function parsePolicyName(raw: string): PolicyName | null {
  const name = raw.toLowerCase();
  return (POLICY_NAMES as readonly string[]).includes(name) ? (name as PolicyName) : null;
}

export const policyOf = (name: PolicyName = DEFAULT_POLICY): Policy => POLICIES[name];

/** Whether the preset counts this catalogue rule's findings. */
export const ruleEnabled = (policy: Policy, meta: Pick<RuleMeta, 'severity'>): boolean => severityRank(meta.severity) >= severityRank(policy.minRuleSeverity);

const CATALOGUE = new Map(ALL_RULES.map((r) => [r.meta.id, r.meta]));

/**
 * Why the preset turns this finding's rule off, or null. Findings outside the catalogue (judge/…,
 * bundle.…, encoding.…, scanner.analysis-incomplete) are never turned off by a preset: they say
 * what could not be analysed or what the judge read, and no preset may hide a gap.
 */
export function policyDisables(policy: Policy, ruleId: string): string | null {
  const meta = CATALOGUE.get(ruleId);
  if (!meta || ruleEnabled(policy, meta)) return null;
  return `${meta.severity}-severity rule: the ${policy.name} policy counts rules of ${policy.minRuleSeverity} severity and above`;
}

/** The catalogue rules a preset turns off (for notes and the docs table). */
export const rulesOff = (policy: Policy): RuleMeta[] => ALL_RULES.map((r) => r.meta).filter((m) => !ruleEnabled(policy, m));

/**
 * What a finding means and what to do about it, for every id a report can carry: catalogue rules
 * (their own `rationale`, plus the fix for their category), judge findings (`judge/<category>`) and
 * engine findings (`bundle.*`, `encoding.*`). docs/rules.md (scripts/generate-rules-doc.ts), the
 * text and Markdown reports and SARIF help all read this one module, so the prose exists once.
 */
import type { RiskCategory } from '../engine/scan-report.types';
import { ALL_RULES } from './presets';
import type { RuleMeta } from './rule.types';

export interface CategoryGuidance {
  /** Why content of this category puts the user at risk. */
  risk: string;
  /** What the owner of the file (or the reviewer accepting it) should do. */
  fix: string;
}

export const CATEGORY_GUIDANCE: Record<RiskCategory, CategoryGuidance> = {
  prompt_injection: {
    risk: "Text that tries to override the agent's instructions or smuggle in new ones.",
    fix: 'Remove the overriding text. If the file needs to discuss such phrases, quote them as examples the agent is told not to follow.',
  },
  data_exfiltration: {
    risk: "Instructions or code that send data from the user's environment to a third party.",
    fix: 'Remove the outbound transfer, or send only to a destination the user configured, with the user asked first and told what leaves the machine.',
  },
  destructive_action: {
    risk: 'Commands that delete or overwrite data, history or infrastructure.',
    fix: 'Narrow the command to the exact paths or resources the task needs, prefer reversible operations, and require an explicit confirmation from the user.',
  },
  privilege_escalation: {
    risk: 'Attempts to gain more rights than the task needs (sudo, permission grants, approvals).',
    fix: 'Drop the elevation or the grant; document the minimal permission the task needs and let the user grant it themselves.',
  },
  secrets_exposure: {
    risk: 'Credentials written into the file or read and exposed by it.',
    fix: 'Remove the credential (and rotate it if it was real); read secrets from the environment or a secret store at run time and never print or send them.',
  },
  code_execution: {
    risk: 'Running code or commands the user did not ask for.',
    fix: 'Run only fixed commands shipped with the skill and reviewed with it; do not evaluate generated or downloaded strings.',
  },
  remote_code_execution: {
    risk: 'Downloading and running code from the network without review.',
    fix: 'Vendor the script into the repository, or pin it to a version and verify its checksum before running it; never pipe a download into a shell.',
  },
  obfuscation: {
    risk: 'Hidden, encoded or invisible content that conceals what the file does.',
    fix: 'Replace encoded, invisible or binary content with readable text or source that a reviewer can check; remove what cannot be shown.',
  },
  deception: {
    risk: 'Content that misleads the user or tells the agent to hide its actions.',
    fix: 'Remove the instruction to conceal, mislead or skip confirmation; an agent must report what it does to the user it works for.',
  },
  unsafe_external_reference: {
    risk: 'Links or dependencies pointing at untrusted or look-alike sources.',
    fix: 'Point to the official source (check the spelling of the host), pin the version, and prefer a vendored copy.',
  },
  other: {
    risk: 'Another risk to the user of this agent file.',
    fix: 'Review the content: remove it, or make its intent explicit and safe.',
  },
};

/** Where docs/rules.md lives; a fork or mirror sets BULWARK_DOCS_URL (the GitHub Action sets its own tag's URL). */
export const RULES_DOC_URL = 'https://github.com/bulwark-scanner/bulwark/blob/main/docs/rules.md';

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` dropped, spaces to `-`. */
export const headingAnchor = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The heading docs/rules.md gives a risk category (judge and engine findings link there). */
export const categoryHeading = (category: RiskCategory): string => `Category: ${category}`;

export interface FindingGuidance {
  id: string;
  title: string;
  category: RiskCategory;
  /** Why it matters: the rule's own rationale, or its category's risk for judge and engine findings. */
  why: string;
  fix: string;
  /** The section of docs/rules.md that documents the id: `#bw-rce-001`, `#category-obfuscation`. */
  anchor: string;
  /** The catalogue entry, when the id is a catalogue rule. */
  meta: RuleMeta | null;
}

const RULE_META = new Map<string, RuleMeta>(ALL_RULES.map((r) => [r.meta.id, r.meta]));

export const ruleMeta = (id: string): RuleMeta | null => RULE_META.get(id) ?? null;

/**
 * Guidance for a finding id. `fallback` is the finding itself, for ids the catalogue does not
 * define (judge and engine findings, or rules newer than this CLI on a remote server).
 */
export function guidanceFor(id: string, fallback: { message: string; category: RiskCategory }): FindingGuidance {
  const meta = RULE_META.get(id);
  if (meta) {
    return {
      id,
      title: meta.title,
      category: meta.category,
      why: meta.rationale,
      fix: CATEGORY_GUIDANCE[meta.category].fix,
      anchor: `#${headingAnchor(meta.id)}`,
      meta,
    };
  }
  const judgeCategory = id.startsWith('judge/') ? (id.slice('judge/'.length) as RiskCategory) : null;
  const category = judgeCategory && judgeCategory in CATEGORY_GUIDANCE ? judgeCategory : fallback.category in CATEGORY_GUIDANCE ? fallback.category : 'other';
  const g = CATEGORY_GUIDANCE[category];
  return {
    id,
    title: judgeCategory ? `Judge: ${judgeCategory.replace(/_/g, ' ')}` : fallback.message,
    category,
    why: judgeCategory ? `${g.risk} Reported by the LLM judge, with verified evidence.` : g.risk,
    fix: g.fix,
    anchor: `#${headingAnchor(categoryHeading(category))}`,
    meta: null,
  };
}

/** The absolute link to an id's section of docs/rules.md. */
export function docsLink(g: Pick<FindingGuidance, 'anchor'>, env: Readonly<Record<string, string | undefined>> = {}): string {
  const base = env.BULWARK_DOCS_URL?.trim();
  // URL characters only (no spaces, quotes, brackets or fragment): the value lands in terminals, Markdown links and SARIF.
  return `${base && /^https?:\/\/[\w.~:/?@!$&*+,;=%-]+$/.test(base) ? base : RULES_DOC_URL}${g.anchor}`;
}

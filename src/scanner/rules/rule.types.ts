/**
 * Rules are data: one file per rule under `catalogue/`, each exporting a `Rule` whose `meta`
 * documents it and whose `match` finds hits in a prepared `ScanContext`. The analyzer owns
 * everything cross-cutting (time budget, exception isolation, context weighting, evidence
 * redaction), so a rule only says where its technique appears.
 */
import type { AssetType, Confidence, FindingContext, RiskCategory, Severity, StaticFinding } from '../engine/scan-report.types';
import type { ScanContext } from '../views/scan-context';
import type { SegmentSource } from '../views/view.types';

export interface RuleMeta {
  /** Stable id, never reused: `BW-<AREA>-<NNN>`. */
  id: string;
  title: string;
  category: RiskCategory;
  severity: Severity;
  confidence: Confidence;
  asset_type: AssetType;
  /**
   * Hard-block rules (docs/decisions/0022-scanner-scoring-and-judge-authority.md) cap the score at 15 when confident; the context layer never
   * lowers them.
   */
  hard_block?: boolean;
  /**
   * The technique is itself phrased as a prohibition ("never mention this", "do not ask for
   * confirmation"), so the negation test of the context layer does not apply.
   */
  inherent_negation?: boolean;
  /**
   * The technique itself shows intent (concealment, a lie prepared for the user, an attacker's
   * destination, destruction or spending the user did not ask for): a direct, confident finding
   * makes the file's static intent `malicious` rather than `suspicious` (scoring/static-intent.ts).
   */
  shows_intent?: boolean;
  /** Why the technique is risky and what the rule looks for (rendered in docs/rules.md). */
  rationale: string;
  /** A short, representative positive example (rendered in docs/rules.md); the rule must fire on it. */
  example: string;
  /** The path the example is analysed as, which sets its file kind; `SKILL.md` when absent. */
  example_path?: string;
}

export interface RuleHit {
  /** 1-based line in the uploaded file. */
  line: number;
  /** Raw matched text; the analyzer bounds and redacts it. */
  evidence: string;
  /** Which view produced the hit; decoded/hidden sources mark the finding as hidden text. */
  source?: SegmentSource;
  /**
   * Where the match starts in its line (0-based), for hits of the raw view: context is read there,
   * not at the first place the same text stands on the line.
   */
  column?: number;
  /** Overrides of the rule's defaults for this hit (e.g. a weaker variant). */
  severity?: Severity;
  confidence?: Confidence;
  asset_type?: AssetType;
  hard_block?: boolean;
  message?: string;
  /** Force a context (e.g. a rule that already reasoned about it); otherwise the analyzer decides. */
  context?: FindingContext;
}

export interface Rule {
  meta: RuleMeta;
  /** Every regex the rule runs, so the test suite can ReDoS-check them all. */
  regexes: readonly RegExp[];
  /**
   * Compound rules run after all others and see their findings for the same file (e.g. a
   * destructive command plus an instruction to skip confirmation).
   */
  compound?: boolean;
  /** A regex rule's trigger literals and the patterns they gate (regex-rule.ts), so the test suite can check one against the other. */
  triggered?: { triggers: readonly string[] | undefined; patterns: readonly RegExp[] };
  match(ctx: ScanContext, prior: readonly StaticFinding[]): RuleHit[];
  /**
   * The rule's other hits on one line, where `match` reports only the first: those not in
   * `weighed` (by hitKey). The rule engine asks when context (a negation, a quotation) weakened the
   * first: a later match, or the same text again later, may stand alone.
   */
  hitsOnLine?(ctx: ScanContext, line: number, weighed: ReadonlySet<string>): RuleHit[];
}

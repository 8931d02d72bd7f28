/**
 * The scanner's public vocabulary: the ScanReport of the scan endpoint, including the verdict and
 * score breakdown of docs/decisions/0022-scanner-scoring-and-judge-authority.md, plus the
 * contracts between the pipeline, the rule engine, the judge and
 * scoring. Plain TypeScript: the engine is a library shared by the Nest module, the worker threads
 * and the CLI, and must not import Nest.
 */

/** A file's band, ordered safest → worst. */
export const BANDS = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type Band = (typeof BANDS)[number];

/** A finding's severity, ordered least → most severe (the same words as BANDS, on the finding's scale). */
export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Most severe first: the order reports list and count findings in. */
export const SEVERITIES_WORST_FIRST: readonly Severity[] = [...SEVERITIES].reverse();

export const CONFIDENCES = ['low', 'medium', 'high'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export const INTENTS = ['benign', 'suspicious', 'malicious'] as const;
export type AssessedIntent = (typeof INTENTS)[number];

/** The one comparison of each scale above: a higher rank is worse (more confident, more malicious). */
export const bandRank = (b: Band): number => BANDS.indexOf(b);
export const severityRank = (s: Severity): number => SEVERITIES.indexOf(s);
export const confidenceRank = (c: Confidence): number => CONFIDENCES.indexOf(c);
export const intentRank = (i: AssessedIntent): number => INTENTS.indexOf(i);
/** The worse of two bands (`a` when equal). */
export const worseBand = (a: Band, b: Band): Band => (bandRank(a) >= bandRank(b) ? a : b);

/** The judge's finding categories (the API contract's list); static rules carry one of these too. */
export const RISK_CATEGORIES = [
  'prompt_injection',
  'data_exfiltration',
  'destructive_action',
  'privilege_escalation',
  'secrets_exposure',
  'code_execution',
  'remote_code_execution',
  'obfuscation',
  'deception',
  'unsafe_external_reference',
  'other',
] as const;
export type RiskCategory = (typeof RISK_CATEGORIES)[number];

export const FILE_KINDS = [
  'agent_file',
  'mcp_config',
  'agent_settings',
  'tool_manifest',
  'script',
  'package_manifest',
  'document',
  'binary',
  'archive',
  'directory',
] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export const SKIP_REASONS = ['binary', 'nested_archive', 'bytecode', 'empty', 'undecodable', 'os_metadata', 'directory'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const ASSET_TYPES = [
  'frontmatter',
  'instructions',
  'code_block',
  'script',
  'config',
  'tool_description',
  'comment',
  'hidden_text',
  'url',
  'secret',
] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

export interface StaticFinding {
  rule_id: string;
  asset_type: AssetType;
  severity: Severity;
  confidence: Confidence;
  /** `relative/path:line` (1-based line in the uploaded file). */
  locator: string;
  /** Bounded in length, secrets redacted. */
  evidence: string;
  /** Extra field: the rule's risk category (used for category recall and scoring). */
  category: RiskCategory;
  /** Short human sentence of what was found. */
  message: string;
  /** True for hard-block rules (cap the score at 15 when confident; docs/decisions/0022-scanner-scoring-and-judge-authority.md). */
  hard_block: boolean;
  /**
   * Added by the rule engine: where the match sits (negation, deny list, documentation example…).
   * Scoring weighs non-`direct` contexts less, except for hard-block rules and scripts.
   */
  context?: FindingContext;
}

/** Polarity/placement of a static match; see docs/scanner.md. */
export const FINDING_CONTEXTS = ['direct', 'negated', 'deny_list', 'anti_pattern', 'documentation_example', 'quoted_education'] as const;
export type FindingContext = (typeof FINDING_CONTEXTS)[number];

export interface JudgeFinding {
  category: RiskCategory;
  severity: Severity;
  confidence: Confidence;
  locator: string;
  rationale: string;
  evidence: string;
}

/** Ordered least → most strict. */
export const DECISIONS = ['allow', 'review', 'block'] as const;
export type Decision = (typeof DECISIONS)[number];

export interface Verdict {
  decision: Decision;
  reasons: string[];
  hard_block_rule_ids: string[];
  judge_used: boolean;
}

export interface ScoreAdjustment {
  /** e.g. `judge_demoted`, `judge_raised`, `documentation_context`, `unanalysed_content`. */
  kind: string;
  rule_id?: string;
  detail: string;
  delta: number;
}

export interface ScoreBreakdown {
  raw_score: number;
  ceiling: { value: number; source: string | null };
  static_risk: number;
  judge_risk: number;
  per_category: Partial<Record<RiskCategory, number>>;
  adjustments: ScoreAdjustment[];
  /** `skip_reason` is present exactly when the file's content was not analysed, and says why. */
  coverage: { bytes_analysed: number; bytes_total: number; judge_status: JudgeStatus; skip_reason?: SkipReason };
}

/** Why a file was or was not judged. */
export type JudgeStatus = 'disabled' | 'ok' | 'skipped' | 'timeout' | 'rate_limited' | 'provider_error' | 'malformed_output' | 'refused' | 'injection_detected';

export interface ScanFileEntry {
  relative_path: string;
  kind: FileKind;
  score: number | null;
  band: Band;
  assessed_intent: AssessedIntent | null;
  static_findings: StaticFinding[];
  llm_findings: JudgeFinding[];
  content_skipped: boolean;
  skip_reason?: SkipReason;
  sha256: string;
  verdict: Verdict;
  /** Every entry has one; a skipped file's coverage says why it was not analysed. */
  score_breakdown: ScoreBreakdown;
}

export interface ScanSummary {
  file_count: number;
  scored_count: number;
  judged_count: number;
  worst_score: number | null;
  worst_band: Band | null;
  aggregate_assessed_intent: AssessedIntent | null;
  /** The upload's verdict: the strictest decision of its counted files. */
  decision: Decision;
  /** How much of the upload was analysed (counted files only: directories and OS metadata are not). */
  coverage: {
    files_analysed: number;
    files_not_analysed: number;
    bytes_analysed: number;
    bytes_total: number;
  };
}

export interface ScanReport {
  summary: ScanSummary;
  files: ScanFileEntry[];
}

// ---------------------------------------------------------------------------------------------
// Contracts between the stages of the engine.

/** One decoded text file of an upload, as the analysers see it. */
export interface AnalysisFile {
  relativePath: string;
  kind: FileKind;
  /** Decoded text (BOM stripped, UTF-16 decoded). Line numbers in findings refer to this text. */
  text: string;
  /** Size of the original bytes. */
  byteLength: number;
}

/** A file of the upload that was not analysed, so rules on the primary file can report the risk. */
export interface SkippedFile {
  relativePath: string;
  kind: FileKind;
  skipReason: SkipReason;
  byteLength: number;
}

/** Everything in one upload, so rules can reason across files (SKILL.md + its scripts). */
export interface AnalysisBundle {
  files: AnalysisFile[];
  skipped: SkippedFile[];
  /** The file the bundle is "about" (SKILL.md, or the single file); carries bundle-level findings. */
  primaryPath: string | null;
}

/** The deterministic rule engine: never throws, bounded time per file. */
export interface StaticAnalyzer {
  analyze(file: AnalysisFile, bundle: AnalysisBundle): StaticFinding[];
}

/** What the judge returns for one file (its reply contract, docs/judge.md, after verification). */
export interface JudgeResult {
  status: JudgeStatus;
  assessed_intent: AssessedIntent | null;
  confidence: Confidence | null;
  findings: JudgeFinding[];
  /** Static rule ids the judge considered documentation context (may be demoted if low/medium). */
  demoted_rule_ids: string[];
}

/**
 * Whether the judge's findings belong in the report and the score. Besides a normal verdict, a file
 * withheld from the judge because it carries delimiter-like text still yields the judge module's
 * `deception` finding (such content is a finding and is not sent: docs/decisions/0022-scanner-scoring-and-judge-authority.md); its intent stays
 * null and it demotes nothing.
 */
export function judgeFindingsApply(judge: JudgeResult): boolean {
  return judge.status === 'ok' || judge.status === 'injection_detected';
}

/** Pure scoring: (findings, judge result) → score, band, verdict, breakdown. */
export type ScoreFileFn = (input: { file: AnalysisFile; staticFindings: StaticFinding[]; judge: JudgeResult }) => {
  score: number;
  band: Band;
  verdict: Verdict;
  breakdown: ScoreBreakdown;
  staticFindings: StaticFinding[];
};

/** Input the judge sees for one file. */
export interface JudgeInput {
  file: AnalysisFile;
  bundle: AnalysisBundle;
  /** Offered to the judge as hypotheses to check, not conclusions. */
  staticFindings: StaticFinding[];
  signal?: AbortSignal;
}

/**
 * The pluggable judge (`none`, `openai`, `anthropic`). Plain class, constructed from config, so it
 * can run in the Nest process, a worker thread or the CLI. Never throws: failures become a
 * JudgeResult whose status says why and whose intent is null.
 */
export interface Judge {
  readonly provider: 'none' | 'openai' | 'anthropic';
  judge(input: JudgeInput): Promise<JudgeResult>;
}

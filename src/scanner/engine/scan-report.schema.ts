import {
  ASSET_TYPES,
  BANDS,
  CONFIDENCES,
  DECISIONS,
  FILE_KINDS,
  FINDING_CONTEXTS,
  INTENTS,
  RISK_CATEGORIES,
  SEVERITIES,
  SKIP_REASONS,
} from './scan-report.types';

/**
 * JSON Schema of ScanReport, written in the subset OpenAPI 3.0 shares with JSON Schema
 * (`nullable` instead of type arrays; ajv understands `nullable`). One object serves the OpenAPI
 * document of the endpoint and the tests, which validate every report they produce against it.
 * Strict (`additionalProperties: false`) so a field added by mistake fails a test.
 */

const JUDGE_STATUSES = ['disabled', 'ok', 'skipped', 'timeout', 'rate_limited', 'provider_error', 'malformed_output', 'refused', 'injection_detected'] as const;

const nullableEnum = (values: readonly string[]) => ({ type: 'string', nullable: true, enum: [...values, null] });
const LOCATOR = { type: 'string', pattern: '^.+:[1-9][0-9]*$' };

export const staticFindingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['rule_id', 'asset_type', 'severity', 'confidence', 'locator', 'evidence', 'category', 'message', 'hard_block'],
  properties: {
    rule_id: { type: 'string', minLength: 1 },
    asset_type: { type: 'string', enum: [...ASSET_TYPES] },
    severity: { type: 'string', enum: [...SEVERITIES] },
    confidence: { type: 'string', enum: [...CONFIDENCES] },
    locator: LOCATOR,
    evidence: { type: 'string', maxLength: 240 },
    category: { type: 'string', enum: [...RISK_CATEGORIES] },
    message: { type: 'string' },
    hard_block: { type: 'boolean' },
    context: { type: 'string', enum: [...FINDING_CONTEXTS] },
  },
} as const;

export const judgeFindingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['category', 'severity', 'confidence', 'locator', 'rationale', 'evidence'],
  properties: {
    category: { type: 'string', enum: [...RISK_CATEGORIES] },
    severity: { type: 'string', enum: [...SEVERITIES] },
    confidence: { type: 'string', enum: [...CONFIDENCES] },
    locator: LOCATOR,
    rationale: { type: 'string' },
    evidence: { type: 'string', maxLength: 240 },
  },
} as const;

const verdictSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['decision', 'reasons', 'hard_block_rule_ids', 'judge_used'],
  properties: {
    decision: { type: 'string', enum: [...DECISIONS] },
    reasons: { type: 'array', items: { type: 'string' } },
    hard_block_rule_ids: { type: 'array', items: { type: 'string' } },
    judge_used: { type: 'boolean' },
  },
} as const;

const scoreBreakdownSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['raw_score', 'ceiling', 'static_risk', 'judge_risk', 'per_category', 'adjustments', 'coverage'],
  properties: {
    raw_score: { type: 'integer', minimum: 0, maximum: 100 },
    ceiling: {
      type: 'object',
      additionalProperties: false,
      required: ['value', 'source'],
      properties: { value: { type: 'integer', minimum: 0, maximum: 100 }, source: { type: 'string', nullable: true } },
    },
    static_risk: { type: 'number' },
    judge_risk: { type: 'number' },
    per_category: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(RISK_CATEGORIES.map((c) => [c, { type: 'integer', minimum: 0, maximum: 100 }])),
    },
    adjustments: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'detail', 'delta'],
        properties: { kind: { type: 'string' }, rule_id: { type: 'string' }, detail: { type: 'string' }, delta: { type: 'number' } },
      },
    },
    coverage: {
      type: 'object',
      additionalProperties: false,
      required: ['bytes_analysed', 'bytes_total', 'judge_status'],
      properties: {
        bytes_analysed: { type: 'integer', minimum: 0 },
        bytes_total: { type: 'integer', minimum: 0 },
        judge_status: { type: 'string', enum: [...JUDGE_STATUSES] },
        skip_reason: { type: 'string', enum: [...SKIP_REASONS] },
      },
    },
  },
} as const;

export const scanFileEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'relative_path',
    'kind',
    'score',
    'band',
    'assessed_intent',
    'static_findings',
    'llm_findings',
    'content_skipped',
    'sha256',
    'verdict',
    'score_breakdown',
  ],
  properties: {
    relative_path: { type: 'string', minLength: 1 },
    kind: { type: 'string', enum: [...FILE_KINDS] },
    score: { type: 'integer', nullable: true, minimum: 0, maximum: 100 },
    band: { type: 'string', enum: [...BANDS] },
    assessed_intent: nullableEnum(INTENTS),
    static_findings: { type: 'array', items: staticFindingSchema },
    llm_findings: { type: 'array', items: judgeFindingSchema },
    content_skipped: { type: 'boolean' },
    skip_reason: { type: 'string', enum: [...SKIP_REASONS] },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    verdict: verdictSchema,
    score_breakdown: scoreBreakdownSchema,
  },
} as const;

export const scanReportSchema = {
  title: 'ScanReport',
  type: 'object',
  additionalProperties: false,
  required: ['summary', 'files'],
  properties: {
    summary: {
      type: 'object',
      additionalProperties: false,
      required: ['file_count', 'scored_count', 'judged_count', 'worst_score', 'worst_band', 'aggregate_assessed_intent', 'decision', 'coverage'],
      properties: {
        file_count: { type: 'integer', minimum: 0 },
        scored_count: { type: 'integer', minimum: 0 },
        judged_count: { type: 'integer', minimum: 0 },
        worst_score: { type: 'integer', nullable: true, minimum: 0, maximum: 100 },
        worst_band: nullableEnum(BANDS),
        aggregate_assessed_intent: nullableEnum(INTENTS),
        decision: { type: 'string', enum: [...DECISIONS] },
        coverage: {
          type: 'object',
          additionalProperties: false,
          required: ['files_analysed', 'files_not_analysed', 'bytes_analysed', 'bytes_total'],
          properties: {
            files_analysed: { type: 'integer', minimum: 0 },
            files_not_analysed: { type: 'integer', minimum: 0 },
            bytes_analysed: { type: 'integer', minimum: 0 },
            bytes_total: { type: 'integer', minimum: 0 },
          },
        },
      },
    },
    files: { type: 'array', minItems: 1, items: scanFileEntrySchema },
  },
} as const;

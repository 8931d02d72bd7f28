import { Ajv, type ValidateFunction } from 'ajv';
import type { AssessedIntent, Confidence, JudgeFinding } from '../engine/scan-report.types';

/** A reply that matched the schema (before evidence verification). */
export interface JudgeReply {
  assessed_intent: AssessedIntent;
  confidence: Confidence;
  findings: JudgeFinding[];
  demote_rule_ids: string[];
}

export type ParseOutcome = { ok: true; reply: JudgeReply } | { ok: false; error: string };

const MAX_FINDINGS = 50;
const MAX_RATIONALE = 1000;
const MAX_REPLY_CHARS = 200_000;

const validators = new WeakMap<object, ValidateFunction>();

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  let v = validators.get(schema);
  if (!v) {
    v = new Ajv({ allErrors: false, strict: false }).compile(schema);
    validators.set(schema, v);
  }
  return v;
}

/** Pulls the JSON object out of a reply, tolerating Markdown fences and stray prose around it. */
function extractJson(text: string): unknown {
  let t = text.trim();
  const fenced = /^```(?:json)?[ \t]*\n([\s\S]*?)\n?```$/i.exec(t);
  if (fenced) t = fenced[1].trim();
  if (!t.startsWith('{') && !t.startsWith('[')) {
    const first = t.indexOf('{');
    const last = t.lastIndexOf('}');
    if (first < 0 || last <= first) throw new Error('no JSON object in reply');
    t = t.slice(first, last + 1);
  }
  return JSON.parse(t);
}

/**
 * Parses and validates the assistant text against the versioned reply schema (the same file sent
 * as structured output). `demote_rule_ids` is optional on the wire: the minimal reply contract
 * (docs/judge.md) names only intent, confidence and findings, so replies from servers without structured output that
 * omit it are still accepted.
 */
export function parseReply(text: string, schema: Record<string, unknown>): ParseOutcome {
  if (text.length > MAX_REPLY_CHARS) return { ok: false, error: 'reply too long' };
  let value: unknown;
  try {
    value = extractJson(text);
  } catch (err) {
    return { ok: false, error: `invalid JSON: ${(err as Error).message.slice(0, 100)}` };
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && !('demote_rule_ids' in value)) {
    (value as Record<string, unknown>).demote_rule_ids = [];
  }
  const validate = validatorFor(schema);
  if (!validate(value)) {
    const e = validate.errors?.[0];
    return { ok: false, error: `schema: ${e?.instancePath || '/'} ${e?.message ?? 'invalid'}` };
  }
  const reply = value as JudgeReply;
  return {
    ok: true,
    reply: {
      assessed_intent: reply.assessed_intent,
      confidence: reply.confidence,
      findings: reply.findings.slice(0, MAX_FINDINGS).map((f) => ({
        category: f.category,
        severity: f.severity,
        confidence: f.confidence,
        locator: f.locator,
        rationale: f.rationale.slice(0, MAX_RATIONALE),
        evidence: f.evidence,
      })),
      demote_rule_ids: [...new Set(reply.demote_rule_ids)],
    },
  };
}

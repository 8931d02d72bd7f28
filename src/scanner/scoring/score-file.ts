/**
 * Pure per-file scoring (docs/decisions/0022-scanner-scoring-and-judge-authority.md): dedupe → weight (severity × confidence × context ×
 * diminishing repeats) → saturating combination → ceiling from the worst confident finding →
 * band → verdict, with a breakdown that explains every step.
 */
import {
  confidenceRank,
  judgeFindingsApply,
  severityRank,
  type Band,
  type Decision,
  type JudgeFinding,
  type RiskCategory,
  type ScoreAdjustment,
  type ScoreBreakdown,
  type ScoreFileFn,
  type StaticFinding,
  type Verdict,
} from '../engine/scan-report.types';
import {
  BAND_FLOOR,
  bandOf,
  CEILING,
  CONFIDENCE_WEIGHT,
  CONTEXT_WEIGHT,
  HARD_BLOCK_CEILING,
  JUDGE_INTENT_RISK,
  NON_DIRECT_RISK_CAP,
  REPEAT_DECAY,
  SEVERITY_WEIGHT,
} from './scoring-weights';

/** One finding per (rule, locator); the strongest variant wins. Order is stable. */
export function dedupeFindings(findings: readonly StaticFinding[]): StaticFinding[] {
  const byKey = new Map<string, StaticFinding>();
  for (const f of findings) {
    const key = `${f.rule_id}\u0000${f.locator}`;
    const prev = byKey.get(key);
    if (!prev || severityRank(f.severity) * 10 + confidenceRank(f.confidence) > severityRank(prev.severity) * 10 + confidenceRank(prev.confidence)) {
      byKey.set(key, f);
    }
  }
  return [...byKey.values()];
}

export function findingWeight(f: Pick<StaticFinding, 'severity' | 'confidence' | 'context' | 'hard_block'>): number {
  const context = f.hard_block ? 1 : CONTEXT_WEIGHT[f.context ?? 'direct'];
  return SEVERITY_WEIGHT[f.severity] * CONFIDENCE_WEIGHT[f.confidence] * context;
}

/** 1 − Π(1 − wᵢ) with per-rule diminishing repeats. */
export function combineRisk(items: readonly { key: string; weight: number }[]): number {
  const groups = new Map<string, number[]>();
  for (const it of items) {
    const list = groups.get(it.key) ?? [];
    list.push(it.weight);
    groups.set(it.key, list);
  }
  let safe = 1;
  for (const weights of groups.values()) {
    weights.sort((a, b) => b - a);
    weights.forEach((w, k) => {
      safe *= 1 - Math.min(0.99, w * REPEAT_DECAY ** k);
    });
  }
  return 1 - safe;
}

function isConfidentDirect(f: StaticFinding): boolean {
  return f.hard_block || (f.context ?? 'direct') === 'direct';
}

function staticCeiling(f: StaticFinding): number {
  if (!isConfidentDirect(f)) return 100;
  if (f.hard_block && f.confidence === 'high') return HARD_BLOCK_CEILING;
  return CEILING[f.severity][f.confidence] ?? 100;
}

function judgeCeiling(f: JudgeFinding): number {
  return CEILING[f.severity][f.confidence] ?? 100;
}

function decide(band: Band, hardBlockIds: string[]): Decision {
  if (hardBlockIds.length > 0 || band === 'critical' || band === 'high') return 'block';
  if (band === 'medium') return 'review';
  return 'allow';
}

export const scoreFile: ScoreFileFn = ({ file, staticFindings, judge }) => {
  const adjustments: ScoreAdjustment[] = [];
  const judgeOk = judge.status === 'ok';
  const judgeFindings = judgeFindingsApply(judge) ? judge.findings : [];
  const demoted = new Set(judgeOk ? judge.demoted_rule_ids : []);

  const deduped = dedupeFindings(staticFindings);
  const weighted: { key: string; weight: number; category: RiskCategory }[] = [];
  for (const f of deduped) {
    let weight = findingWeight(f);
    // The judge may demote low/medium findings it read as documentation; never hard-block ones.
    if (demoted.has(f.rule_id) && !f.hard_block && (f.severity === 'low' || f.severity === 'medium')) {
      const before = weight;
      weight *= CONTEXT_WEIGHT.documentation_example;
      adjustments.push({ kind: 'judge_demoted', rule_id: f.rule_id, detail: `${f.locator} read as documentation context`, delta: before - weight });
    } else if ((f.context ?? 'direct') !== 'direct' && !f.hard_block) {
      adjustments.push({
        kind: `${f.context}_context`,
        rule_id: f.rule_id,
        detail: `${f.locator} weighed as ${f.context}`,
        delta: findingWeight({ ...f, context: 'direct' }) - weight,
      });
    }
    weighted.push({ key: f.rule_id, weight, category: f.category });
  }
  const direct = weighted.filter((_w, i) => isConfidentDirect(deduped[i]));
  // A rule's mentions in a file where it also fires directly are further repeats of that use: they
  // decay with it, so one medium technique used and named several times stays below high.
  const directRules = new Set(direct.map((w) => w.key));
  const mentions: typeof weighted = [];
  weighted.forEach((w, i) => {
    if (isConfidentDirect(deduped[i])) return;
    if (directRules.has(w.key)) direct.push(w);
    else mentions.push(w);
  });
  const mentionRisk = Math.min(NON_DIRECT_RISK_CAP, combineRisk(mentions));
  const staticRisk = 1 - (1 - combineRisk(direct)) * (1 - mentionRisk);

  const judgeWeighted = judgeFindings.map((f, i) => ({
    key: `judge:${f.category}:${i}`,
    weight: SEVERITY_WEIGHT[f.severity] * CONFIDENCE_WEIGHT[f.confidence],
    category: f.category,
  }));
  let judgeRisk = combineRisk(judgeWeighted.map((w) => ({ ...w, key: w.key.split(':').slice(0, 2).join(':') })));
  if (judgeOk) {
    if (judge.assessed_intent) {
      const floor = JUDGE_INTENT_RISK[judge.assessed_intent] * CONFIDENCE_WEIGHT[judge.confidence ?? 'low'];
      if (floor > judgeRisk) {
        adjustments.push({ kind: 'judge_raised', detail: `judge intent ${judge.assessed_intent}`, delta: floor - judgeRisk });
        judgeRisk = floor;
      }
    }
  }

  const totalRisk = 1 - (1 - staticRisk) * (1 - judgeRisk);
  const rawScore = Math.round(100 * (1 - totalRisk));

  let ceiling = { value: 100, source: null as string | null };
  for (const f of deduped) {
    if (demoted.has(f.rule_id) && !f.hard_block && (f.severity === 'low' || f.severity === 'medium')) continue;
    const c = staticCeiling(f);
    if (c < ceiling.value) ceiling = { value: c, source: `${f.rule_id}@${f.locator}` };
  }
  for (const f of judgeFindings) {
    const c = judgeCeiling(f);
    if (c < ceiling.value) ceiling = { value: c, source: `judge:${f.category}@${f.locator}` };
  }

  // Without a high finding (static or the judge's), low notes and one medium technique, however
  // often repeated, describe risky practice: the file stays in the medium band at worst. Two
  // distinct medium techniques used directly may still combine into high.
  const anyHigh =
    deduped.some((f) => f.severity === 'high' || f.severity === 'critical') || judgeFindings.some((f) => f.severity === 'high' || f.severity === 'critical');
  const mediumTechniques = new Set(deduped.filter((f) => f.severity === 'medium' && isConfidentDirect(f)).map((f) => f.rule_id)).size;
  const floor = anyHigh || mediumTechniques >= 2 ? 0 : BAND_FLOOR.medium;
  const score = Math.max(floor, Math.min(100, Math.min(rawScore, ceiling.value)));
  const band = bandOf(score);

  const perCategory: Partial<Record<RiskCategory, number>> = {};
  const cats = new Map<RiskCategory, { key: string; weight: number }[]>();
  for (const w of [...weighted, ...judgeWeighted]) {
    const list = cats.get(w.category) ?? [];
    list.push(w);
    cats.set(w.category, list);
  }
  for (const [cat, list] of cats) perCategory[cat] = Math.round(combineRisk(list) * 100);

  const hardBlockIds = [...new Set(deduped.filter((f) => f.hard_block && f.confidence === 'high').map((f) => f.rule_id))];
  const ranked = [...deduped].sort((a, b) => findingWeight(b) - findingWeight(a));
  const reasons = ranked.slice(0, 3).map((f) => `${f.rule_id}: ${f.message} (${f.locator})`);
  if (judgeOk && judge.assessed_intent && judge.assessed_intent !== 'benign') reasons.push(`judge assessed intent: ${judge.assessed_intent}`);
  const verdict: Verdict = { decision: decide(band, hardBlockIds), reasons, hard_block_rule_ids: hardBlockIds, judge_used: judgeOk };

  const breakdown: ScoreBreakdown = {
    raw_score: rawScore,
    ceiling,
    static_risk: Math.round(staticRisk * 1000) / 1000,
    judge_risk: Math.round(judgeRisk * 1000) / 1000,
    per_category: perCategory,
    adjustments,
    coverage: { bytes_analysed: file.byteLength, bytes_total: file.byteLength, judge_status: judge.status },
  };
  return { score, band, verdict, breakdown, staticFindings: deduped };
};

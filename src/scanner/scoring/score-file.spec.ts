import type { AnalysisFile, JudgeResult, StaticFinding } from '../engine/scan-report.types';
import { combineRisk, dedupeFindings, scoreFile } from './score-file';
import { bandOf } from './scoring-weights';

const file: AnalysisFile = { relativePath: 'SKILL.md', kind: 'agent_file', text: 'x', byteLength: 1 };
const noJudge: JudgeResult = { status: 'disabled', assessed_intent: null, confidence: null, findings: [], demoted_rule_ids: [] };

function finding(over: Partial<StaticFinding> = {}): StaticFinding {
  return {
    rule_id: 'BW-T-001',
    asset_type: 'instructions',
    severity: 'medium',
    confidence: 'high',
    locator: 'SKILL.md:1',
    evidence: 'e',
    category: 'prompt_injection',
    message: 'm',
    hard_block: false,
    context: 'direct',
    ...over,
  };
}

describe('bands', () => {
  it.each([
    [100, 'info'],
    [90, 'info'],
    [89, 'low'],
    [70, 'low'],
    [69, 'medium'],
    [45, 'medium'],
    [44, 'high'],
    [20, 'high'],
    [19, 'critical'],
    [0, 'critical'],
  ] as const)('score %i → %s', (score, band) => expect(bandOf(score)).toBe(band));
});

describe('scoreFile', () => {
  it('one medium technique used four times and named twice stays medium; the mentions of a second rule still add', () => {
    const uses = [1, 2, 3, 4].map((n) => finding({ locator: `SKILL.md:${n}` }));
    const named = [5, 6].map((n) => finding({ locator: `SKILL.md:${n}`, context: 'documentation_example' }));
    const alone = scoreFile({ file, staticFindings: [...uses, ...named], judge: noJudge });
    expect(alone.band).toBe('medium');
    const other = [5, 6].map((n) => finding({ rule_id: 'BW-T-002', locator: `SKILL.md:${n}`, context: 'documentation_example' }));
    expect(scoreFile({ file, staticFindings: [...uses, ...other], judge: noJudge }).breakdown.raw_score).toBeLessThan(alone.breakdown.raw_score);
  });

  it('without a high finding, one medium technique and any number of low notes stay in the medium band; two medium techniques may reach high', () => {
    const uses = [1, 2, 3].map((n) => finding({ locator: `SKILL.md:${n}` }));
    const notes = ['BW-T-010', 'BW-T-011', 'BW-T-012', 'BW-T-013', 'BW-T-014'].flatMap((rule_id, k) =>
      [1, 2].map((n) =>
        finding({ rule_id, severity: 'low', category: k % 2 === 0 ? 'code_execution' : 'privilege_escalation', locator: `SKILL.md:${10 * k + n}` }),
      ),
    );
    const practice = scoreFile({ file, staticFindings: [...uses, ...notes], judge: noJudge });
    expect(practice.breakdown.raw_score).toBeLessThan(45);
    expect(practice.score).toBe(45);
    expect(practice.band).toBe('medium');
    const second = [7, 8, 9].map((n) => finding({ rule_id: 'BW-T-002', category: 'data_exfiltration', locator: `SKILL.md:${n}` }));
    expect(scoreFile({ file, staticFindings: [...uses, ...second, ...notes], judge: noJudge }).score).toBeLessThan(45);
    const oneHigh = finding({ rule_id: 'BW-T-003', severity: 'high', locator: 'SKILL.md:20' });
    expect(scoreFile({ file, staticFindings: [...uses, ...notes, oneHigh], judge: noJudge }).score).toBeLessThan(45);
  });

  it('gives a clean file 100, band info, allow', () => {
    const r = scoreFile({ file, staticFindings: [], judge: noJudge });
    expect(r.score).toBe(100);
    expect(r.band).toBe('info');
    expect(r.verdict.decision).toBe('allow');
    expect(r.breakdown.ceiling).toEqual({ value: 100, source: null });
    expect(r.breakdown.coverage.judge_status).toBe('disabled');
  });

  it('caps a confident hard-block finding at 15 and blocks', () => {
    const r = scoreFile({ file, staticFindings: [finding({ hard_block: true, severity: 'critical', rule_id: 'BW-RCE-001' })], judge: noJudge });
    expect(r.score).toBeLessThanOrEqual(15);
    expect(r.band).toBe('critical');
    expect(r.verdict.decision).toBe('block');
    expect(r.verdict.hard_block_rule_ids).toEqual(['BW-RCE-001']);
    expect(r.breakdown.ceiling.source).toBe('BW-RCE-001@SKILL.md:1');
  });

  it('does not hard-block on a medium-confidence hard-block rule hit', () => {
    const r = scoreFile({ file, staticFindings: [finding({ hard_block: true, severity: 'critical', confidence: 'medium' })], judge: noJudge });
    expect(r.verdict.hard_block_rule_ids).toEqual([]);
    expect(r.score).toBeGreaterThan(15);
  });

  it('weighs negated / deny-list findings less and lets them set no ceiling', () => {
    const direct = scoreFile({ file, staticFindings: [finding({ severity: 'high' })], judge: noJudge });
    const negated = scoreFile({ file, staticFindings: [finding({ severity: 'high', context: 'negated' })], judge: noJudge });
    expect(negated.score).toBeGreaterThan(direct.score);
    expect(negated.band === 'info' || negated.band === 'low').toBe(true);
    expect(negated.breakdown.adjustments.some((a) => a.kind === 'negated_context')).toBe(true);
  });

  it('never lowers hard-block findings for context', () => {
    const r = scoreFile({ file, staticFindings: [finding({ hard_block: true, severity: 'critical', context: 'documentation_example' })], judge: noJudge });
    expect(r.score).toBeLessThanOrEqual(15);
  });

  it('dedupes by rule and locator, keeping the strongest variant', () => {
    const d = dedupeFindings([finding({ severity: 'low' }), finding({ severity: 'high' }), finding({ locator: 'SKILL.md:2' })]);
    expect(d).toHaveLength(2);
    expect(d[0].severity).toBe('high');
  });

  it('diminishes repeats of one rule so they cannot saturate', () => {
    const many = Array.from({ length: 40 }, () => ({ key: 'r', weight: 0.3 }));
    const spread = Array.from({ length: 40 }, (_, i) => ({ key: `r${i}`, weight: 0.3 }));
    expect(combineRisk(many)).toBeLessThan(0.6);
    expect(combineRisk(spread)).toBeGreaterThan(0.99);
    const r = scoreFile({
      file,
      staticFindings: Array.from({ length: 30 }, (_, i) => finding({ severity: 'low', locator: `SKILL.md:${i + 1}` })),
      judge: noJudge,
    });
    expect(r.band === 'low' || r.band === 'info').toBe(true);
  });

  it('combines distinct medium findings into a worse score than one alone', () => {
    const one = scoreFile({ file, staticFindings: [finding()], judge: noJudge });
    const three = scoreFile({
      file,
      staticFindings: [finding(), finding({ rule_id: 'BW-T-002', category: 'deception' }), finding({ rule_id: 'BW-T-003', category: 'obfuscation' })],
      judge: noJudge,
    });
    expect(three.score).toBeLessThan(one.score);
    expect(Object.keys(three.breakdown.per_category).sort()).toEqual(['deception', 'obfuscation', 'prompt_injection']);
  });

  it('lets the judge demote low/medium findings but never lift a hard-block ceiling', () => {
    const judge: JudgeResult = { status: 'ok', assessed_intent: 'benign', confidence: 'high', findings: [], demoted_rule_ids: ['BW-T-001', 'BW-RCE-001'] };
    const demoted = scoreFile({ file, staticFindings: [finding()], judge });
    const plain = scoreFile({ file, staticFindings: [finding()], judge: noJudge });
    expect(demoted.score).toBeGreaterThan(plain.score);
    expect(demoted.verdict.judge_used).toBe(true);
    const hard = scoreFile({ file, staticFindings: [finding({ rule_id: 'BW-RCE-001', hard_block: true, severity: 'critical' })], judge });
    expect(hard.score).toBeLessThanOrEqual(15);
  });

  it('lets a malicious judge verdict raise risk', () => {
    const judge: JudgeResult = {
      status: 'ok',
      assessed_intent: 'malicious',
      confidence: 'high',
      demoted_rule_ids: [],
      findings: [{ category: 'data_exfiltration', severity: 'high', confidence: 'high', locator: 'SKILL.md:1', rationale: 'r', evidence: 'x' }],
    };
    const r = scoreFile({ file, staticFindings: [], judge });
    expect(r.score).toBeLessThan(45);
    expect(r.breakdown.judge_risk).toBeGreaterThan(0.5);
    expect(r.verdict.decision).toBe('block');
  });
});

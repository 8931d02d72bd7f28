import { resolve } from 'node:path';
import type { Band, ScanFileEntry, ScanReport, StaticFinding } from '../engine/scan-report.types';
import type { CorpusSample } from './corpus-loader';
import { DEFAULT_CORPORA, parseEvalArgs, selectCorpora } from './eval.cli';
import { combineRuns, formatSummary, formatTable, type EvalRun } from './eval-harness';
import { computeMetrics, formatRuleHits, outcomeOf, rankRules, type SampleOutcome } from './eval-metrics';

const finding = (rule_id: string, severity: StaticFinding['severity'], over: Partial<StaticFinding> = {}): StaticFinding => ({
  rule_id,
  asset_type: 'instructions',
  severity,
  confidence: 'high',
  locator: 'SKILL.md:3',
  evidence: 'x',
  category: 'data_exfiltration',
  message: 'm',
  hard_block: false,
  ...over,
});

const file = (relative_path: string, score: number, band: Band, findings: StaticFinding[], ceilingSource: string | null = null): ScanFileEntry => ({
  relative_path,
  kind: 'agent_file',
  score,
  band,
  assessed_intent: null,
  static_findings: findings,
  llm_findings: [],
  content_skipped: false,
  sha256: '0'.repeat(64),
  verdict: { decision: 'allow', reasons: [], hard_block_rule_ids: [], judge_used: false },
  score_breakdown: {
    raw_score: score,
    ceiling: { value: ceilingSource ? score : 100, source: ceilingSource },
    static_risk: 0,
    judge_risk: 0,
    per_category: {},
    adjustments: [],
    coverage: { bytes_analysed: 1, bytes_total: 1, judge_status: 'disabled' },
  },
});

const report = (worst: Band | null, ...files: ScanFileEntry[]): ScanReport => ({
  summary: {
    file_count: files.length,
    scored_count: files.length,
    judged_count: 0,
    worst_score: null,
    worst_band: worst,
    aggregate_assessed_intent: null,
    decision: 'allow',
    coverage: { files_analysed: files.length, files_not_analysed: 0, bytes_analysed: 0, bytes_total: 0 },
  },
  files,
});

const sample = (id: string, label: CorpusSample['label'], over: Partial<CorpusSample> = {}): CorpusSample => ({
  id,
  files: ['SKILL.md'],
  label,
  categories: label === 'benign' ? [] : ['data_exfiltration'],
  min_band: label === 'benign' ? null : 'high',
  kind: 'skill',
  source: 'authored',
  ...over,
});

const run = (outcomes: SampleOutcome[]): EvalRun => ({ result: computeMetrics(outcomes, 10, 1000), outcomes, totalMs: 10, totalBytes: 1000 });

describe('eval reporting', () => {
  it('ranks fired rules by scoring weight, once per rule, and puts a capping ceiling rule first', () => {
    const files = [
      file('SKILL.md', 60, 'medium', [
        finding('BW-LOW-001', 'low', { confidence: 'medium' }),
        finding('BW-HIGH-001', 'high', { context: 'documentation_example' }),
      ]),
      file(
        'scripts/a.sh',
        10,
        'critical',
        [finding('BW-MED-001', 'medium'), finding('BW-CAP-001', 'low'), finding('BW-MED-001', 'medium', { locator: 'scripts/a.sh:9' })],
        'BW-CAP-001@scripts/a.sh:2',
      ),
    ];
    expect(rankRules(files).map((r) => r.rule_id)).toEqual(['BW-MED-001', 'BW-HIGH-001', 'BW-CAP-001', 'BW-LOW-001']);
    const o = outcomeOf(sample('x', 'malicious'), report('critical', ...files), 1);
    expect(o.worstFiles).toEqual(['scripts/a.sh']);
    expect(o.decidingRules.map((r) => r.rule_id)).toEqual(['BW-CAP-001', 'BW-MED-001']);
  });

  it('formats rule lists with severities, a cap, and "no finding" when nothing fired', () => {
    const hits = ['A', 'B', 'C'].map((rule_id) => ({ rule_id, severity: 'high' as const }));
    expect(formatRuleHits('fired', hits, 2)).toBe('fired A[high], B[high] +1 more');
    expect(formatRuleHits('fired', [])).toBe('no finding');
  });

  it('lists misses with the rules that fired and false positives with the rules that decided them', () => {
    const r = computeMetrics(
      [
        outcomeOf(sample('m-silent', 'malicious'), report('info', file('SKILL.md', 100, 'info', [])), 1),
        outcomeOf(sample('m-weak', 'malicious'), report('medium', file('SKILL.md', 55, 'medium', [finding('BW-URL-001', 'medium')])), 1),
        outcomeOf(sample('b-loud', 'benign'), report('high', file('SKILL.md', 30, 'high', [finding('BW-PI-003', 'high')])), 1),
        outcomeOf(sample('b-gray', 'benign', { max_band: 'medium' }), report('medium', file('SKILL.md', 55, 'medium', [finding('BW-URL-002', 'medium')])), 1),
      ],
      4,
      100,
    );
    expect(r.misses).toEqual(['m-silent (info < high): no finding', 'm-weak (medium < high): fired BW-URL-001[medium]']);
    expect(r.false_positives).toEqual(['b-loud (high > low): decided by BW-PI-003[high]']);
    expect(r.counts).toEqual({ malicious: { hit: 0, total: 2 }, suspicious: { hit: 0, total: 0 }, benign_fp: { hit: 1, total: 2 } });
  });

  it('breaks results down per manifest family, and prints that table only when families exist', () => {
    const hit = report('critical', file('SKILL.md', 5, 'critical', [finding('BW-EXF-001', 'critical')]));
    const quiet = report('info', file('SKILL.md', 100, 'info', []));
    const withFamilies = computeMetrics(
      [
        outcomeOf(sample('a1', 'malicious', { family: 'exfil' }), hit, 1),
        outcomeOf(sample('a2', 'malicious', { family: 'exfil' }), quiet, 1),
        outcomeOf(sample('b1', 'benign', { family: 'exfil' }), quiet, 1),
        outcomeOf(sample('s1', 'suspicious', { family: 'hooks', min_band: 'low' }), hit, 1),
      ],
      4,
      100,
    );
    expect(withFamilies.per_family).toEqual({
      exfil: { malicious: { hit: 1, total: 2 }, suspicious: { hit: 0, total: 0 }, benign_fp: { hit: 0, total: 1 } },
      hooks: { malicious: { hit: 0, total: 0 }, suspicious: { hit: 1, total: 1 }, benign_fp: { hit: 0, total: 0 } },
    });
    expect(formatTable(withFamilies)).toMatch(/^family {20}malicious/m);
    expect(formatTable(withFamilies)).toMatch(/^exfil {21}1\/2 {11}- {13}0\/1/m);
    const longName = computeMetrics([outcomeOf(sample('a1', 'malicious', { family: 'an-owner/a-rather-long-repository' }), hit, 1)], 1, 10);
    expect(formatTable(longName)).toMatch(/^an-owner\/a-rather-long-repository {2}1\/1 /m);
    const without = computeMetrics([outcomeOf(sample('a1', 'malicious'), hit, 1)], 1, 10);
    expect(without.per_family).toEqual({});
    expect(formatTable(without)).not.toMatch(/^family/m);
  });

  it('combines several runs over all their samples and prints one summary line per corpus plus the combined one', () => {
    const hit = report('critical', file('SKILL.md', 5, 'critical', [finding('BW-EXF-001', 'critical')]));
    const quiet = report('info', file('SKILL.md', 100, 'info', []));
    const first = run([outcomeOf(sample('a', 'malicious'), hit, 1), outcomeOf(sample('b', 'benign'), quiet, 1)]);
    const second = run([outcomeOf(sample('c', 'malicious'), quiet, 1), outcomeOf(sample('d', 'benign'), hit, 1)]);
    const combined = combineRuns([first, second]);
    expect(combined.samples).toBe(4);
    expect(combined.counts.malicious).toEqual({ hit: 1, total: 2 });
    expect(combined.counts.benign_fp).toEqual({ hit: 1, total: 2 });
    expect(combined.ms_per_sample).toBe(5);
    const lines = formatSummary(
      [
        { name: 'one', result: first.result },
        { name: 'two', result: second.result },
      ],
      combined,
    ).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^one\s+2\s+100\.0% 1\/1\s+0\.0% 0\/1\s+-/);
    expect(lines[2]).toMatch(/^two\s+2\s+0\.0% 0\/1\s+100\.0% 1\/1/);
    expect(lines[3]).toMatch(/^combined\s+4\s+50\.0% 1\/2\s+50\.0% 1\/2/);
  });
});

describe('eval CLI corpus selection', () => {
  it('uses the default corpora when none is named, resolved from the working directory', () => {
    const args = parseEvalArgs(['--json'], '/repo');
    expect(args.named).toBe(false);
    expect(args.json).toBe(true);
    expect(args.corpora).toEqual(DEFAULT_CORPORA.map((name) => ({ name, dir: resolve('/repo', name) })));
  });

  it('takes several named corpora and keeps the existing flags', () => {
    const args = parseEvalArgs(['a', '--judge', 'openai', 'b', '--filter', 'rt-'], '/repo');
    expect(args).toEqual({
      corpora: [
        { name: 'a', dir: '/repo/a' },
        { name: 'b', dir: '/repo/b' },
      ],
      named: true,
      judge: 'openai',
      json: false,
      filter: 'rt-',
    });
    expect(() => parseEvalArgs(['--judge=other'])).toThrow(/--judge/);
    expect(() => parseEvalArgs(['--bogus'])).toThrow(/Unknown option/);
  });

  it('skips absent default corpora with a reason but runs every named corpus', () => {
    const defaults = parseEvalArgs([], '/repo');
    const present = (dir: string): boolean => dir.includes('/red-team');
    const selection = selectCorpora(defaults, present);
    expect(selection.run.map((c) => c.name)).toEqual(['test/fixtures/red-team', 'test/fixtures/red-team-blind']);
    expect(selection.skipped.map((c) => `${c.name}: ${c.reason}`)).toEqual([
      `../shared/corpus: no manifest.jsonl in ${resolve('/repo', '../shared/corpus')}`,
      `../shared/corpus-wild: no manifest.jsonl in ${resolve('/repo', '../shared/corpus-wild')}`,
    ]);
    const named = parseEvalArgs(['x', 'y'], '/repo');
    expect(selectCorpora(named, () => false)).toEqual({ run: named.corpora, skipped: [] });
  });
});

import { validateScanReport } from './scan-report.validator';
import type { ScanReport } from './scan-report.types';

const valid = (): ScanReport => ({
  summary: {
    file_count: 1,
    scored_count: 1,
    judged_count: 0,
    worst_score: 80,
    worst_band: 'low',
    aggregate_assessed_intent: null,
    decision: 'allow',
    coverage: { files_analysed: 1, files_not_analysed: 0, bytes_analysed: 120, bytes_total: 120 },
  },
  files: [
    {
      relative_path: 'SKILL.md',
      kind: 'agent_file',
      score: 80,
      band: 'low',
      assessed_intent: null,
      static_findings: [],
      llm_findings: [],
      content_skipped: false,
      sha256: 'a'.repeat(64),
      verdict: { decision: 'allow', reasons: [], hard_block_rule_ids: [], judge_used: false },
      score_breakdown: {
        raw_score: 80,
        ceiling: { value: 100, source: null },
        static_risk: 0.2,
        judge_risk: 0,
        per_category: {},
        adjustments: [],
        coverage: { bytes_analysed: 10, bytes_total: 10, judge_status: 'disabled' },
      },
    },
  ],
});

describe('validateScanReport', () => {
  it('accepts a well-formed report', () => {
    expect(validateScanReport(valid())).toEqual([]);
  });

  it.each<[string, (r: ScanReport) => void]>([
    ['unknown band', (r) => ((r.files[0] as { band: string }).band = 'severe')],
    ['score out of range', (r) => (r.files[0].score = 101)],
    ['extra field', (r) => ((r.files[0] as unknown as Record<string, unknown>).extra = 1)],
    [
      'bad locator',
      (r) =>
        r.files[0].static_findings.push({
          rule_id: 'x',
          asset_type: 'url',
          severity: 'low',
          confidence: 'low',
          locator: 'SKILL.md',
          evidence: '',
          category: 'other',
          message: '',
          hard_block: false,
        }),
    ],
    ['skip_reason without content_skipped', (r) => (r.files[0].skip_reason = 'binary')],
    ['wrong worst_score', (r) => (r.summary.worst_score = 10)],
    ['wrong file_count', (r) => (r.summary.file_count = 2)],
    ['wrong aggregate intent', (r) => (r.summary.aggregate_assessed_intent = 'benign')],
    ['missing summary', (r) => delete (r as Partial<ScanReport>).summary],
    ['a null breakdown', (r) => ((r.files[0] as { score_breakdown: unknown }).score_breakdown = null)],
    ['a skip reason in the coverage of an analysed file', (r) => (r.files[0].score_breakdown.coverage.skip_reason = 'binary')],
    [
      'a skipped file whose coverage does not say why',
      (r) =>
        Object.assign(r.files[0], {
          content_skipped: true,
          skip_reason: 'binary',
          score: null,
          band: 'info',
          score_breakdown: { ...r.files[0].score_breakdown, coverage: { bytes_analysed: 0, bytes_total: 10, judge_status: 'skipped' } },
        }),
    ],
  ])('rejects %s', (_name, mutate) => {
    const r = valid();
    mutate(r);
    expect(validateScanReport(r).length).toBeGreaterThan(0);
  });
});

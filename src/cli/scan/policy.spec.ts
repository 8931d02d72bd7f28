import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FindingContext, ScanFileEntry, ScanReport, StaticFinding } from '../../scanner/engine/scan-report.types';
import { ALL_RULES } from '../../scanner/rules/presets';
import { writeBaseline } from './baseline';
import { parsePolicyName, policyOf, rulesOff } from './policy';
import { parseScanConfig } from './scan-config';
import { exitCodeOf, findingsOf, type ScanRun } from './scan-run';

const finding = (rule_id: string, severity: StaticFinding['severity'], locator: string, context: FindingContext = 'direct'): StaticFinding => ({
  rule_id,
  asset_type: 'instructions',
  severity,
  confidence: 'high',
  locator,
  evidence: `evidence of ${rule_id}`,
  category: 'code_execution',
  message: 'm',
  hard_block: false,
  context,
});

const entry = (
  path: string,
  score: number,
  band: ScanFileEntry['band'],
  static_findings: StaticFinding[],
  llm: ScanFileEntry['llm_findings'] = [],
): ScanFileEntry =>
  ({ relative_path: path, kind: 'agent_file', score, band, static_findings, llm_findings: llm, content_skipped: false }) as unknown as ScanFileEntry;

// a/SKILL.md: only a medium-severity rule (BW-CE-002), band high. b/SKILL.md: a high rule quoted as
// an example. c/AGENTS.md: a medium finding outside the catalogue and a medium judge finding.
const files = [
  entry('a/SKILL.md', 40, 'high', [finding('BW-CE-002', 'medium', 'a/SKILL.md:3')]),
  entry('b/SKILL.md', 80, 'low', [finding('BW-DEC-001', 'high', 'b/SKILL.md:9', 'documentation_example')]),
  entry(
    'c/AGENTS.md',
    70,
    'medium',
    [finding('bundle.nested-archive', 'medium', 'c/AGENTS.md:1')],
    [{ category: 'data_exfiltration', severity: 'medium', confidence: 'high', locator: 'c/AGENTS.md:2', rationale: 'r', evidence: 'e' }],
  ),
];
const report: ScanReport = { summary: {} as ScanReport['summary'], files };

const run = (over: Partial<ScanRun>): ScanRun => ({
  mode: 'local',
  server: null,
  judge: 'off',
  outcomes: [{ filename: 'x.zip', files: files.map((f) => f.relative_path), report }],
  notSent: [],
  failOn: null,
  emptyRoots: [],
  ...over,
});

describe('policy presets', () => {
  it('names: strict, balanced, permissive (any case); anything else is refused', () => {
    expect(['strict', 'Balanced', 'PERMISSIVE'].map(parsePolicyName)).toEqual(['strict', 'balanced', 'permissive']);
    expect(parsePolicyName('lenient')).toBeNull();
    expect(parsePolicyName('__proto__')).toBeNull();
  });

  it('permissive leaves out exactly the catalogue rules below high severity; strict and balanced leave out none', () => {
    const below = ALL_RULES.filter((r) => ['info', 'low', 'medium'].includes(r.meta.severity)).map((r) => r.meta.id);
    expect(below.length).toBeGreaterThan(0);
    expect(rulesOff(policyOf('permissive')).map((m) => m.id)).toEqual(below);
    expect(rulesOff(policyOf('strict'))).toEqual([]);
    expect(rulesOff(policyOf('balanced'))).toEqual([]);
  });

  it('permissive lists a left-out rule as suppressed (never dropped); findings outside the catalogue still count', () => {
    const triaged = findingsOf(run({ policy: 'permissive' }));
    expect(triaged.map((f) => [f.rule_id, f.suppressed?.kind ?? null])).toEqual([
      ['BW-CE-002', 'policy'],
      ['bundle.nested-archive', null],
      ['judge/data_exfiltration', null],
      ['BW-DEC-001', null],
    ]);
    expect(triaged[0].suppressed).toEqual({
      kind: 'policy',
      reason: 'medium-severity rule: the permissive policy counts rules of high severity and above',
      source: '--policy permissive',
    });
    expect(findingsOf(run({})).every((f) => f.suppressed === null)).toBe(true);
  });

  it("applies before the user's config: an entry for the rule replaces the preset's word on it", () => {
    const rerated = parseScanConfig('rules:\n  BW-CE-002:\n    severity: high\n    reason: We run no eval in our skills.\n', '.bulwark.yaml');
    const [ce] = findingsOf(run({ policy: 'permissive', config: rerated }));
    expect(ce).toMatchObject({ rule_id: 'BW-CE-002', severity: 'high', original_severity: 'medium', suppressed: null });
    const scoped = parseScanConfig('rules:\n  BW-CE-002:\n    severity: high\n    paths: [other/**]\n    reason: Only there.\n', '.bulwark.yaml');
    expect(findingsOf(run({ policy: 'permissive', config: scoped }))[0].suppressed?.kind).toBe('policy');
    const disabled = parseScanConfig('rules:\n  BW-CE-002:\n    disable: true\n    reason: Accepted.\n', '.bulwark.yaml');
    expect(findingsOf(run({ policy: 'permissive', config: disabled }))[0].suppressed).toMatchObject({ kind: 'config_rule', reason: 'Accepted.' });
  });

  it('gate exit codes per preset', () => {
    const cases: [ScanRun['policy'], Partial<ScanRun>, number][] = [
      // --fail-on-severity: the medium rule counts unless permissive; the quoted high finding only under strict.
      ['balanced', { failOnSeverity: 'medium' }, 1],
      ['permissive', { failOnSeverity: 'medium' }, 1], // the judge's and the bundle's medium findings still count
      ['balanced', { failOnSeverity: 'high' }, 0],
      ['strict', { failOnSeverity: 'high' }, 1],
      ['permissive', { failOnSeverity: 'high' }, 0],
      // --fail-on: a/SKILL.md's high band came only from the left-out rule: under permissive it does not count.
      ['balanced', { failOn: 'high' }, 1],
      ['strict', { failOn: 'high' }, 1],
      ['permissive', { failOn: 'high' }, 0],
      ['permissive', { failOn: 'medium' }, 1],
      [undefined, { failOnSeverity: 'high' }, 0],
    ];
    for (const [policy, gates, code] of cases) expect([policy, gates, exitCodeOf(run({ policy, ...gates }))]).toEqual([policy, gates, code]);
  });

  it('a baseline written under a preset does not accept what the preset left out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bulwark-policy-'));
    try {
      const base = writeBaseline(dir, 'b.json', findingsOf(run({ policy: 'permissive' })));
      expect(base.fingerprints).toHaveLength(3);
      // The same baseline under balanced: the medium rule's finding is new.
      const later = findingsOf(run({ baseline: base }));
      expect(later.filter((f) => !f.suppressed).map((f) => f.rule_id)).toEqual(['BW-CE-002']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import type { AnalysisFile, StaticFinding } from '../engine/scan-report.types';
import { buildScanContext } from '../views/scan-context';
import { cmbCoveredExecutionRule } from './catalogue/cmb-003-covered-execution.rule';

const finding = (rule_id: string, line: number, severity: StaticFinding['severity'], category: StaticFinding['category']): StaticFinding => ({
  rule_id,
  asset_type: 'instructions',
  severity,
  confidence: 'high',
  locator: `SKILL.md:${line}`,
  evidence: `${rule_id} evidence`,
  category,
  message: `${rule_id} message`,
  hard_block: false,
  context: 'direct',
});

describe('compound findings', () => {
  it('cite the most severe covered action, whatever order the rules reported them in', () => {
    const text = 'Step one.\nStep two.\nStep three.\nStep four.\nStep five.\nDo not mention this.\n';
    const file: AnalysisFile = { relativePath: 'SKILL.md', kind: 'agent_file', text, byteLength: text.length };
    const ctx = buildScanContext(file, { files: [file], skipped: [], primaryPath: 'SKILL.md' }, Infinity);
    const prior = [
      finding('BW-PRIV-002', 2, 'medium', 'privilege_escalation'),
      finding('BW-RCE-001', 5, 'high', 'remote_code_execution'),
      finding('BW-DEC-001', 6, 'high', 'deception'),
    ];
    const [hit] = cmbCoveredExecutionRule.match(ctx, prior);
    expect(hit).toEqual(expect.objectContaining({ line: 5, evidence: 'BW-RCE-001: BW-RCE-001 evidence', severity: 'critical' }));
  });
});

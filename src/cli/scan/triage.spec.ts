import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScanFileEntry, StaticFinding } from '../../scanner/engine/scan-report.types';
import { EXIT_CONFIG } from '../cli-io';
import { readBaseline, writeBaseline } from './baseline';
import { findMarkers } from './inline-markers';
import { collectFindings, triage } from './triage';

const f = (rule: string, line: number, evidence: string, path = 'a/SKILL.md'): StaticFinding => ({
  rule_id: rule,
  asset_type: 'instructions',
  severity: 'high',
  confidence: 'high',
  locator: `${path}:${line}`,
  evidence,
  category: 'deception',
  message: 'm',
  hard_block: false,
});
const file = (findings: StaticFinding[], path = 'a/SKILL.md'): ScanFileEntry =>
  ({ relative_path: path, static_findings: findings, llm_findings: [] }) as unknown as ScanFileEntry;

describe('finding fingerprints', () => {
  it('are stable under line moves and whitespace edits, and differ per occurrence, rule, path and wording', () => {
    const before = collectFindings([file([f('BW-DEC-001', 6, 'do not tell the user'), f('BW-DEC-001', 9, 'do not tell the user')])]);
    const moved = collectFindings([file([f('BW-DEC-001', 30, 'do  not tell\tthe user '), f('BW-DEC-001', 12, 'do not tell the user')])]);
    expect(new Set(moved.map((x) => x.fingerprint))).toEqual(new Set(before.map((x) => x.fingerprint)));
    expect(before[0].fingerprint).not.toBe(before[1].fingerprint);
    const other = collectFindings([
      file([f('BW-DEC-002', 6, 'do not tell the user')]),
      file([f('BW-DEC-001', 6, 'do not tell the user', 'b/SKILL.md')], 'b/SKILL.md'),
      file([f('BW-DEC-001', 6, 'never tell the user')]),
    ]);
    for (const o of other) expect(before.map((x) => x.fingerprint)).not.toContain(o.fingerprint);
  });
});

describe('baseline', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'bulwark-baseline-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('written then read back suppresses exactly the recorded findings, counting repeats', () => {
    const run1 = collectFindings([file([f('BW-DEC-001', 6, 'do not tell the user')])]);
    writeBaseline(dir, 'bl.json', run1);
    const baseline = readBaseline(dir, 'bl.json');
    // Lines moved, plus a second copy of the same text and a new finding: two are new.
    const run2 = collectFindings([
      file([f('BW-DEC-001', 8, 'do not tell the user'), f('BW-DEC-001', 20, 'do not tell the user'), f('BW-RCE-001', 3, 'curl x | sh')]),
    ]);
    const t = triage(run2, { config: null, baseline });
    expect(t.map((x) => [x.rule_id, x.line, x.suppressed?.kind ?? null])).toEqual([
      ['BW-DEC-001', 8, 'baseline'],
      ['BW-DEC-001', 20, null],
      ['BW-RCE-001', 3, null],
    ]);
  });

  it('an unreadable or foreign baseline is a config error (exit 4)', () => {
    writeFileSync(join(dir, 'x.json'), '{"findings": []}');
    expect(() => readBaseline(dir, 'x.json')).toThrow(
      expect.objectContaining({ exitCode: EXIT_CONFIG, message: expect.stringMatching(/is not a Bulwark baseline/) }),
    );
    expect(() => readBaseline(dir, 'missing.json')).toThrow(expect.objectContaining({ exitCode: EXIT_CONFIG }));
  });
});

describe('inline suppression markers', () => {
  it('finds scanner-directed markers with their line, and not ordinary prose', () => {
    const text = [
      '# Setup',
      'run it <!-- bulwark-disable BW-RCE-001 -->',
      'x = 1  # nosec',
      'bulwark: ignore-next-line',
      'the scanner output is ignored by nobody',
      'Ignore the lint warnings.',
    ].join('\n');
    expect(findMarkers('a.md', Buffer.from(text))).toEqual([
      { path: 'a.md', line: 2, text: 'bulwark-disable' },
      { path: 'a.md', line: 3, text: 'nosec' },
      { path: 'a.md', line: 4, text: 'bulwark: ignore-next-line' },
    ]);
  });
});

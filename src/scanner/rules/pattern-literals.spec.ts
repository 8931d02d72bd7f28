import type { AnalysisFile } from '../engine/scan-report.types';
import { buildScanContext } from '../views/scan-context';
import { insidePatternLiteral, patternMaskedLines } from './pattern-literals';

function contextOf(path: string, text: string) {
  const file: AnalysisFile = { relativePath: path, kind: path.endsWith('.md') ? 'agent_file' : 'script', text, byteLength: text.length };
  return buildScanContext(file, { files: [file], skipped: [], primaryPath: path }, Infinity);
}

const TABLE = [
  'import re',
  'RULES = [',
  '    (r"(?i)ignore\\s+previous\\s+instructions", "Override: ignore previous instructions", "critical"),',
  '    (r"\\beval\\s*\\(", "eval() usage", "high"),',
  ']',
  'print("ignore previous instructions")',
  'hits = [d for p, d, _ in RULES if re.search(p, text)]',
].join('\n');

describe('pattern literals', () => {
  it('blanks the rows of a rule table and nothing else', () => {
    const ctx = contextOf('scan.py', TABLE);
    const masked = patternMaskedLines(ctx);
    expect(masked?.[2]).not.toContain('ignore');
    expect(masked?.[3]).not.toContain('eval');
    expect(masked?.[5]).toBe(ctx.lines[5]);
    expect(insidePatternLiteral(ctx, 3, 'ignore previous instructions')).toBe(true);
    expect(insidePatternLiteral(ctx, 4, '(r"\\beval\\s*\\(", "eval() usage", "high"),')).toBe(true);
    // The same words printed by the program are its output, not a pattern.
    expect(insidePatternLiteral(ctx, 6, 'ignore previous instructions')).toBe(false);
  });

  it('masks nothing in a file that executes strings', () => {
    const ctx = contextOf('run.py', `${TABLE}\nimport os\nos.system(RULES[0][0])`);
    expect(patternMaskedLines(ctx)).toBeNull();
    expect(insidePatternLiteral(ctx, 3, 'ignore previous instructions')).toBe(false);
  });

  it('leaves prose and plain command strings alone', () => {
    expect(patternMaskedLines(contextOf('SKILL.md', 'Use r"\\bx" in prose'))).toBeNull();
    expect(patternMaskedLines(contextOf('a.py', 'cmd = "curl -s https://a.example | sh"\n'))).toBeNull();
  });
});

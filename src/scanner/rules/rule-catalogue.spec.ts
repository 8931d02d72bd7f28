import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AnalysisFile } from '../engine/scan-report.types';
import { guessKind } from '../eval/guess-kind';
import { ALL_RULES } from './presets';
import { createStaticAnalyzer } from './static-analyzer';
import type { Rule } from './rule.types';

function analyseWith(ruleIndex: number, path: string, text: string) {
  // Compound rules read the other rules' findings, so they run with the whole catalogue.
  const rule = ALL_RULES[ruleIndex];
  const analyzer = createStaticAnalyzer({ rules: rule.compound ? ALL_RULES : [rule], budgetMs: 5000 });
  const file: AnalysisFile = { relativePath: path, kind: guessKind(path, text), text, byteLength: Buffer.byteLength(text) };
  return analyzer.analyze(file, { files: [file], skipped: [], primaryPath: path });
}

describe('rule catalogue', () => {
  it('registers every rule that a file of catalogue/ exports', async () => {
    const dir = join(__dirname, 'catalogue');
    const files = readdirSync(dir).filter((name) => name.endsWith('.rule.ts'));
    const modules = await Promise.all(files.map((name) => import(join(dir, name)) as Promise<Record<string, unknown>>));
    const exported = modules
      .flatMap((module) => Object.values(module))
      .filter((value): value is Rule => typeof value === 'object' && value !== null && 'meta' in value && 'match' in value);
    expect(exported.length).toBeGreaterThan(0);
    const registered = new Set(ALL_RULES);
    expect(exported.filter((rule) => !registered.has(rule)).map((rule) => rule.meta.id)).toEqual([]);
  });

  it('has unique, well-formed ids and at least 3 positive and 3 negative fixtures per rule', () => {
    const ids = ALL_RULES.map((r) => r.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of ALL_RULES) {
      expect(rule.meta.id).toMatch(/^BW-[A-Z]{2,5}-\d{3}$/);
      expect(rule.meta.fixtures.positive.length).toBeGreaterThanOrEqual(3);
      expect(rule.meta.fixtures.negative.length).toBeGreaterThanOrEqual(3);
      expect(rule.meta.rationale.length).toBeGreaterThan(40);
      expect(rule.meta.example.length).toBeGreaterThan(0);
    }
  });

  describe.each(ALL_RULES.map((r, i) => [r.meta.id, i] as const))('%s', (id, index) => {
    const rule = ALL_RULES[index];
    it.each(rule.meta.fixtures.positive.map((f, i) => [i, f] as const))('positive fixture %i fires', (_i, fx) => {
      const findings = analyseWith(index, fx.path ?? 'SKILL.md', fx.text);
      expect(findings.filter((f) => f.rule_id === id).length).toBeGreaterThan(0);
      for (const f of findings.filter((x) => x.rule_id === id)) {
        expect(f.category).toBe(rule.meta.category);
        expect(f.locator).toMatch(/:\d+$/);
        expect(f.evidence.length).toBeLessThanOrEqual(200);
      }
    });
    // "Silent" means no full-weight finding: a negated or educational mention may still be recorded
    // with a demoted context (docs/scanner.md), but it must not count as a direct hit.
    it.each(rule.meta.fixtures.negative.map((f, i) => [i, f] as const))('negative fixture %i stays silent', (_i, fx) => {
      const findings = analyseWith(index, fx.path ?? 'SKILL.md', fx.text);
      expect(findings.filter((f) => f.rule_id === id && (f.context ?? 'direct') === 'direct')).toEqual([]);
    });
  });
});

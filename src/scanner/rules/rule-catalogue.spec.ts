import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnalysisFile, StaticFinding } from '../engine/scan-report.types';
import { detectTextKind } from '../engine/kind-detector';
import { ALL_RULES } from './presets';
import { createStaticAnalyzer } from './static-analyzer';
import { documentedExample, expectedOutcomesPath, fixtureRuleIds, loadRuleFixtures, type FixtureOutcome, type RuleFixtureFile } from './rule-fixtures';
import type { Rule } from './rule.types';

function analyseWith(ruleIndex: number, path: string, text: string) {
  // Compound rules read the other rules' findings, so they run with the whole catalogue.
  const rule = ALL_RULES[ruleIndex];
  const analyzer = createStaticAnalyzer({ rules: rule.compound ? ALL_RULES : [rule], budgetMs: 5000 });
  const file: AnalysisFile = { relativePath: path, kind: detectTextKind(path, text), text, byteLength: Buffer.byteLength(text) };
  return analyzer.analyze(file, { files: [file], skipped: [], primaryPath: path });
}

const FINDINGS = new Map<RuleFixtureFile, StaticFinding[]>();

/** The findings of the fixture's own rule, analysed once for both tests that read them. */
function ruleFindings(ruleIndex: number, fx: RuleFixtureFile): StaticFinding[] {
  let found = FINDINGS.get(fx);
  if (!found) {
    found = analyseWith(ruleIndex, fx.path, fx.text).filter((f) => f.rule_id === ALL_RULES[ruleIndex].meta.id);
    FINDINGS.set(fx, found);
  }
  return found;
}

function outcomeOf(f: StaticFinding): FixtureOutcome {
  return { line: Number(f.locator.slice(f.locator.lastIndexOf(':') + 1)), severity: f.severity, confidence: f.confidence, context: f.context ?? 'direct' };
}

/** One fixture per line, so a review diff shows which fixture changed. */
function formatOutcomes(outcomes: Record<string, FixtureOutcome[]>): string {
  const lines = Object.entries(outcomes).map(([name, list]) => `  ${JSON.stringify(name)}: ${JSON.stringify(list)}`);
  return `{\n${lines.join(',\n')}\n}\n`;
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

  it('keeps one rule per file, named after its id (BW-FRM-001 lives in frm-001-<slug>.rule.ts)', async () => {
    const dir = join(__dirname, 'catalogue');
    const misplaced: string[] = [];
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.rule.ts'))) {
      const module = (await import(join(dir, name))) as Record<string, unknown>;
      const rules = Object.values(module).filter((v): v is Rule => typeof v === 'object' && v !== null && 'meta' in v && 'match' in v);
      const prefix = rules.length === 1 ? `${rules[0].meta.id.slice('BW-'.length).toLowerCase()}-` : undefined;
      if (!prefix || !name.startsWith(prefix)) misplaced.push(`${name}: ${rules.map((r) => r.meta.id).join(', ')}`);
    }
    expect(misplaced).toEqual([]);
  });

  it('has unique, well-formed ids and a documented rationale and example per rule', () => {
    const ids = ALL_RULES.map((r) => r.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of ALL_RULES) {
      expect(rule.meta.id).toMatch(/^BW-[A-Z]{2,5}-\d{3}$/);
      expect(rule.meta.rationale.length).toBeGreaterThan(40);
      expect(rule.meta.example.length).toBeGreaterThan(0);
    }
  });

  it('has a fixture folder for every rule and no folder for an unknown id', () => {
    expect(fixtureRuleIds().sort()).toEqual(ALL_RULES.map((r) => r.meta.id).sort());
  });

  describe.each(ALL_RULES.map((r, i) => [r.meta.id, i] as const))('%s', (id, index) => {
    const rule = ALL_RULES[index];
    const fixtures = loadRuleFixtures(id);

    it('has at least 3 firing and 3 silent fixtures', () => {
      expect(fixtures.filter((f) => f.expectation === 'fires').length).toBeGreaterThanOrEqual(3);
      expect(fixtures.filter((f) => f.expectation === 'silent').length).toBeGreaterThanOrEqual(3);
    });

    it.each(fixtures.map((f) => [f.name, f] as const))('%s', (_name, fx) => {
      const findings = ruleFindings(index, fx);
      for (const f of findings) {
        expect(f.category).toBe(rule.meta.category);
        expect(f.evidence.length).toBeLessThanOrEqual(200);
      }
      // "Silent" means no full-weight finding: a negated or educational mention may still be
      // recorded with a demoted context (docs/scanner.md), but it must not count as a direct hit.
      const direct = findings.filter((f) => (f.context ?? 'direct') === 'direct');
      if (fx.expectation === 'fires') expect(findings.length).toBeGreaterThan(0);
      else expect(direct).toEqual([]);
    });

    it('fires on its documented example', () => {
      const example = documentedExample(rule.meta);
      const findings = analyseWith(index, example.path, example.text).filter((f) => f.rule_id === id);
      expect(findings.map((f) => f.context ?? 'direct')).toContain('direct');
    });

    it('produces what expected.json records', () => {
      const outcomes: Record<string, FixtureOutcome[]> = {};
      for (const fx of fixtures) outcomes[fx.name] = ruleFindings(index, fx).map(outcomeOf);
      const path = expectedOutcomesPath(id);
      if (process.env.UPDATE_RULE_FIXTURES === '1') writeFileSync(path, formatOutcomes(outcomes));
      expect(outcomes).toEqual(JSON.parse(readFileSync(path, 'utf8')));
    });
  });
});

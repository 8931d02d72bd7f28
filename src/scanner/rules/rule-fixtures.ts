/**
 * Rule fixtures are files: `test/fixtures/rules/<rule id>/ng-<n>/<path>` must make the rule fire,
 * `ok-<n>/<path>` must leave it silent (no direct finding), and `expected.json` records what each
 * produced (line, severity, confidence, context), so a change of behaviour shows in review.
 * `UPDATE_RULE_FIXTURES=1 npx jest src/scanner/rules/rule-catalogue.spec.ts` rewrites expected.json.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { RuleMeta } from './rule.types';

export const RULE_FIXTURES_DIR = join(__dirname, '../../../test/fixtures/rules');

export type FixtureExpectation = 'fires' | 'silent';

export interface RuleFixtureFile {
  /** `ng-1`, `ok-2`, …: the folder name. */
  name: string;
  expectation: FixtureExpectation;
  /** Relative path the text is analysed as (sets the file kind). */
  path: string;
  text: string;
}

/** What a fixture produced for its rule, as recorded in expected.json. */
export interface FixtureOutcome {
  line: number;
  severity: string;
  confidence: string;
  context: string;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** The fixture folders of one rule, each holding exactly one file. */
export function loadRuleFixtures(ruleId: string, root = RULE_FIXTURES_DIR): RuleFixtureFile[] {
  const dir = join(root, ruleId);
  return readdirSync(dir)
    .filter((name) => /^(?:ng|ok)-\d{1,3}$/.test(name))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((name) => {
      const files = filesUnder(join(dir, name));
      if (files.length !== 1) throw new Error(`${ruleId}/${name} must hold exactly one file, found ${files.length}`);
      return {
        name,
        expectation: name.startsWith('ng-') ? 'fires' : 'silent',
        path: relative(join(dir, name), files[0]).split(sep).join('/'),
        text: readFileSync(files[0], 'utf8'),
      };
    });
}

/** Rule ids that have a fixture folder. */
export function fixtureRuleIds(root = RULE_FIXTURES_DIR): string[] {
  return readdirSync(root).filter((name) => statSync(join(root, name)).isDirectory());
}

export function expectedOutcomesPath(ruleId: string, root = RULE_FIXTURES_DIR): string {
  return join(root, ruleId, 'expected.json');
}

/** A rule's documented example as the file it is analysed as: docs/rules.md shows it, and it must fire. */
export function documentedExample(meta: RuleMeta): { path: string; text: string } {
  return { path: meta.example_path ?? 'SKILL.md', text: meta.example };
}

import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';
import type { AnalysisFile } from '../engine/scan-report.types';
import { initCodeParsers } from '../code/tree-sitter';
import { boundedRepetitionEnds, compiledPattern, usePatternCompilation, type PatternCompilation } from './pattern-compilation';
import { ALL_RULES } from './presets';
import { fixtureRuleIds, loadRuleFixtures } from './rule-fixtures';
import { createStaticAnalyzer } from './static-analyzer';

const parser = new RegExpParser({ ecmaVersion: 2025 });

/** The same offsets read by regexpp: just past every quantifier with a finite range (its lazy `?` included). */
function endsByRegexpp(re: RegExp): number[] {
  const ends: number[] = [];
  visitRegExpAST(parser.parseLiteral(`/${re.source}/${re.flags}`), {
    onQuantifierLeave(q) {
      // The literal's offsets count its leading slash.
      if (q.max !== Infinity && q.max > q.min) ends.push(q.end - 1);
    },
  });
  return ends.sort((a, b) => a - b);
}

const CATALOGUE_PATTERNS = [...new Set(ALL_RULES.flatMap((r) => r.regexes))];

/** Every fixture file and documented example: texts the catalogue's patterns match and miss. */
const TEXTS: AnalysisFile[] = [
  ...fixtureRuleIds().flatMap((id) => loadRuleFixtures(id).map((f) => ({ path: f.path, text: f.text }))),
  ...ALL_RULES.map((r) => ({ path: r.meta.example_path ?? 'SKILL.md', text: r.meta.example })),
].map(({ path, text }) => ({ relativePath: path, kind: 'agent_file', text, byteLength: Buffer.byteLength(text) }));

/** Every match of `re` in `text`: offset, match and groups. */
function matchesOf(re: RegExp, text: string): string[] {
  return [...text.matchAll(re)].map((m) => JSON.stringify([m.index, ...m]));
}

describe('rule patterns compiled cheaply (pattern-compilation.ts)', () => {
  it('finds the bounded repetitions regexpp finds, in every catalogue pattern', () => {
    expect(CATALOGUE_PATTERNS.length).toBeGreaterThan(300);
    for (const re of CATALOGUE_PATTERNS)
      expect({ source: re.source, ends: boundedRepetitionEnds(re.source) }).toEqual({ source: re.source, ends: endsByRegexpp(re) });
  });

  it.each([
    /a\s{1,3}b/,
    /(?:the )?user(?:s)??\b/,
    /x{2}y{2,}z{0,4}?w*?v+?/,
    /[{}?]{1,2}\{\}a?/,
    /\p{L}{1,3}[\p{N}?]?/u,
    /(?<name>a?)(?<=b{0,2})(?<!c?)(?=d?)e/,
    /^(?:-\s?)?[\]x]?$/,
    /\u{1F600}?\x41?\u0041{1,2}/u,
  ])('reads %s as regexpp does', (re) => {
    expect(boundedRepetitionEnds(re.source)).toEqual(endsByRegexpp(re));
  });

  it('matches exactly what the pattern as written matches, on its rule’s fixtures and documented example', () => {
    const withFixtures = new Set(fixtureRuleIds());
    usePatternCompilation('cheap-to-compile');
    let compared = 0;
    for (const rule of ALL_RULES) {
      const texts = [rule.meta.example, ...(withFixtures.has(rule.meta.id) ? loadRuleFixtures(rule.meta.id).map((f) => f.text) : [])];
      for (const re of rule.regexes) {
        const flags = re.flags.includes('g') ? re.flags : `${re.flags}g`;
        const cheap = compiledPattern(re, flags);
        if (boundedRepetitionEnds(re.source).length > 0) expect(cheap.source).not.toBe(re.source);
        const written = new RegExp(re.source, flags);
        for (const text of texts) {
          const expected = matchesOf(written, text);
          compared += expected.length;
          expect(matchesOf(cheap, text)).toEqual(expected);
        }
      }
    }
    usePatternCompilation('as-written');
    // The texts hold matches of the catalogue's patterns: the comparison is not of empty lists.
    expect(compared).toBeGreaterThan(10_000);
  });

  it('leaves every finding of the engine unchanged', async () => {
    await initCodeParsers();
    const analyzer = createStaticAnalyzer({ warmUp: false });
    const findings = (mode: PatternCompilation): string[] => {
      usePatternCompilation(mode);
      return TEXTS.map((f) => JSON.stringify(analyzer.analyze(f, { files: [f], skipped: [], primaryPath: f.relativePath })));
    };
    try {
      expect(findings('cheap-to-compile')).toEqual(findings('as-written'));
    } finally {
      usePatternCompilation('as-written');
    }
  });
});

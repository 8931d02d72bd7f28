import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeLine } from '../views/normalize';
import { ALL_RULES } from './presets';
import { requiredLiteralSets } from './required-literals';
import { documentedExample, fixtureRuleIds, loadRuleFixtures } from './rule-fixtures';

/**
 * A regex rule runs its patterns only on lines holding one of its triggers (regex-rule.ts
 * candidateLines), so a match lacking every trigger is a finding the engine never reports. Every
 * match of every pattern over the fixtures of all rules, every documented example and the corpora
 * (when present) must hold a trigger, in the raw line and in its normalised form.
 */
const CORPORA = ['corpus', 'corpus-wild'].map((c) => join(__dirname, '../../../../shared', c));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

function texts(withCorpora: boolean): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  for (const id of fixtureRuleIds()) for (const f of loadRuleFixtures(id)) out.push({ name: `${id}/${f.name}`, text: f.text });
  for (const r of ALL_RULES) out.push({ name: `${r.meta.id} example`, text: documentedExample(r.meta).text });
  if (withCorpora) {
    for (const dir of CORPORA.filter((d) => existsSync(join(d, 'samples')))) {
      for (const p of filesUnder(join(dir, 'samples'))) {
        const bytes = readFileSync(p);
        if (bytes.length <= 300_000 && !bytes.includes(0)) out.push({ name: p, text: bytes.toString('utf8') });
      }
    }
  }
  return out;
}

/** Per rule: matches (pattern index, matched text) on lines that hold none of its triggers. */
function untriggeredMatches(withCorpora: boolean): Map<string, string[]> {
  const lines = new Set<string>();
  for (const { text } of texts(withCorpora)) {
    for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
      lines.add(line);
      lines.add(normalizeLine(line));
    }
  }
  const misses = new Map<string, string[]>();
  for (const rule of ALL_RULES) {
    const triggers = rule.triggered?.triggers;
    if (!triggers) continue;
    rule.triggered!.patterns.forEach((pattern, k) => {
      const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
      for (const line of lines) {
        // The engine gates by line, as lowerOf in regex-rule.ts reads it: lower-cased unless that changes its length.
        const lower = line.toLowerCase();
        const gated = lower.length === line.length ? lower : line;
        if (triggers.some((t) => gated.includes(t))) continue;
        re.lastIndex = 0;
        let m: RegExpExecArray | null;
        while ((m = re.exec(line)) !== null) {
          if (m[0].length === 0) re.lastIndex++;
          misses.set(rule.meta.id, [...(misses.get(rule.meta.id) ?? []), `pattern ${k}: ${JSON.stringify(m[0].slice(0, 120))}`]);
        }
      }
    });
  }
  return misses;
}

/** Per rule: matches that miss one of their own pattern's required literal sets (regex-rule.ts skips the pattern on lines lacking one). */
function matchesWithoutLiterals(withCorpora: boolean): Map<string, string[]> {
  const lines = new Set<string>();
  for (const { text } of texts(withCorpora)) for (const line of text.replace(/\r\n?/g, '\n').split('\n')) lines.add(line).add(normalizeLine(line));
  const misses = new Map<string, string[]>();
  for (const rule of ALL_RULES) {
    (rule.triggered?.patterns ?? []).forEach((pattern, k) => {
      const sets = requiredLiteralSets(pattern);
      if (sets.length === 0) return;
      const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
      for (const line of lines) {
        re.lastIndex = 0;
        let m: RegExpExecArray | null;
        while ((m = re.exec(line)) !== null) {
          if (m[0].length === 0) re.lastIndex++;
          const lower = m[0].toLowerCase();
          for (const literals of sets) {
            if (!literals.some((l) => lower.includes(l)))
              misses.set(rule.meta.id, [
                ...(misses.get(rule.meta.id) ?? []),
                `pattern ${k} ${JSON.stringify(literals)}: ${JSON.stringify(m[0].slice(0, 120))}`,
              ]);
          }
        }
      }
    });
  }
  return misses;
}

describe('required literals of a pattern', () => {
  it.each([
    [/abc/, ['abc']],
    [/(?:foo|bar)baz/i, ['baz']],
    [/\bcurl\s+https?:\/\//, ['curl']],
    [/\.SSH\b/, ['.ssh']],
    [/abc{2,3}de/, ['abc']],
    [/(?:send|post)\s(?:it|them)/, ['send', 'post']],
    [/(?<name>fetch)\(/, ['fetch']],
  ])('%s needs one of %j', (re, literals) => {
    expect(requiredLiteralSets(re)[0]).toEqual(literals);
  });

  it.each([
    [/ab+cd/, 'a repeated character ends a literal run: "abbcd"'],
    [/ab?cd/, 'an optional character splits it'],
    [/x(?=abcd)y/, 'a lookahead is not part of the match'],
    [/(?:ab|cdef)/, 'one alternative has no literal of three characters'],
    [/(\w+) \1 again/, 'backreferences are not read'],
    [/straße/i, 'non-ASCII literals'],
    [/kelvin/iu, 'Unicode case folding (K, ſ) is not lower-casing'],
    [/a{b/, 'a brace that is not a quantifier'],
  ])('%s needs none: %s', (re) => {
    expect(requiredLiteralSets(re)).toEqual([]);
  });

  it.each([
    [/send\b.{0,20}\b(?:keys|tokens)\b.{0,20}\bto\s(?:https?:|webhook)/, [['send'], ['keys', 'tokens'], ['http', 'webhook']]],
    [/(?:use|run) this (?:skill|tool) first/, [[' this '], ['use', 'run'], ['skill', 'tool'], [' first']]],
    [
      /(?:abc|def)x?(?:ghi|jkl)/,
      [
        ['abc', 'def'],
        ['ghi', 'jkl'],
      ],
    ],
    [/(?:abc|def)|(?:ghi|jkl)/, [['abc', 'def', 'ghi', 'jkl']]],
    [/(?:abc|de)(?:ghi|jkl)/, [['ghi', 'jkl']]],
    [/ab?cd/, []],
  ])('%s needs one literal of each of %j', (re, sets) => {
    expect(requiredLiteralSets(re)).toEqual(sets);
  });

  it('every match of a pattern on the fixtures and documented examples holds one literal of each of its required sets', () => {
    expect(Object.fromEntries(matchesWithoutLiterals(false))).toEqual({});
  });
});

describe('regex rule triggers', () => {
  it('every regex rule declares triggers (a rule without them runs its patterns over every line)', () => {
    const regexRules = ALL_RULES.filter((r) => r.triggered);
    expect(regexRules.length).toBeGreaterThan(30);
    expect(regexRules.filter((r) => !r.triggered!.triggers || r.triggered!.triggers.length === 0).map((r) => r.meta.id)).toEqual([]);
  });

  it('every trigger is a lower-case literal (the index reads the lower-cased view)', () => {
    const bad = ALL_RULES.flatMap((r) => (r.triggered?.triggers ?? []).filter((t) => t.length === 0 || t !== t.toLowerCase()).map((t) => `${r.meta.id}: ${t}`));
    expect(bad).toEqual([]);
  });

  it('every pattern match on the fixtures and documented examples is on a line holding one of its rule triggers', () => {
    expect(Object.fromEntries(untriggeredMatches(false))).toEqual({});
  });

  const corporaPresent = CORPORA.some((d) => existsSync(join(d, 'samples')));
  if (!corporaPresent) process.stderr.write('trigger-soundness.spec: ../shared corpora absent; their lines are not checked\n');
  (corporaPresent ? it : it.skip)('every pattern match on the corpora is on a line holding one of its rule triggers', () => {
    expect(Object.fromEntries(untriggeredMatches(true))).toEqual({});
  });
  (corporaPresent ? it : it.skip)('every pattern match on the corpora holds one literal of each of its required sets', () => {
    expect(Object.fromEntries(matchesWithoutLiterals(true))).toEqual({});
  });
});

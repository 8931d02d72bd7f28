import { check } from 'recheck';
import { MARKDOWN_REGEXES } from '../parsers/markdown-structure.parser';
import { DECODER_REGEXES } from '../views/decoders';
import { HIDDEN_TEXT_REGEXES } from '../views/hidden-text';
import { NORMALIZE_REGEXES } from '../views/normalize';
import { CONTEXT_REGEXES } from './context-layer';
import { EVIDENCE_REGEXES } from './evidence';
import { ALL_RULES } from './presets';

/**
 * Every regex the engine runs goes through recheck. Patterns are line-bounded with bounded
 * quantifiers, so recheck's fuzzer may report a *polynomial* degree in those bounds (work per
 * start position is capped by the bounds, linear in input length; bench/scanner-static.bench.ts
 * measures the adversarial worst case). What must never appear is an *exponential* pattern.
 */
const ALL: { owner: string; re: RegExp }[] = [
  ...ALL_RULES.flatMap((r) => r.regexes.map((re) => ({ owner: r.meta.id, re }))),
  ...[...HIDDEN_TEXT_REGEXES, ...DECODER_REGEXES, ...NORMALIZE_REGEXES, ...CONTEXT_REGEXES, ...EVIDENCE_REGEXES, ...MARKDOWN_REGEXES].map(
    (re) => ({ owner: 'engine', re }),
  ),
];

describe('ReDoS check (recheck)', () => {
  it('collects every rule and engine regex', () => {
    expect(ALL.length).toBeGreaterThan(200);
    for (const r of ALL_RULES) expect(Array.isArray(r.regexes)).toBe(true);
  });

  it('finds no exponential-backtracking regex', async () => {
    const exponential: string[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < ALL.length) {
        const { owner, re } = ALL[next++];
        const d = await check(re.source, re.flags.replace('g', ''), { timeout: 1500 });
        if (d.status === 'vulnerable' && d.complexity.type === 'exponential') exponential.push(`${owner}: /${re.source.slice(0, 80)}/`);
      }
    };
    await Promise.all([worker(), worker()]);
    expect(exponential).toEqual([]);
  }, 900_000);

  it('flags a known catastrophic pattern (the check is live)', async () => {
    const d = await check('^(a+)+$', '');
    expect(d.status).toBe('vulnerable');
  });
});

import { matchReach } from './match-reach';

describe('how far a pattern’s matches reach (match-reach.ts)', () => {
  it('gives the longest match and what lookarounds and word boundaries read around it', () => {
    expect(matchReach(/curl\s{1,3}-[a-z]{1,4}/)).toEqual({ maxLength: 12, context: 0 });
    expect(matchReach(/\bsend(?:s|ing)?\b/)).toEqual({ maxLength: 7, context: 1 });
    expect(matchReach(/(?<![\w$])token(?=[^\n]{0,20}=)/)).toEqual({ maxLength: 5, context: 21 });
    // In Unicode mode a character may be a surrogate pair: two code units.
    expect(matchReach(/(?<!\p{L})pass[\p{L}]{1,12}/iu)).toEqual({ maxLength: 28, context: 2 });
    expect(matchReach(/a😀/u)).toEqual({ maxLength: 3, context: 0 });
  });

  it('gives none where windows could not reproduce a whole-line run: unbounded, anchored, backreferences', () => {
    for (const re of [/curl.+sh/, /a*b/, /x{2,}/, /^\s{0,3}#/, /done$/, /(["'])x\1/])
      expect({ re: re.source, reach: matchReach(re) }).toEqual({ re: re.source, reach: null });
  });
});

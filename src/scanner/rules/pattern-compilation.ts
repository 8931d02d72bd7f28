/**
 * How this process compiles rule patterns (docs/decisions/0038-short-runs-compile-patterns-cheaply.md).
 *
 * V8 compiles a pattern at its first use. A bounded repetition (`\s{1,3}`, `(?:the )?`) is unrolled
 * into copies that reach the rest of the pattern at different offsets, and V8 generates the rest
 * again for each offset, up to ten times per point: a long pattern of many such parts costs tens of
 * milliseconds to compile (BW-DEC-001's concealment pattern ~60 ms of one CLI run). An empty
 * lookahead `(?=)` after each of them matches the empty string wherever it stands, so matches do
 * not change, but it makes V8 settle the offset there and generate the rest once.
 *
 * The settled offsets make matching a few per cent slower, so only a short-lived process (the CLI,
 * whose patterns run over a few files) asks for it; the service compiles them as written.
 */

export type PatternCompilation = 'as-written' | 'cheap-to-compile';

let compilation: PatternCompilation = 'as-written';

/** How rule patterns are compiled from now on (each pattern is compiled once per way, at its first use). */
export function usePatternCompilation(mode: PatternCompilation): void {
  compilation = mode;
}

export function patternCompilation(): PatternCompilation {
  return compilation;
}

/** `{m,n}` right after an atom: a repetition (outside a class, never escaped). */
const RANGE = /\{(\d+)(?:,(\d*))?\}/y;

/**
 * Offsets in `source` just past each repetition with a finite range (`?`, `{m,n}` with n > m; a
 * lazy `?` after it included): where the lookahead goes. A lexical reading of the source, linear in
 * its length; parsing the rule patterns a corpus run reaches with regexpp took ~80 ms of the ~230
 * the rewrite saves, this reading ~4 ms (pattern-compilation.spec.ts checks that both agree).
 */
export function boundedRepetitionEnds(source: string): number[] {
  const ends: number[] = [];
  let inClass = false;
  // Whether the character before `i` ends an atom a repetition may follow.
  let afterAtom = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      // `\p{…}`, `\u{…}`: the braces belong to the escape.
      const next = source[i + 1];
      i += 1;
      if ((next === 'p' || next === 'P' || next === 'u') && source[i + 1] === '{') {
        const close = source.indexOf('}', i + 1);
        if (close > 0) i = close;
      }
      afterAtom = !inClass;
      continue;
    }
    if (inClass) {
      if (c === ']') {
        inClass = false;
        afterAtom = true;
      }
      continue;
    }
    if (c === '[') {
      inClass = true;
      continue;
    }
    if (c === '(') {
      // Group syntax (`(?:`, `(?=`, `(?<name>`) is no repetition.
      if (source[i + 1] === '?') i += 1;
      afterAtom = false;
      continue;
    }
    if (c === '|') {
      afterAtom = false;
      continue;
    }
    let bounded: boolean | null = null;
    let end = i + 1;
    if (afterAtom && (c === '?' || c === '*' || c === '+')) {
      bounded = c === '?';
    } else if (afterAtom && c === '{') {
      RANGE.lastIndex = i;
      const m = RANGE.exec(source);
      if (m) {
        const max = m[2] === undefined ? Number(m[1]) : m[2] === '' ? Infinity : Number(m[2]);
        bounded = max !== Infinity && max > Number(m[1]);
        end = i + m[0].length;
      }
    }
    if (bounded === null) {
      // `^`, `$` and the other assertions are no atoms (a repetition after them is a syntax error).
      afterAtom = c !== '^' && c !== '$';
      continue;
    }
    if (source[end] === '?') end += 1;
    if (bounded) ends.push(end);
    i = end - 1;
    afterAtom = false;
  }
  return ends;
}

/** The pattern to run, compiled with `flags`: as written, or with `(?=)` after each bounded repetition. */
export function compiledPattern(pattern: RegExp, flags: string): RegExp {
  // Nested classes of the `v` flag are not read here (no rule pattern uses it).
  if (compilation === 'as-written' || pattern.flags.includes('v')) return new RegExp(pattern.source, flags);
  let source = '';
  let from = 0;
  for (const end of boundedRepetitionEnds(pattern.source)) {
    source += `${pattern.source.slice(from, end)}(?=)`;
    from = end;
  }
  return new RegExp(source + pattern.source.slice(from), flags);
}

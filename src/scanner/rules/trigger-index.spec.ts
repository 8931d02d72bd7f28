import { computeLineStarts, lineOfOffset } from '../views/line-index';
import { DENSE_STARTS, TriggerIndex } from './trigger-index';

/** The reference: one indexOf sweep per trigger (what the index replaces). */
function naive(text: string, triggers: string[], maxLines: number): Map<string, number[] | null> {
  const starts = computeLineStarts(text);
  const out = new Map<string, number[] | null>();
  for (const t of new Set(triggers)) {
    const lines: number[] = [];
    let idx = text.indexOf(t);
    while (idx !== -1 && lines.length <= maxLines) {
      const line = lineOfOffset(starts, idx);
      lines.push(line);
      idx = text.indexOf(t, starts[line] ?? text.length);
    }
    if (lines.length > 0) out.set(t, lines.length > maxLines ? null : lines);
  }
  return out;
}

/** A small deterministic PRNG, so a failure names a reproducible seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('TriggerIndex', () => {
  it('finds exactly what one indexOf per trigger finds (random texts and triggers, incl. 1-char, overlapping, non-ASCII, astral, multi-line)', () => {
    const alphabet = ['a', 'b', 'c', 'ab', 'ba', ' ', '\n', '<', '~/', 'é', 'İ', 'ñ', '😀', 'curl', 'cu', 'x\n'];
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const pick = () => alphabet[Math.floor(r() * alphabet.length)]!;
      const text = Array.from({ length: Math.floor(r() * 200) }, pick).join('');
      // Every fourth seed keeps line breaks in its triggers (found apart from the automaton).
      const triggers = Array.from({ length: 1 + Math.floor(r() * 8) }, () => Array.from({ length: 1 + Math.floor(r() * 3) }, pick).join('')).map((t) =>
        seed % 4 === 0 ? t : t.replace(/\n/g, ''),
      );
      const cap = 1 + Math.floor(r() * 10);
      const got = new TriggerIndex(triggers).linesIn(text, computeLineStarts(text), cap);
      expect({ seed, got: Object.fromEntries(got) }).toEqual({ seed, got: Object.fromEntries(naive(text, triggers.filter(Boolean), cap)) });
    }
  });

  it('gives where each trigger starts within a range, as indexOf from every offset would, or null where it is dense (random texts and triggers, overlapping)', () => {
    const alphabet = ['a', 'b', 'c', 'ab', 'ba', ' ', '<', '~/', 'é', 'ñ', '😀', 'curl', 'cu'];
    let dense = 0;
    let listed = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const pick = () => alphabet[Math.floor(r() * alphabet.length)]!;
      // Up to ~3,000 characters: short ranges list at most DENSE_STARTS.floor starts, long ones one per DENSE_STARTS.every.
      const text = Array.from({ length: Math.floor(r() * 1500) }, pick).join('');
      const triggers = [...new Set(Array.from({ length: 1 + Math.floor(r() * 8) }, () => Array.from({ length: 1 + Math.floor(r() * 3) }, pick).join('')))];
      const from = Math.floor(r() * (text.length / 2));
      const to = from + Math.floor(r() * (text.length - from + 1));
      const index = new TriggerIndex(triggers);
      const starts = index.startsIn(text, from, to);
      const most = Math.max(DENSE_STARTS.floor, Math.ceil((to - from) / DENSE_STARTS.every));
      for (const t of triggers) {
        const all: number[] = [];
        for (let at = text.indexOf(t, from); at !== -1 && at + t.length <= to; at = text.indexOf(t, at + 1)) all.push(at);
        const expected = all.length > most ? null : all;
        if (expected === null) dense++;
        else listed++;
        const got = starts[index.automatonIdOf(t)!];
        expect({ seed, t, got: got === undefined ? [] : got }).toEqual({ seed, t, got: expected });
      }
    }
    // Both kinds occur.
    expect(dense).toBeGreaterThan(50);
    expect(listed).toBeGreaterThan(50);
    expect(new TriggerIndex(['ab']).automatonIdOf('zz')).toBeUndefined();
    expect(new TriggerIndex(['a\nb', 'ab']).automatonIdOf('a\nb')).toBeUndefined();
  });

  it("reports per group the union of its triggers' lines, as the per-trigger lists merged would (random texts and groups)", () => {
    const alphabet = ['a', 'b', 'c', 'ab', 'ba', ' ', '\n', '<', '~/', 'é', 'İ', 'curl', 'cu', 'x\n'];
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const pick = () => alphabet[Math.floor(r() * alphabet.length)]!;
      const text = Array.from({ length: Math.floor(r() * 200) }, pick).join('');
      const word = () =>
        Array.from({ length: 1 + Math.floor(r() * 3) }, pick)
          .join('')
          .replace(/\n/g, '');
      const groups = Array.from({ length: 1 + Math.floor(r() * 4) }, () => Array.from({ length: 1 + Math.floor(r() * 4) }, word));
      const cap = 1 + Math.floor(r() * 10);
      const got = new TriggerIndex(groups.flat(), groups).groupLinesIn(text, computeLineStarts(text), cap);
      const want = groups.map((g) => {
        const union = [...new Set([...naive(text, g.filter(Boolean), Infinity).values()].flatMap((l) => l ?? []))].sort((x, y) => x - y);
        return union.length > cap ? null : union;
      });
      expect({ seed, got }).toEqual({ seed, got: want });
    }
  });

  it('reports a trigger once per line, in line order, and null past the cap', () => {
    const text = 'curl curl\nnothing\ncurl\ncurl';
    const index = new TriggerIndex(['curl', 'nothing', 'absent']);
    expect(Object.fromEntries(index.linesIn(text, computeLineStarts(text), 10))).toEqual({ curl: [1, 3, 4], nothing: [2] });
    expect(index.linesIn(text, computeLineStarts(text), 2).get('curl')).toBeNull();
  });
});

/**
 * Look-alike npm scopes: a scope that imitates an official one by a homoglyph (capital I for l,
 * 0 for o), a changed separator, an added or dropped suffix, or one edit. A scope that differs
 * from an official one only in letter case is not a look-alike (npm names are lower-case, the
 * registry resolves the official package).
 */
import { KNOWN_NPM_SCOPES, SCOPE_SQUAT_SUFFIXES } from './supply-chain-lexicon';

/** Damerau-Levenshtein distance capped at 3 (short strings only). */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

export type ScopeImitation = { how: 'homoglyph' | 'separator' | 'suffix' | 'edit'; target: string };

const KNOWN = new Set(KNOWN_NPM_SCOPES);
const bare = (s: string): string => s.replace(/[-_.]/g, '');
const KNOWN_BARE = new Map(KNOWN_NPM_SCOPES.map((k) => [bare(k), k]));

/** Folds the characters look-alike scopes swap in (before lower-casing: `I` reads as `l`). */
function foldHomoglyphs(scope: string): string {
  return scope.replace(/I/g, 'l').replace(/0/g, 'o').replace(/1/g, 'l').toLowerCase().replace(/rn/g, 'm').replace(/vv/g, 'w');
}

/** The official scope `scope` (without `@`) imitates, or null (also null for case-only differences). */
export function imitatedScope(scope: string): ScopeImitation | null {
  const lower = scope.toLowerCase();
  if (KNOWN.has(lower)) return null;
  const folded = foldHomoglyphs(scope);
  if (KNOWN.has(folded)) return { how: 'homoglyph', target: folded };
  const sameBare = KNOWN_BARE.get(bare(lower));
  if (sameBare) return { how: 'separator', target: sameBare };
  for (const k of KNOWN_NPM_SCOPES) {
    if (SCOPE_SQUAT_SUFFIXES.some((s) => lower === k + s || k === lower + s)) return { how: 'suffix', target: k };
  }
  if (lower.length >= 6) {
    for (const k of KNOWN_NPM_SCOPES) if (k.length >= 6 && editDistance(lower, k) === 1) return { how: 'edit', target: k };
  }
  return null;
}

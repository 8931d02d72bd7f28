/**
 * The path globs of `.bulwark.yaml` (gitignore-like, no dependency): `*` matches within one path
 * segment, `?` one character of a segment, `**` any number of whole segments. A pattern without
 * `/` matches a name at any depth (`*.mdc`, `fixtures`); a leading `/` anchors at the root; a
 * pattern that matches a folder matches everything under it (`test/fixtures`, `docs/`).
 * Matching is iterative over segments with memoisation, so it stays polynomial in pattern × path
 * length whatever the pattern (no regular expression is built from user input).
 */

const MAX_PATTERN = 300;

export interface PathGlob {
  source: string;
  matches(path: string): boolean;
}

/** `*` and `?` inside one segment: classic two-pointer wildcard match with backtracking to the last star (linear-ish). */
function segmentMatches(pat: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pat.length && (pat[p] === '?' || pat[p] === text[t])) {
      p++;
      t++;
    } else if (p < pat.length && pat[p] === '*') {
      star = p++;
      mark = t;
    } else if (star !== -1) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pat.length && pat[p] === '*') p++;
  return p === pat.length;
}

function segmentsMatch(pat: string[], path: string[]): boolean {
  // memo[i][j]: does pat[i..] match path[j..]?
  const memo = new Map<number, boolean>();
  const width = path.length + 1;
  const go = (i: number, j: number): boolean => {
    const key = i * width + j;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    let r: boolean;
    if (i === pat.length) r = j === path.length;
    else if (pat[i] === '**') r = go(i + 1, j) || (j < path.length && go(i, j + 1));
    else r = j < path.length && segmentMatches(pat[i], path[j]) && go(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return go(0, 0);
}

/** Throws an Error with a readable message for a pattern that cannot be used. */
export function compileGlob(source: string): PathGlob {
  if (typeof source !== 'string' || source.trim() === '') throw new Error('a path glob must be a non-empty string');
  if (source.length > MAX_PATTERN) throw new Error(`a path glob is at most ${MAX_PATTERN} characters`);
  if (source.includes('\\')) throw new Error(`use "/" in path globs, not "\\" ("${source}")`);
  const body = source.trim();
  const anchored = body.startsWith('/') || body.slice(0, -1).includes('/');
  // Empty and "." segments (leading "./", "/" or a trailing "/") carry nothing.
  const segs = body.split('/').filter((s) => s !== '' && s !== '.');
  if (segs.length === 0 || segs.includes('..')) throw new Error(`"${source}" does not name a path inside the working folder`);
  const pat = anchored ? segs : ['**', ...segs];
  // A pattern that names a folder covers its contents.
  const withContents = [...pat, '**'];
  return {
    source,
    matches(path: string): boolean {
      const parts = path.split('/').filter((s) => s !== '');
      return segmentsMatch(withContents, parts);
    },
  };
}

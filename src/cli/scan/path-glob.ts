/**
 * The path globs of `.bulwark.yaml`, gitignore-like, matched by picomatch: `*` and `?` stay within
 * one path segment, `**` spans segments. A pattern without `/` matches a name at any depth
 * (`*.mdc`, `fixtures`); a leading `/` anchors at the root; a pattern that matches a folder matches
 * everything under it (`test/fixtures`, `docs/`). The globs come from the scanning user's config,
 * never from a scanned file.
 */
import picomatch from 'picomatch';

const MAX_PATTERN = 300;

export interface PathGlob {
  source: string;
  matches(path: string): boolean;
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
  // `basename`: a pattern without a slash is matched against the last segment, at any depth.
  const isMatch = picomatch(segs.join('/'), { dot: true, basename: !anchored });
  return {
    source,
    matches(path: string): boolean {
      // The path itself or a folder above it: a pattern that names a folder covers its contents.
      const parts = path.split('/').filter((s) => s !== '');
      for (let n = parts.length; n >= 1; n--) if (isMatch(parts.slice(0, n).join('/'))) return true;
      return false;
    },
  };
}

/**
 * Entry names are attacker-controlled. Zip names are validated strictly (any doubt → 400);
 * the single-file upload name is only normalised, because nothing is ever written to disk and a
 * friendly report beats a rejection for an odd client-side file name.
 */

/** C0/C1 controls, DEL, Unicode format characters (bidi overrides, zero-width), line/para separators. */
const FORBIDDEN_NAME_CHARS = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
/** The same class, global, for removal (built once: every scanned upload's name goes through it). */
const FORBIDDEN_NAME_CHARS_ALL = new RegExp(FORBIDDEN_NAME_CHARS.source, 'gu');
const DRIVE_LETTER = /^[A-Za-z]:/;

/** Renders an untrusted name for an error message: escaped, quoted, bounded. */
export function quoteName(name: string): string {
  const bounded = name.length > 120 ? `${name.slice(0, 117)}...` : name;
  return JSON.stringify(bounded).replace(
    /[\u0080-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Why a zip entry name is unsafe, or null when it is fine. `name` is the decoded name, including
 * a trailing `/` for directory entries.
 */
export function unsafeZipNameReason(name: string): string | null {
  if (name.length === 0) return 'has an empty name';
  if (FORBIDDEN_NAME_CHARS.test(name)) return 'has control or invisible format characters in its name';
  if (name.includes('\\')) return 'uses a backslash in its path';
  if (name.startsWith('/')) return 'has an absolute path';
  if (DRIVE_LETTER.test(name)) return 'has a drive letter in its path';
  const trimmed = name.endsWith('/') ? name.slice(0, -1) : name;
  const segments = trimmed.split('/');
  if (segments.some((s) => s === '..')) return 'escapes the archive with ".."';
  if (segments.some((s) => s === '' || s === '.')) return 'has an empty or "." path segment';
  return null;
}

/**
 * Folds a path for duplicate detection: NFC, then a case fold. JS has no full case folding;
 * upper-then-lower maps e.g. "ß" to "ss" and "K" (Kelvin) to "k", which is what file systems
 * that ignore case would collide on.
 */
export function foldName(name: string): string {
  return name.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

/**
 * The single-file upload name as the report shows it: client paths kept (they tell the kind,
 * e.g. `.claude/settings.json`), but made relative and free of control characters.
 */
export function normaliseUploadName(raw: string | undefined | null): string {
  const cleaned = (raw ?? '').normalize('NFC').replace(FORBIDDEN_NAME_CHARS_ALL, '').replace(/\\/g, '/').replace(DRIVE_LETTER, '');
  const segments = cleaned.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
  const joined = segments.join('/');
  if (joined.length === 0) return 'upload';
  return joined.length > 512 ? joined.slice(joined.length - 512) : joined;
}

export function baseName(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  const i = trimmed.lastIndexOf('/');
  return i === -1 ? trimmed : trimmed.slice(i + 1);
}

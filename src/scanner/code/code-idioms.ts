/**
 * String idioms the code layer evaluates on constants it has resolved: slices and reversal
 * (`s[::-1]`), format templates (`"{}{}".format(a, b)`, `"%s%s" % (a, b)`), character codes
 * (`chr(104)`, `String.fromCharCode(104, 105)`, `bytes([104, 105])`) and literal replacement.
 * Pure functions over bounded strings: each costs time linear in its input and output.
 */

/** Longest text an idiom builds (the resolver's own cap). */
export const IDIOM_MAX = 8 * 1024;
/** A number literal or constant: decimal, hex, octal or binary. */
const INT_WORD = /^(?:0x[0-9a-f]{1,8}|0o[0-7]{1,11}|0b[01]{1,32}|\d{1,10})$/i;
/** A `{}` / `{0}` / `{name}` / `{0!r}` / `{:>4}` replacement field of str.format. */
const FORMAT_FIELD = /\{\{|\}\}|\{([A-Za-z_]\w{0,40}|\d{1,3})?(?:![rsa])?(?::[^{}\n]{0,20})?\}/g;
/** A printf-style conversion: `%s`, `%d`, `%r`, `%%`. */
const PERCENT_FIELD = /%%|%[-+ #0]{0,4}\d{0,3}(?:\.\d{1,3})?[sdirxXc]/g;

/** An integer literal's value, or null. */
export function intOf(word: string): number | null {
  const w = word.trim().replace(/_/g, '');
  if (!INT_WORD.test(w)) return null;
  const n = Number(w.toLowerCase().startsWith('0o') ? Number.parseInt(w.slice(2), 8) : w);
  return Number.isSafeInteger(n) ? n : null;
}

/** One character per code (the printable range only: a code past it is not text the idiom builds). */
export function fromCodes(codes: readonly (number | null)[]): string | null {
  let out = '';
  for (const c of codes) {
    if (c === null || c < 0 || c > 0x10ffff || out.length >= IDIOM_MAX) return null;
    out += String.fromCodePoint(c);
  }
  return out;
}

/** Python slice semantics for integer bounds and step (`[::-1]`, `[2:]`, `[:-3]`, `[::2]`) over a list; null when a bound is not an integer. */
export function sliceItems<T>(items: readonly T[], sliceText: string): T[] | null {
  const parts = sliceText.split(':');
  if (parts.length < 2 || parts.length > 3) return null;
  const signed: (number | undefined)[] = [];
  for (const raw of parts) {
    const p = raw.trim();
    if (p === '') {
      signed.push(undefined);
      continue;
    }
    const n = intOf(p.startsWith('-') ? p.slice(1) : p);
    if (n === null) return null;
    signed.push(p.startsWith('-') ? -n : n);
  }
  const len = Math.min(items.length, IDIOM_MAX);
  const step = signed[2] ?? 1;
  if (step === 0) return null;
  const clamp = (n: number | undefined, dflt: number, lo: number, hi: number): number => {
    if (n === undefined) return dflt;
    const v = n < 0 ? n + len : n;
    return Math.min(Math.max(v, lo), hi);
  };
  const out: T[] = [];
  if (step > 0) {
    const stop = clamp(signed[1], len, 0, len);
    for (let i = clamp(signed[0], 0, 0, len); i < stop; i += step) out.push(items[i]);
  } else {
    const stop = clamp(signed[1], -1, -1, len - 1);
    for (let i = clamp(signed[0], len - 1, -1, len - 1); i > stop; i += step) out.push(items[i]);
  }
  return out;
}

/** A slice of a string, by code point. */
export function sliceOf(value: string, sliceText: string): string | null {
  return sliceItems([...value.slice(0, IDIOM_MAX)], sliceText)?.join('') ?? null;
}

/** `template.format(*positional, **named)`; null when a field names nothing given. */
export function formatTemplate(template: string, positional: readonly string[], named: ReadonlyMap<string, string>): string | null {
  let next = 0;
  let missing = false;
  const out = template.replace(FORMAT_FIELD, (whole, key: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    const value = key === undefined ? positional[next++] : /^\d/.test(key) ? positional[Number(key)] : named.get(key);
    if (value === undefined) missing = true;
    return value ?? '';
  });
  return missing ? null : out.slice(0, IDIOM_MAX);
}

/** `template % values`; null when the template asks for more values than given. */
export function percentFormat(template: string, values: readonly string[]): string | null {
  let next = 0;
  let missing = false;
  const out = template.replace(PERCENT_FIELD, (whole) => {
    if (whole === '%%') return '%';
    const value = values[next++];
    if (value === undefined) missing = true;
    const last = whole[whole.length - 1];
    if (last === 'c' && value !== undefined) {
      const code = intOf(value);
      return code === null ? value : String.fromCodePoint(code);
    }
    return value ?? '';
  });
  return missing ? null : out.slice(0, IDIOM_MAX);
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const CODE_IDIOM_REGEXES: readonly RegExp[] = [INT_WORD, FORMAT_FIELD, PERCENT_FIELD];

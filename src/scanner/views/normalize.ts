/**
 * The normalised reading: NFKC, a confusable skeleton (Cyrillic/Greek look-alikes → Latin) and
 * format/control characters removed, so `іgnоre` written with Cyrillic letters or split by
 * zero-width spaces reads as `ignore`. Line count is preserved.
 */

/**
 * C0 controls other than tab and line breaks (a NUL must not split `cu\0rl` past the rules), DEL,
 * zero-width, bidi controls, soft hyphen, word joiners, BOM, variation selectors, tag characters.
 */
export const FORMAT_CHARS_RE =
  // eslint-disable-next-line no-misleading-character-class
  /[\x00-\x08\x0E-\x1F\x7F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|\uDB40[\uDC00-\uDDEF]/g;

export const BIDI_CONTROL_RE = /[\u202A-\u202E\u2066-\u2069]/;
export const ZERO_WIDTH_RE = /[\u200B-\u200D\u2060\uFEFF]/;

// A look-up table laid out by script, several pairs per line.
// prettier-ignore
const CONFUSABLES: Record<string, string> = {
  // Cyrillic lower
  а: 'a', в: 'b', е: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  ѕ: 's', і: 'i', ї: 'i', ј: 'j', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l', ɡ: 'g', ь: 'b', ԍ: 'g',
  // Cyrillic upper
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y', Х: 'X',
  Ѕ: 'S', І: 'I', Ј: 'J', Ԁ: 'D', Ԛ: 'Q', Ԝ: 'W', Һ: 'H', Ӏ: 'I',
  // Greek
  α: 'a', β: 'b', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T',
  Υ: 'Y', Χ: 'X',
  // Latin look-alikes and punctuation
  ı: 'i', ȷ: 'j', ℓ: 'l', '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-',
  '\u2212': '-', '\u2018': "'", '\u2019': "'", '\u201C': '"', '\u201D': '"', '\u00A0': ' ',
};

const CONFUSABLE_RE = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'g');
/** Anything but printable ASCII, tab and line breaks: the lines normalisation can change. */
const NON_ASCII_RE = /[^\t\n\v\f\r\x20-\x7E]/;

export function skeleton(text: string): string {
  return text.replace(CONFUSABLE_RE, (ch) => CONFUSABLES[ch] ?? ch);
}

/** Normalise one line; never introduces a newline. */
export function normalizeLine(line: string): string {
  if (!NON_ASCII_RE.test(line)) return line;
  let out = line.replace(FORMAT_CHARS_RE, '');
  try {
    out = out.normalize('NFKC');
  } catch {
    // Lone surrogates make normalize throw on some inputs; the un-normalised text is still useful.
  }
  return skeleton(out).replace(/[\n\r\u2028\u2029]/g, ' ');
}

const CYRILLIC_OR_GREEK_RE = /[\u0370-\u03FF\u0400-\u04FF]/g;

/**
 * A word mixing Latin letters with Cyrillic/Greek *look-alikes* (a homoglyph disguise), or null.
 * Letters that look like no Latin letter (Δ, λ, σ, μ in "Δc", "λx", "μs") are symbols of
 * mathematics and units, not disguises.
 */
export function findMixedScriptWord(text: string): string | null {
  // Most non-ASCII lines (dashes, quotes, emoji, CJK) hold no Cyrillic or Greek letter: no word to read.
  // `search` ignores the global pattern's lastIndex.
  if (text.search(CYRILLIC_OR_GREEK_RE) < 0) return null;
  const re = /[A-Za-z\u0370-\u03FF\u0400-\u04FF]{2,60}/g;
  let m: RegExpExecArray | null;
  let guard = 0;
  while ((m = re.exec(text)) !== null && guard++ < 5000) {
    const word = m[0];
    if (!/[A-Za-z]/.test(word)) continue;
    const foreign = word.match(CYRILLIC_OR_GREEK_RE);
    if (foreign?.some((ch) => ch in CONFUSABLES)) return word;
  }
  return null;
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const NORMALIZE_REGEXES: readonly RegExp[] = [FORMAT_CHARS_RE, BIDI_CONTROL_RE, ZERO_WIDTH_RE, CONFUSABLE_RE, NON_ASCII_RE, CYRILLIC_OR_GREEK_RE];

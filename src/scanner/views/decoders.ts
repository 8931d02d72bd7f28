/**
 * Bounded decoders for the decoded view: base64/base32/hex/URL/HTML-entity/`\u`/`\x` escapes,
 * char-code construction, string concatenation and ROT13 (only where the file names ROT13).
 * A decoded piece is kept only when it reads as text (mostly printable), so random blobs and
 * hashes do not produce noise. Each decoder's output is no longer than its input; callers bound
 * the recursion depth.
 */
import type { SegmentSource } from './view.types';

export interface DecodedPiece {
  source: SegmentSource;
  text: string;
  /** The encoded text the piece came from (evidence). */
  encoded: string;
}

const BASE64_RE = /[A-Za-z0-9+/_-]{20,}={0,2}/g;
/** A string reversed in code: `| rev`, `[::-1]`, `.reverse()`, `strrev(`, PowerShell's `[array]::Reverse`. */
const REVERSAL_RE = /\|\s{0,3}rev\b|\[::-1\]|\.reverse\(\)|\bstrrev\(|\[array\]::Reverse/i;
const HEX_RE = /\b(?:[0-9a-fA-F]{2}){12,}\b/g;
const X_ESCAPE_RE = /(?:\\x[0-9a-fA-F]{2}){4,}/g;
const U_ESCAPE_RE = /(?:\\u[0-9a-fA-F]{4}|\\u\{[0-9a-fA-F]{1,6}\}){3,}/g;
const OCTAL_ESCAPE_RE = /(?:\\[0-3][0-7]{2}){4,}/g;
const URL_ENC_RE = /(?:%[0-9a-fA-F]{2}[^%\s"'<>]{0,3}){4,}/g;
const ENTITY_RE = /(?:&#(?:x[0-9a-fA-F]{1,6}|\d{1,7});){3,}/g;
const FROM_CHAR_CODE_RE = /fromCharCode\(\s{0,3}((?:0x[0-9a-fA-F]{1,4}|\d{1,5})(?:\s{0,3},\s{0,3}(?:0x[0-9a-fA-F]{1,4}|\d{1,5})){2,400})\s{0,3}\)/g;
const CHR_CHAIN_RE = /(?:chr\(\s{0,3}\d{1,5}\s{0,3}\)\s{0,3}\+?\s{0,3}){3,}/g;
const NUM_ARRAY_RE = /\[\s{0,3}((?:\d{2,3}\s{0,3},\s{0,3}){5,400}\d{2,3})\s{0,3}\]/g;
const CONCAT_RE = /(?:(["'`])[^"'`\n]{0,200}\1\s{0,3}(?:\+|\.|\.\.)\s{0,3}){2,40}(["'`])[^"'`\n]{0,200}\2/g;
const STRING_LITERAL_RE = /(["'])([^"'\n]{12,2000})\1/g;
const BASE32_RE = /\b[A-Z2-7]{24,}={0,6}\b/g;
/** A run of BASE64_RE's class long enough for any of BASE64_RE, BASE32_RE and HEX_RE (their alphabets are subsets of it). */
const ENCODED_RUN_RE = /[A-Za-z0-9+/_-]{20}/;

/** BASE64_RE's class, by ASCII code (1: in it). */
const ENCODED_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) ENCODED_CLASS[c] = /[A-Za-z0-9+/_-]/.test(String.fromCharCode(c)) ? 1 : 0;

/** Does the line hold 20 characters of ENCODED_RUN_RE's class in a row? One pass (the regex retried at every start). */
export function hasEncodedRun(line: string): boolean {
  let run = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c < 128 && ENCODED_CLASS[c] === 1) {
      if (++run >= 20) return true;
    } else run = 0;
  }
  return false;
}

/** Share of printable characters, with a floor on letters, so binary junk is rejected. */
export function looksLikeText(text: string): boolean {
  if (text.length < 4) return false;
  let printable = 0;
  let letters = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 0x0a || c === 0x09 || c === 0x0d) printable++;
    if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) letters++;
  }
  return printable / text.length >= 0.9 && letters / text.length >= 0.3;
}

/** A decoded piece on one line. Never truncated: a payload padded past a cut would go unread. */
function flatten(text: string): string {
  return text.replace(/[\r\n]+/g, ' ⏎ ');
}

function tryBase64(s: string): string | null {
  // Plain identifiers, paths and hex are not base64 payloads: require case/digit mix. (Tested
  // before the URL-safe alphabet is mapped, which changes no letter: most runs stop here uncopied.)
  if (!/[a-z]/.test(s) || !/[A-Z]/.test(s)) return null;
  if (/^[a-z]+(?:[A-Z][a-z]+)+$/.test(s)) return null;
  const clean = s.replace(/-/g, '+').replace(/_/g, '/');
  const body = clean.replace(/(?<!=)=+$/, '');
  if (body.length % 4 === 1) return null;
  const out = Buffer.from(body, 'base64').toString('utf8');
  return looksLikeText(out) ? out : null;
}

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function tryBase32(s: string): string | null {
  const body = s.replace(/(?<!=)=+$/, '');
  // Into a buffer of the decoded size: a growing array of numbers cost 9.6 ms on a 250 KB run
  // against 0.34 ms on a quarter of it (its backing store outgrew V8's regular heap objects).
  const bytes = Buffer.alloc(Math.floor((body.length * 5) / 8));
  let bits = 0;
  let value = 0;
  let n = 0;
  for (let i = 0; i < body.length; i++) {
    const idx = BASE32_ALPHABET.indexOf(body[i]!);
    if (idx === -1) return null;
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      bytes[n++] = (value >>> (bits - 8)) & 0xff;
      bits -= 8;
    }
  }
  const out = bytes.toString('utf8', 0, n);
  return looksLikeText(out) ? out : null;
}

function rot13(s: string): string {
  return s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

function safeDecodeUri(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

const CODES_PER_CALL = 8192;

function codesToText(codes: number[]): string | null {
  if (codes.some((c) => !Number.isFinite(c) || c < 0 || c > 0x10ffff)) return null;
  // In slices: spreading a run of a few hundred thousand codes (a 4 MB local file of entities) overflowed the stack.
  let out = '';
  for (let i = 0; i < codes.length; i += CODES_PER_CALL) out += String.fromCodePoint(...codes.slice(i, i + CODES_PER_CALL));
  return looksLikeText(out) ? out : null;
}

export interface DecodeOptions {
  /** The file mentions ROT13 (codecs name, `tr` alphabet rotation): decode its string literals. */
  rot13: boolean;
}

/** Keeps a piece that decoded to text (a module function: a closure per call was an allocation per line of every file). */
function addPiece(out: DecodedPiece[], source: SegmentSource, text: string | null, encoded: string): void {
  if (text && text.trim().length > 0) out.push({ source, text: flatten(text), encoded });
}

/** Decode every encoded run on one line of text. */
export function decodeLine(line: string, opts: DecodeOptions): DecodedPiece[] {
  const out: DecodedPiece[] = [];
  // Base64, base32 and hex payloads are all runs of 20+ characters of BASE64_RE's class: one test
  // spares a line without such a run (most prose) three scans.
  if (line.length >= 20 && hasEncodedRun(line)) {
    // Whether the line reverses a string, read once per line (per run it made a long line quadratic).
    let reversal: boolean | undefined;
    for (const m of line.matchAll(BASE64_RE)) {
      const direct = tryBase64(m[0]);
      // A payload stored backwards (`"=g2c…" | rev | base64 -d`): padding first, or a reversal on the line.
      const reversed = direct === null && ((m.index > 0 && line[m.index - 1] === '=') || (reversal ??= REVERSAL_RE.test(line)));
      addPiece(out, 'base64', direct ?? (reversed ? tryBase64([...m[0]].reverse().join('')) : null), m[0]);
    }
    if (/[A-Z2-7]{24}/.test(line)) {
      for (const m of line.matchAll(BASE32_RE)) {
        if (!/[0-9]/.test(m[0]) || /[2-7]/.test(m[0])) addPiece(out, 'base32', tryBase32(m[0]), m[0]);
      }
    }
    for (const m of line.matchAll(HEX_RE)) addPiece(out, 'hex', codesToTextFromHex(m[0]), m[0]);
  }
  if (line.includes('\\')) {
    for (const m of line.matchAll(X_ESCAPE_RE)) addPiece(out, 'escape', codesToTextFromHex(m[0].replace(/\\x/g, '')), m[0]);
    for (const m of line.matchAll(U_ESCAPE_RE)) {
      const codes = [...m[0].matchAll(/\\u\{?([0-9a-fA-F]{1,6})\}?/g)].map((x) => parseInt(x[1], 16));
      addPiece(out, 'escape', codesToText(codes), m[0]);
    }
    for (const m of line.matchAll(OCTAL_ESCAPE_RE)) {
      const codes = [...m[0].matchAll(/\\([0-3][0-7]{2})/g)].map((x) => parseInt(x[1], 8));
      addPiece(out, 'escape', codesToText(codes), m[0]);
    }
  }
  if (line.includes('%')) {
    for (const m of line.matchAll(URL_ENC_RE)) {
      const decoded = safeDecodeUri(m[0]);
      if (decoded !== null && decoded !== m[0] && looksLikeText(decoded)) addPiece(out, 'url_encoding', decoded, m[0]);
    }
  }
  if (line.includes('&#')) {
    for (const m of line.matchAll(ENTITY_RE)) {
      const codes = [...m[0].matchAll(/&#(x?)([0-9a-fA-F]+);/g)].map((x) => parseInt(x[2], x[1] ? 16 : 10));
      addPiece(out, 'html_entity', codesToText(codes), m[0]);
    }
  }
  if (line.includes('fromCharCode')) {
    for (const m of line.matchAll(FROM_CHAR_CODE_RE)) {
      const codes = m[1].split(',').map((x) => Number(x.trim()));
      addPiece(out, 'char_codes', codesToText(codes), m[0]);
    }
  }
  if (line.includes('chr(')) {
    for (const m of line.matchAll(CHR_CHAIN_RE)) {
      const codes = [...m[0].matchAll(/\d{1,5}/g)].map((x) => Number(x[0]));
      addPiece(out, 'char_codes', codesToText(codes), m[0]);
    }
  }
  if (line.includes('[')) {
    for (const m of line.matchAll(NUM_ARRAY_RE)) {
      const codes = m[1].split(',').map((x) => Number(x.trim()));
      if (codes.every((c) => c >= 32 && c < 127)) addPiece(out, 'char_codes', codesToText(codes), m[0]);
    }
  }
  if (/["'`]\s{0,3}(?:\+|\.)/.test(line)) {
    for (const m of line.matchAll(CONCAT_RE)) {
      const parts = [...m[0].matchAll(/(["'`])([^"'`\n]{0,200})\1/g)].map((x) => x[2]);
      const joined = parts.join('');
      if (parts.length >= 3 && joined.length >= 8) addPiece(out, 'concat', joined, m[0]);
    }
  }
  if (opts.rot13 && line.length >= 14) {
    for (const m of line.matchAll(STRING_LITERAL_RE)) addPiece(out, 'rot13', rot13(m[2]), m[0]);
  }
  return out;
}

function codesToTextFromHex(hex: string): string | null {
  if (hex.length % 2 !== 0) return null;
  const out = Buffer.from(hex, 'hex').toString('utf8');
  return looksLikeText(out) ? out : null;
}

/** The file names a ROT13 transform, so its string literals are worth rotating. */
export function mentionsRot13(text: string): boolean {
  return /rot[_-]?13|['"]N-ZA-Mn-za-m['"]|\bA-Za-z\b[^\n]{0,10}\bN-ZA-Mn-za-m\b|maketrans\([^\n]{0,80}NOPQRSTUVWXYZABCDEFGHIJKLM/i.test(text);
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const DECODER_REGEXES: readonly RegExp[] = [
  BASE64_RE,
  REVERSAL_RE,
  HEX_RE,
  X_ESCAPE_RE,
  U_ESCAPE_RE,
  OCTAL_ESCAPE_RE,
  URL_ENC_RE,
  ENTITY_RE,
  FROM_CHAR_CODE_RE,
  CHR_CHAIN_RE,
  NUM_ARRAY_RE,
  CONCAT_RE,
  STRING_LITERAL_RE,
  BASE32_RE,
  ENCODED_RUN_RE,
];

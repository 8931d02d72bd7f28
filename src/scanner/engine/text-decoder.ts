/**
 * Bytes → text for the analysers, never throwing: UTF-8 (BOM stripped), UTF-16 LE/BE (with BOM,
 * or detected from the NUL pattern of ASCII-heavy text), invalid sequences replaced and counted.
 * Content that is not text at all is classified so the pipeline can skip it with a reason. Binary
 * is decided by the share of control bytes, never by one NUL (signatures of binary formats are
 * kind-detector.ts's): stray control bytes are counted and left in the text, where the normalised
 * view removes them.
 */

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be';

export type DecodeResult =
  | {
      ok: true;
      text: string;
      encoding: TextEncodingName;
      bom: boolean;
      /** Byte sequences that were not valid in the detected encoding (replaced by U+FFFD). */
      invalidSequences: number;
      /** Characters for which isControlCode holds. */
      controlChars: number;
    }
  | { ok: false; reason: 'binary' | 'undecodable' };

/** Share of replacement characters above which the "text" is noise rather than a readable file. */
const MAX_INVALID_RATIO = 0.1;
const MIN_INVALID_FOR_UNDECODABLE = 8;
/** Share of non-whitespace C0 controls above which content is binary (unless its name says text). */
const MAX_CONTROL_RATIO = 0.3;

export interface DecodeOptions {
  /** The file's name says text (a Markdown, script or config name): control bytes never make it binary. */
  claimsText?: boolean;
}

function countInvalid(bytes: Uint8Array, encoding: TextEncodingName): { text: string; invalid: number } {
  try {
    return { text: new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes), invalid: 0 };
  } catch {
    const text = new TextDecoder(encoding, { fatal: false, ignoreBOM: true }).decode(bytes);
    const fatalLess = text.match(/\uFFFD/g)?.length ?? 0;
    return { text, invalid: Math.max(1, fatalLess) };
  }
}

function swap16(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length - (bytes.length % 2));
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    out[i] = bytes[i + 1];
    out[i + 1] = bytes[i];
  }
  return out;
}

/** BOM-less UTF-16 guess: ASCII-heavy UTF-16 has NUL in nearly every other byte, on one side only. */
function sniffUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul / pairs > 0.6 && evenNul / pairs < 0.05) return 'utf-16le';
  if (evenNul / pairs > 0.6 && oddNul / pairs < 0.05) return 'utf-16be';
  return null;
}

function decodeUtf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be', bom: boolean, opts: DecodeOptions): DecodeResult {
  const body = bom ? bytes.subarray(2) : bytes;
  const oddTail = body.length % 2;
  // TextDecoder has no fatal UTF-16BE on every runtime; swapping to LE keeps one code path.
  const le = encoding === 'utf-16be' ? swap16(body) : body.subarray(0, body.length - oddTail);
  const { text, invalid } = countInvalid(le, 'utf-16le');
  return finish(text, encoding, bom, invalid + oddTail, opts);
}

/** A C0 control character other than tab, line feed, carriage return and form feed, or DEL: text editors do not show it. */
export function isControlCode(c: number): boolean {
  return (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) || c === 0x7f;
}

function finish(text: string, encoding: TextEncodingName, bom: boolean, invalid: number, opts: DecodeOptions): DecodeResult {
  // A few bad bytes in a short file are reported, not skipped; only noise is undecodable.
  if (invalid >= MIN_INVALID_FOR_UNDECODABLE && invalid / text.length > MAX_INVALID_RATIO) return { ok: false, reason: 'undecodable' };
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    if (isControlCode(text.charCodeAt(i))) controls++;
  }
  if (!opts.claimsText && text.length > 0 && controls / text.length > MAX_CONTROL_RATIO) return { ok: false, reason: 'binary' };
  return { ok: true, text, encoding, bom, invalidSequences: invalid, controlChars: controls };
}

export function decodeText(bytes: Uint8Array, opts: DecodeOptions = {}): DecodeResult {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    const { text, invalid } = countInvalid(bytes.subarray(3), 'utf-8');
    return finish(text, 'utf-8', true, invalid, opts);
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return decodeUtf16(bytes, 'utf-16le', true, opts);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return decodeUtf16(bytes, 'utf-16be', true, opts);
  const sniffed = sniffUtf16(bytes);
  if (sniffed) return decodeUtf16(bytes, sniffed, false, opts);
  const { text, invalid } = countInvalid(bytes, 'utf-8');
  return finish(text, 'utf-8', false, invalid, opts);
}

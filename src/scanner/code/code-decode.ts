/**
 * Decoders the code layer applies to constant strings it has resolved on the parse tree: base64,
 * base32, base85, hex, rot13, zlib/gzip, UTF-16 (`.decode('utf-16')`, `toString('utf16le')`) and XOR with a
 * constant key. Values travel as binary strings (one char per byte) between steps of a chain; every
 * step is bounded in input and output, so a decode costs at most linear time in what was resolved.
 */
import { inflateSync, gunzipSync, inflateRawSync } from 'node:zlib';
import { looksLikeText } from '../views/decoders';

export type DecodeStep = 'base64' | 'base32' | 'base85' | 'hex' | 'rot13' | 'zlib' | 'utf16le';

/** Longest constant a decoder reads, and longest text it returns (characters). */
export const DECODE_MAX = 64 * 1024;

/** Short bodies too: a decoder call says what its argument is, and `atob("ZXZhbA==")` names a function. */
const BASE64_BODY = /^[A-Za-z0-9+/_-]{4,}={0,2}$/;
const BASE32_BODY = /^[A-Z2-7]{8,}={0,6}$/i;
const HEX_BODY = /^(?:[0-9a-fA-F]{2})+$/;
const B85_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';
const B85_VALUE = new Map([...B85_ALPHABET].map((c, i) => [c, i]));
/** Padding at the end, matched from a non-pad character so a run is not re-read from each start. */
const TRAILING_PAD = /(?<=[^=]|^)=+$/;
const B32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(s: string): string | null {
  const body = s.replace(TRAILING_PAD, '').toUpperCase();
  let bits = 0;
  let value = 0;
  let out = '';
  for (const c of body) {
    const v = B32_ALPHABET.indexOf(c);
    if (v < 0) return null;
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((value >>> bits) & 0xff);
    }
  }
  return out;
}

/** Python's base64.b85decode (RFC 1924 alphabet). */
function base85(s: string): string | null {
  let out = '';
  for (let i = 0; i < s.length; i += 5) {
    const chunk = s.slice(i, i + 5);
    const pad = 5 - chunk.length;
    let acc = 0;
    for (const c of chunk.padEnd(5, '~')) {
      const v = B85_VALUE.get(c);
      if (v === undefined) return null;
      acc = acc * 85 + v;
    }
    if (acc > 0xffffffff) return null;
    const bytes = [(acc >>> 24) & 0xff, (acc >>> 16) & 0xff, (acc >>> 8) & 0xff, acc & 0xff];
    out += String.fromCharCode(...bytes.slice(0, 4 - pad));
  }
  return out;
}

function rot13(s: string): string {
  return s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** zlib, raw deflate or gzip, whichever container the bytes are in. */
function inflate(s: string): string | null {
  const input = Buffer.from(s, 'latin1');
  for (const fn of [inflateSync, inflateRawSync, gunzipSync]) {
    try {
      return fn(input, { maxOutputLength: DECODE_MAX }).toString('latin1');
    } catch {
      // not this container; try the next
    }
  }
  return null;
}

/** One decoding step over a binary string, or null when the input is not of that encoding. */
export function decodeStep(step: DecodeStep, input: string): string | null {
  if (input.length > DECODE_MAX) return null;
  const s = input.trim();
  switch (step) {
    case 'base64':
      return BASE64_BODY.test(s) ? Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1') : null;
    case 'base32':
      return BASE32_BODY.test(s) ? base32(s) : null;
    case 'base85':
      return s.length >= 5 ? base85(s) : null;
    case 'hex':
      return HEX_BODY.test(s) ? Buffer.from(s, 'hex').toString('latin1') : null;
    case 'rot13':
      return rot13(input);
    case 'zlib':
      return inflate(input);
    case 'utf16le':
      return Buffer.from(input, 'latin1').toString('utf16le');
  }
}

/** XOR of every byte with a one-byte key (the shape of hand-rolled payload hiding). */
export function xorBytes(input: string, key: number): string {
  let out = '';
  for (let i = 0; i < input.length && i < DECODE_MAX; i++) out += String.fromCharCode((input.charCodeAt(i) ^ key) & 0xff);
  return out;
}

/** A decoded binary string read as text (UTF-8 where it is valid), or null when it is not text. */
export function asText(binary: string): string | null {
  const utf8 = Buffer.from(binary, 'latin1').toString('utf8');
  const text = utf8.includes('\ufffd') ? binary : utf8;
  return looksLikeText(text) ? text : null;
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const CODE_DECODE_REGEXES: readonly RegExp[] = [BASE64_BODY, BASE32_BODY, HEX_BODY, TRAILING_PAD];

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Fixed, service-specific prefix of API tokens, so a leaked key is recognisable (docs/decisions/0021-tenancy-and-credentials.md). */
export const API_KEY_PREFIX = 'bwk_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 40;
const TOKEN_PATTERN = /^bwk_[0-9A-Za-z]{32,128}$/;

/** A new token: prefix + 40 base62 characters (~238 bits), drawn without modulo bias. */
export function generateApiKeyToken(): string {
  let out = '';
  while (out.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && out.length < RANDOM_LENGTH) out += BASE62[byte % 62];
    }
  }
  return API_KEY_PREFIX + out;
}

export function isWellFormedApiKeyToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

/** What is stored and looked up: hex SHA-256 of the whole token. */
export function hashApiKeyToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Short display prefix people can recognise a key by; reveals too little to matter. */
export function displayPrefix(token: string): string {
  return token.slice(0, API_KEY_PREFIX.length + 6);
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameDigest(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

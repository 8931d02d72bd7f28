import { Enums } from '@cyclonedx/cyclonedx-library';

type HashAlgorithm = Enums.HashAlgorithm;

/** Accepted spellings (upper-case, punctuation removed) → CycloneDX algorithm and digest size in bytes. */
const ALGORITHMS: ReadonlyMap<string, [HashAlgorithm, number]> = new Map([
  ['MD5', [Enums.HashAlgorithm.MD5, 16]],
  ['SHA1', [Enums.HashAlgorithm['SHA-1'], 20]],
  ['SHA256', [Enums.HashAlgorithm['SHA-256'], 32]],
  ['SHA384', [Enums.HashAlgorithm['SHA-384'], 48]],
  ['SHA512', [Enums.HashAlgorithm['SHA-512'], 64]],
  ['SHA3256', [Enums.HashAlgorithm['SHA3-256'], 32]],
  ['SHA3384', [Enums.HashAlgorithm['SHA3-384'], 48]],
  ['SHA3512', [Enums.HashAlgorithm['SHA3-512'], 64]],
  ['BLAKE2B256', [Enums.HashAlgorithm['BLAKE2b-256'], 32]],
  ['BLAKE2B384', [Enums.HashAlgorithm['BLAKE2b-384'], 48]],
  ['BLAKE2B512', [Enums.HashAlgorithm['BLAKE2b-512'], 64]],
  ['BLAKE3', [Enums.HashAlgorithm.BLAKE3, 32]],
] as [string, [HashAlgorithm, number]][]);

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * One hash as CycloneDX wants it: a known algorithm name (`sha256`, `SHA-256`, `sha3_256` ...) and
 * lower-case hex content of the algorithm's digest size. Base64 content of the right size (as in
 * npm's `integrity`) is converted to hex. Anything else → null (the schema would reject it).
 */
export function normalizeHash(alg: string, content: string): [HashAlgorithm, string] | null {
  const known = ALGORITHMS.get(alg.toUpperCase().replace(/[^A-Z0-9]/g, ''));
  if (known === undefined) return null;
  const [algorithm, bytes] = known;
  const value = content.trim();
  if (HEX.test(value) && value.length === bytes * 2) return [algorithm, value.toLowerCase()];
  if (BASE64.test(value)) {
    const decoded = Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
    if (decoded.length === bytes) return [algorithm, decoded.toString('hex')];
  }
  return null;
}

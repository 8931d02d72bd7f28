import { normalizeHash } from './sbom-hash';
import { canonicalSpdxExpression, parseLicense } from './sbom-license';
import { canonicalPurl, withoutVersion } from './sbom-purl';

describe('parseLicense', () => {
  it.each([
    ['mit', { kind: 'id', value: 'MIT' }],
    ['  Apache-2.0 ', { kind: 'id', value: 'Apache-2.0' }],
    ['apache-2.0+', { kind: 'expression', value: 'Apache-2.0+' }],
    ['LicenseRef-acme-1', { kind: 'expression', value: 'LicenseRef-acme-1' }],
    ['(mit or bsd-2-clause) and isc', { kind: 'expression', value: '(MIT OR BSD-2-Clause) AND ISC' }],
    ['MIT AND', { kind: 'name', value: 'MIT AND' }],
    ['(MIT', { kind: 'name', value: '(MIT' }],
    ['MIT License', { kind: 'name', value: 'MIT License' }],
    ['NotALicense OR MIT', { kind: 'name', value: 'NotALicense OR MIT' }],
    ['MIT WITH', { kind: 'name', value: 'MIT WITH' }],
  ])('%s', (raw, expected) => {
    expect(parseLicense(raw)).toEqual(expected);
  });

  it('empty is nothing', () => {
    expect(parseLicense('   ')).toBeNull();
    expect(canonicalSpdxExpression('')).toBeNull();
  });
});

describe('normalizeHash', () => {
  it('accepts common algorithm spellings and hex or base64 content of the right size', () => {
    expect(normalizeHash('sha256', 'AB'.repeat(32))).toEqual(['SHA-256', 'ab'.repeat(32)]);
    expect(normalizeHash('SHA3_512', 'cd'.repeat(64))).toEqual(['SHA3-512', 'cd'.repeat(64)]);
    expect(normalizeHash('blake2b-256', Buffer.alloc(32, 255).toString('base64url'))).toEqual(['BLAKE2b-256', 'ff'.repeat(32)]);
  });
  it('rejects unknown algorithms and wrong sizes', () => {
    expect(normalizeHash('crc32', 'deadbeef')).toBeNull();
    expect(normalizeHash('sha256', 'ab'.repeat(20))).toBeNull();
    expect(normalizeHash('md5', 'zz'.repeat(16))).toBeNull();
  });
});

describe('canonicalPurl', () => {
  it('canonicalizes and fills a missing version from the observation', () => {
    expect(canonicalPurl('pkg:NPM/@Babel/Core@7.0.0')?.purl).toBe('pkg:npm/%40babel/core@7.0.0');
    expect(canonicalPurl('pkg:maven/org.example/lib', '1.2')).toMatchObject({ purl: 'pkg:maven/org.example/lib@1.2', version: '1.2' });
    expect(canonicalPurl('pkg:maven/org.example/lib@2.0', '1.2')?.version).toBe('2.0');
    expect(canonicalPurl('npm/lodash')).toBeNull();
  });
  it('withoutVersion strips only the version', () => {
    expect(withoutVersion('pkg:npm/%40babel/core@7.0.0?x=a%40b#p')).toBe('pkg:npm/%40babel/core?x=a%40b#p');
    expect(withoutVersion('pkg:npm/core?x=a%40b')).toBe('pkg:npm/core?x=a%40b');
  });
});

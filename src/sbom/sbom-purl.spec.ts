import fc from 'fast-check';
import { canonicalPurl, canonicalPurlFast, canonicalPurlSlow } from './sbom-purl';

/**
 * The fast path must be exactly the library where it answers. Purls are generated from pieces that
 * are mostly canonical (so the fast path answers often) mixed with everything that is not: upper
 * case, percent-encoding, characters the library re-encodes, qualifiers, subpaths, whitespace,
 * doubled slashes, and the per-type rules (pypi `_`, maven namespace, golang `v` versions).
 */
const TYPES = ['npm', 'pypi', 'maven', 'golang', 'docker', 'github', 'gitlab', 'nuget', 'cargo', 'gem', 'rpm', 'deb', 'generic', 'pub', 'oci', 'swift', 'cran', 'huggingface', 'conan', 'NPM', 'Maven', 'x-y'];
const SAFE = 'abcxyz019._~-'.split('');
const RISKY = ['A', 'Z', '_', '%40', '%2F', '%2f', '%41', '%20', '%3A', '%', '@', ' ', '!', "'", '(', '*', ':', '+', '=', '&', 'é', '%C3%A9', '.', '..'];
const piece = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...SAFE) }, { weight: 1, arbitrary: fc.constantFrom(...RISKY) });
const segment = fc.array(piece, { minLength: 1, maxLength: 6 }).map((p) => p.join(''));
const namespace = fc.oneof(
  { weight: 2, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('/')) },
  { weight: 1, arbitrary: fc.constantFrom('%40scope', '%40Scope', '@scope', 'org.Example', 'github.com/Foo', 'library', 'a//b', '/lead') },
);
const versionPiece = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...'0123456789.abvV-+~:_'.split('')) }, { weight: 1, arbitrary: fc.constantFrom(' ', '%2B', '%3A', '/', '@', '!', 'é') });
const version = fc.oneof(
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 4, arbitrary: fc.array(versionPiece, { minLength: 1, maxLength: 8 }).map((p) => p.join('')) },
  { weight: 2, arbitrary: fc.constantFrom('1.2.3', 'v1.2.3', 'v1.2', 'v0.0.0-20240101000000-abcdef123456', 'V1.0.0', '', '1.0.0+build.1', 'sha256:abc') },
);
const qualifiers = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('?a=1', '?b=2&a=1', '?A=x', '?arch=x86_64', '?e=', '?repository_url=https%3A%2F%2Fx', '?') },
);
const subpath = fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('#lib', '#a/b', '#/a/./b/', '#', '#..') });
const padding = fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(' ', '\t', '\n') });
const purlText = fc
  .record({ pad: padding, type: fc.constantFrom(...TYPES), namespace, name: segment, version, qualifiers, subpath, slashes: fc.constantFrom('', '', '', '//') })
  .map(({ pad, type, namespace: ns, name, version: v, qualifiers: q, subpath: sp, slashes }) => `${pad}pkg:${slashes}${type}/${ns ? `${ns}/` : ''}${name}${v === null ? '' : `@${v}`}${q}${sp}${pad}`);
/** Purls close to canonical: only the pieces the fast path admits, plus upper case and `_`. */
const plainSegment = fc.array(fc.constantFrom(...SAFE, '%40', 'A', '_'), { minLength: 1, maxLength: 6 }).map((p) => p.join(''));
const plainText = fc
  .record({
    type: fc.constantFrom('npm', 'pypi', 'maven', 'golang', 'docker', 'github', 'rpm', 'nuget'),
    namespace: fc.array(plainSegment, { maxLength: 3 }).map((s) => s.join('/')),
    name: plainSegment,
    version: fc.option(fc.constantFrom('1.2.3', 'v1.2.3', 'v1', 'V2.0', '1.0.0-rc.1+b~2', 'sha256:ab', 'a_b')),
  })
  .map(({ type, namespace: ns, name, version: v }) => `pkg:${type}/${ns ? `${ns}/` : ''}${name}${v === null ? '' : `@${v}`}`);
const anyPurl = fc.oneof(purlText, plainText);
const fallback = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: version.map((v) => v ?? '') },
  { weight: 1, arbitrary: fc.constantFrom(' 1.0 ', 'v1.2.3', 'vbad', '1.0/x') },
);

describe('canonicalPurl fast path', () => {
  it('equals packageurl-js on every purl it answers for (and canonicalPurl always equals the library)', () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(anyPurl, fallback, (text, fb) => {
        runs++;
        const slow = canonicalPurlSlow(text, fb);
        const fast = canonicalPurlFast(text.trim(), fb);
        if (fast !== undefined) {
          answered++;
          expect(fast).toStrictEqual(slow);
        }
        expect(canonicalPurl(text, fb)).toStrictEqual(slow);
      }),
      { numRuns: 20_000, seed: 4 },
    );
    // Not vacuous: the generator produces plenty of purls the fast path takes.
    expect(answered).toBeGreaterThan(runs * 0.25);
  });

  it('answers for the usual canonical purls and leaves the rest to the library', () => {
    for (const [text, fb] of [
      ['pkg:npm/%40angular/core@17.0.0', null],
      ['pkg:npm/left-pad', '1.3.0'],
      ['pkg:maven/org.apache.commons/commons-lang3@3.14.0', null],
      ['pkg:golang/github.com/Foo/bar@v1.2.3', null],
      ['pkg:docker/library/nginx@1.25', null],
      ['pkg:pypi/django-rest@3.1', null],
    ] as const) {
      expect(canonicalPurlFast(text, fb)).toStrictEqual(canonicalPurlSlow(text, fb));
    }
    for (const text of ['pkg:NPM/%40Angular/Core@17.0.0', 'pkg:pypi/Django_Rest@3.1?b=2&a=1', 'pkg:maven/lib@1', 'pkg:golang/x/y@vbad', 'pkg:pub/a-b@1', 'pkg:oci/img@sha256%3Aabc']) {
      expect(canonicalPurlFast(text, null)).toBeUndefined();
    }
  });
});

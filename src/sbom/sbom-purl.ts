import { PackageURL } from 'packageurl-js';

export interface CanonicalPurl {
  /** Canonical purl (the component's `purl` and `bom-ref`). */
  purl: string;
  /** The same purl without its version: lets a versionless `depends_on` find its one component. */
  versionless: string;
  type: string;
  namespace: string | undefined;
  name: string;
  version: string | undefined;
}

/**
 * The canonical form of a purl (packageurl-js: lower-case type, per-type name rules such as pypi
 * `Django_Rest` → `django-rest`, sorted qualifiers, empty qualifiers dropped, spec percent-encoding).
 * A purl without a version takes `fallbackVersion` (the observation's version column), so two
 * versions of one package never collapse into one component. Invalid purl → null.
 */
export function canonicalPurl(raw: string, fallbackVersion: string | null = null): CanonicalPurl | null {
  const text = raw.trim();
  const fast = canonicalPurlFast(text, fallbackVersion);
  if (fast !== undefined) return fast;
  return canonicalPurlSlow(text, fallbackVersion);
}

/** canonicalPurl through packageurl-js alone (the reference the fast path is tested against). */
export function canonicalPurlSlow(raw: string, fallbackVersion: string | null = null): CanonicalPurl | null {
  let parsed: PackageURL;
  try {
    parsed = PackageURL.fromString(raw.trim());
    if (!parsed.version && fallbackVersion) {
      parsed = new PackageURL(parsed.type, parsed.namespace, parsed.name, fallbackVersion, parsed.qualifiers, parsed.subpath);
    }
  } catch {
    return null;
  }
  const purl = parsed.toString();
  return {
    purl,
    versionless: withoutVersion(purl),
    type: parsed.type,
    namespace: parsed.namespace || undefined,
    name: parsed.name,
    version: parsed.version || undefined,
  };
}

/**
 * A canonical purl minus its `@version`. Canonical encoding percent-encodes `@` everywhere else
 * (namespace, name, qualifiers, subpath), so the only literal `@` is the version separator.
 */
export function withoutVersion(purl: string): string {
  const q = purl.search(/[?#]/);
  const head = q === -1 ? purl : purl.slice(0, q);
  const at = head.indexOf('@');
  return at === -1 ? purl : head.slice(0, at) + (q === -1 ? '' : purl.slice(q));
}

/**
 * Per purl type, what packageurl-js 2.0.1 (PurlType) does to an otherwise plain purl: which parts it
 * lower-cases, which characters it rewrites, what it requires. Only these types take the fast path;
 * every other type (pub, oci, conan, swift, cran, huggingface, mlflow ...) always goes to the library.
 */
interface FastType {
  lowerNamespace: boolean;
  lowerName: boolean;
  /** pypi rewrites `_` in the name to `-`: a name with `_` is not canonical. */
  noUnderscoreInName?: boolean;
  requireNamespace?: boolean;
  /** golang: a version starting with `v` must be semver (else the library rejects the purl). */
  golangVersion?: boolean;
}
const LOWER: FastType = { lowerNamespace: true, lowerName: true };
const KEEP: FastType = { lowerNamespace: false, lowerName: false };
const FAST_TYPES: ReadonlyMap<string, FastType> = new Map([
  ['npm', LOWER],
  ['github', LOWER],
  ['gitlab', LOWER],
  ['bitbucket', LOWER],
  ['composer', LOWER],
  ['deb', LOWER],
  ['apk', LOWER],
  ['alpm', LOWER],
  ['hex', LOWER],
  ['pypi', { lowerNamespace: true, lowerName: true, noUnderscoreInName: true }],
  ['rpm', { lowerNamespace: true, lowerName: false }],
  ['maven', { lowerNamespace: false, lowerName: false, requireNamespace: true }],
  ['golang', { lowerNamespace: false, lowerName: false, golangVersion: true }],
  ['docker', KEEP],
  ['nuget', KEEP],
  ['gem', KEEP],
  ['cargo', KEEP],
  ['generic', KEEP],
]);

/**
 * The shape of a purl that is already canonical for the parts the fast path handles: lower-case
 * type, namespace segments and name made only of characters encodeURIComponent leaves alone (minus
 * `!*'()`), or `%40` (an encoded `@`, which the library re-encodes the same way), a version of
 * `[A-Za-z0-9._~+:-]`, and no qualifiers or subpath. Groups: type, namespace, name, version.
 */
const PLAIN_PURL = /^pkg:([a-z]+)\/((?:(?:[A-Za-z0-9._~-]|%40)+\/)*?)((?:[A-Za-z0-9._~-]|%40)+)(?:@([A-Za-z0-9._~+:-]+))?$/;
const PLAIN_VERSION = /^[A-Za-z0-9._~+:-]+$/;
const UPPER = /[A-Z]/;
/** semver.org's regex, as packageurl-js uses it for golang `v` versions. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/**
 * canonicalPurl without packageurl-js for a purl that is provably canonical already (the common case:
 * inventories store purls as tools emit them). Returns undefined whenever it cannot prove that, and the
 * caller asks the library; it never returns null (invalid) itself. Exactly equivalent to the library
 * where it answers: sbom-purl.spec.ts compares the two over many generated purls.
 */
export function canonicalPurlFast(text: string, fallbackVersion: string | null): CanonicalPurl | undefined {
  const m = PLAIN_PURL.exec(text);
  if (m === null) return undefined;
  const [, type, nsPart, name, ownVersion] = m;
  const rules = FAST_TYPES.get(type!);
  if (rules === undefined) return undefined;
  const namespace = nsPart!.length > 0 ? nsPart!.slice(0, -1) : undefined;
  if (namespace === undefined ? rules.requireNamespace : rules.lowerNamespace && UPPER.test(namespace)) return undefined;
  if (rules.lowerName && UPPER.test(name!)) return undefined;
  if (rules.noUnderscoreInName && name!.includes('_')) return undefined;
  let version = ownVersion;
  if (version === undefined && fallbackVersion) {
    if (!PLAIN_VERSION.test(fallbackVersion)) return undefined;
    version = fallbackVersion;
  }
  if (rules.golangVersion && version !== undefined && version.charCodeAt(0) === 118 /* v */ && !SEMVER.test(version.slice(1))) return undefined;
  const versionless = ownVersion === undefined ? text : text.slice(0, text.length - ownVersion.length - 1);
  return {
    purl: version === ownVersion ? text : `${versionless}@${version}`,
    versionless,
    type: type!,
    namespace: namespace === undefined ? undefined : decodeAt(namespace),
    name: decodeAt(name!),
    version,
  };
}

const decodeAt = (s: string): string => (s.includes('%40') ? s.replaceAll('%40', '@') : s);

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

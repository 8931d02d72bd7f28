import { Enums, Models } from '@cyclonedx/cyclonedx-library';
import type { ApplicationBomInput, SbomSelection } from './application-bom.types';
import { normalizeHash } from './sbom-hash';
import { type ParsedLicense, parseLicense, toCycloneDxLicenses } from './sbom-license';
import { type CanonicalPurl, canonicalPurl, withoutVersion } from './sbom-purl';

/** CycloneDX `compositions` entry. The library has no model for it; the serializer adds it. */
export interface SbomComposition {
  aggregate: 'complete' | 'incomplete';
  assemblies: string[];
  dependencies: string[];
}

/** A library Bom plus what the library cannot model (compositions). */
export class ApplicationBom extends Models.Bom {
  compositions: SbomComposition[] = [];
}

/** bom-refs of the non-package components; they can never collide with a purl (`pkg:` scheme). */
export const applicationRef = (id: number) => `application:${id}`;
export const serviceRef = (id: number) => `service:${id}`;

/** Property names (CycloneDX property taxonomy: a private `bulwark:` namespace). */
export const SBOM_PROPERTY = {
  selectionEnvironment: 'bulwark:selection:environment',
  selectionCoderoot: 'bulwark:selection:coderoot',
  selectionNarrowed: 'bulwark:selection:narrowed',
  skippedObservations: 'bulwark:skipped_invalid_purls',
  applicationId: 'bulwark:application:id',
  applicationTier: 'bulwark:application:tier',
  applicationImpact: 'bulwark:application:business_impact',
  applicationType: 'bulwark:application:type',
  serviceId: 'bulwark:service:id',
  serviceSourceType: 'bulwark:service:source_type',
  coderoot: 'bulwark:coderoot',
  environment: 'bulwark:environment',
  seenInService: 'bulwark:service_id',
  direct: 'bulwark:direct',
} as const;

/** Value echoed for a null (= everything) selection key. Never a valid environment or `owner/repo:path`. */
export const SELECTION_ALL = 'all';

/**
 * Scope merge across the observations of one purl: the most-needed use wins, because a package a
 * runtime needs somewhere is needed by the application. required > unknown > optional > excluded.
 * Unknown (null) sits just under required: CycloneDX reads an absent scope as required, so it is
 * emitted as absent rather than invented.
 */
const SCOPE_RANK: Record<string, number> = { excluded: 0, optional: 1, unknown: 2, required: 3 };
const RANK_SCOPE: (Enums.ComponentScope | undefined)[] = [
  Enums.ComponentScope.Excluded,
  Enums.ComponentScope.Optional,
  undefined,
  Enums.ComponentScope.Required,
];
const scopeRank = (scope: string | null): number => SCOPE_RANK[scope?.toLowerCase() ?? 'unknown'] ?? SCOPE_RANK.unknown;

/** purl types that denote container images rather than libraries. */
const CONTAINER_PURL_TYPES = new Set(['docker', 'oci']);

interface PackageAccumulator {
  canonical: CanonicalPurl;
  /** Smallest non-empty name / group observed; the purl's own name / namespace only when none was. */
  name: string | undefined;
  group: string | undefined;
  scopeRank: number;
  hashes: Map<Enums.HashAlgorithm, Set<string>>;
  licenses: Set<ParsedLicense>;
  dependsOn: Set<string>;
  services: Set<number>;
  environments: Set<string>;
  direct: boolean;
  lastHashes?: unknown;
  lastLicenses?: unknown;
  lastDependsOn?: unknown;
  lastDependsOnService?: number;
}

interface ServiceAccumulator {
  packages: Set<string>;
  direct: Set<string>;
  /** Canonical (unresolved) depends_on targets seen in this service, self-references excluded. */
  targets: Set<string>;
}

/** Smallest non-empty string wins: deterministic whatever order the rows came in. */
const pickMin = (current: string | undefined, candidate: string | null | undefined): string | undefined =>
  candidate && (current === undefined || candidate < current) ? candidate : current;

/** Code-unit order: unlike localeCompare it is the same on every machine and locale. */
const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byName = (a: Models.Property, b: Models.Property) => byString(a.name, b.name) || byString(a.value, b.value);

/** Whether the selection narrows the application (environment chosen, or an explicit code-root list). */
export function selectionNarrows(selection: SbomSelection): boolean {
  return selection.environment !== null || (selection.coderoots !== null && selection.coderoots.length > 0);
}

/** Memoized canonicalization: one parse per distinct purl string, per version only when the purl has none. */
class PurlCanonicalizer {
  private readonly byRaw = new Map<string, CanonicalPurl | null>();
  private readonly withVersion = new Map<string, Map<string, CanonicalPurl | null>>();

  get(raw: string, version: string | null): CanonicalPurl | null {
    let parsed = this.byRaw.get(raw);
    if (parsed === undefined) {
      parsed = canonicalPurl(raw);
      this.byRaw.set(raw, parsed);
    }
    if (parsed === null || parsed.version !== undefined || !version) return parsed;
    let versions = this.withVersion.get(parsed.purl);
    if (versions === undefined) this.withVersion.set(parsed.purl, (versions = new Map()));
    let versioned = versions.get(version);
    if (versioned === undefined) {
      versioned = canonicalPurl(parsed.purl, version);
      versions.set(version, versioned);
    }
    return versioned;
  }
}

/**
 * Builds the CycloneDX 1.6 document of one application (docs/sbom.md) as library models. Pure and
 * deterministic: the same input, in any row order, gives the same document (serialNumber and
 * timestamp come from the input). Every list is filled in code-unit order, so the serializer need
 * not sort (its sort is locale-dependent and slow). Applies the selection itself, so it is correct
 * whatever superset of observations it is given.
 */
export function buildApplicationBom(input: ApplicationBomInput): ApplicationBom {
  const { application, selection } = input;
  const services = [...input.services].sort((a, b) => a.id - b.id);
  const memberIds = new Set(services.map((s) => s.id));
  const selectedRoots = selection.coderoots !== null && selection.coderoots.length > 0 ? new Set(selection.coderoots) : null;
  const narrowed = selectionNarrows(selection);

  const purls = new PurlCanonicalizer();
  const licenseCache = new Map<string, ParsedLicense | null>();
  const hashCache = new Map<string, Map<string, ReturnType<typeof normalizeHash>>>();
  const packages = new Map<string, PackageAccumulator>();
  const perService = new Map<number, ServiceAccumulator>(services.map((s) => [s.id, { packages: new Set(), direct: new Set(), targets: new Set() }]));
  let skippedInvalid = 0;
  let seenInSource = false;
  let seenDeployed = false;

  for (const o of input.observations) {
    if (
      !memberIds.has(o.serviceId) ||
      (selection.environment !== null && o.environment !== selection.environment) ||
      (selectedRoots !== null && (o.coderootId === null || !selectedRoots.has(o.coderootId)))
    ) {
      continue;
    }
    const purl = purls.get(o.purl, o.version);
    if (purl === null) {
      skippedInvalid++;
      continue;
    }
    let acc = packages.get(purl.purl);
    if (acc === undefined) {
      acc = {
        canonical: purl,
        name: pickMin(undefined, o.name),
        group: pickMin(undefined, o.group),
        scopeRank: scopeRank(o.scope),
        hashes: new Map(),
        licenses: new Set(),
        dependsOn: new Set(),
        services: new Set(),
        environments: new Set(),
        direct: false,
      };
      packages.set(purl.purl, acc);
    } else {
      acc.name = pickMin(acc.name, o.name);
      acc.group = pickMin(acc.group, o.group);
      acc.scopeRank = Math.max(acc.scopeRank, scopeRank(o.scope));
    }
    // Rows of one package usually share their fact arrays (InventoryReadRepository.findPackageObservations parses each distinct value
    // once): an array this accumulator just merged needs no second pass. Correct for any input, as
    // merging is idempotent; it only saves work.
    if (o.hashes !== acc.lastHashes) {
      acc.lastHashes = o.hashes;
      for (const h of o.hashes) {
        let byContent = hashCache.get(h.alg);
        if (byContent === undefined) hashCache.set(h.alg, (byContent = new Map()));
        let hash = byContent.get(h.content);
        if (hash === undefined) byContent.set(h.content, (hash = normalizeHash(h.alg, h.content)));
        if (hash === null) continue;
        const seen = acc.hashes.get(hash[0]);
        if (seen === undefined) acc.hashes.set(hash[0], new Set([hash[1]]));
        else seen.add(hash[1]);
      }
    }
    if (o.licenses !== acc.lastLicenses) {
      acc.lastLicenses = o.licenses;
      for (const l of o.licenses) {
        let parsed = licenseCache.get(l);
        if (parsed === undefined) licenseCache.set(l, (parsed = parseLicense(l)));
        if (parsed !== null) acc.licenses.add(parsed);
      }
    }
    const svc = perService.get(o.serviceId)!;
    if (o.dependsOn !== acc.lastDependsOn || o.serviceId !== acc.lastDependsOnService) {
      acc.lastDependsOn = o.dependsOn;
      acc.lastDependsOnService = o.serviceId;
      for (const d of o.dependsOn) {
        const target = purls.get(d, null);
        if (target === null || target.purl === purl.purl) continue;
        acc.dependsOn.add(target.purl);
        // Another version of itself does not make a package a non-root of its service.
        if (target.versionless !== purl.versionless) svc.targets.add(target.purl);
      }
    }
    acc.services.add(o.serviceId);
    if (o.environment !== null) acc.environments.add(o.environment);
    acc.direct ||= o.direct;
    if (o.environment === null) seenInSource = true;
    else seenDeployed = true;
    svc.packages.add(purl.purl);
    if (o.direct) svc.direct.add(purl.purl);
  }

  // Resolve a depends_on purl to an included component: exact match, else the one component with the
  // same purl minus version (a manifest may name a dependency without its resolved version).
  let byVersionless: Map<string, string | null> | undefined;
  const resolve = (target: string): string | undefined => {
    if (packages.has(target)) return target;
    if (byVersionless === undefined) {
      byVersionless = new Map();
      for (const [purl, acc] of packages) {
        const key = acc.canonical.versionless;
        byVersionless.set(key, byVersionless.has(key) ? null : purl);
      }
    }
    return byVersionless.get(withoutVersion(target)) ?? undefined;
  };

  // --- components -----------------------------------------------------------------------------
  const appComponent = new Models.Component(Enums.ComponentType.Application, application.name, {
    bomRef: applicationRef(application.id),
    description: application.description ?? undefined,
    properties: new Models.PropertyRepository(
      [
        new Models.Property(SBOM_PROPERTY.applicationId, String(application.id)),
        new Models.Property(SBOM_PROPERTY.applicationTier, application.tier),
        new Models.Property(SBOM_PROPERTY.applicationImpact, application.businessImpact),
        new Models.Property(SBOM_PROPERTY.applicationType, application.applicationType),
      ].sort(byName),
    ),
  });

  const sortedPurls = [...packages.keys()].sort(byString);
  const packageComponents = new Map<string, Models.Component>();
  for (const purl of sortedPurls) {
    const acc = packages.get(purl)!;
    const properties: Models.Property[] = [];
    if (acc.direct) properties.push(new Models.Property(SBOM_PROPERTY.direct, 'true'));
    for (const env of [...acc.environments].sort(byString)) properties.push(new Models.Property(SBOM_PROPERTY.environment, env));
    for (const id of [...acc.services].sort((a, b) => a - b)) properties.push(new Models.Property(SBOM_PROPERTY.seenInService, String(id)));
    const hashes = new Models.HashDictionary();
    // Two different digests for one purl mean two different artifacts: neither can be vouched for.
    for (const alg of [...acc.hashes.keys()].sort(byString)) {
      const contents = acc.hashes.get(alg)!;
      if (contents.size === 1) hashes.set(alg, contents.values().next().value!);
    }
    const component = new Models.Component(
      CONTAINER_PURL_TYPES.has(acc.canonical.type) ? Enums.ComponentType.Container : Enums.ComponentType.Library,
      acc.name ?? acc.canonical.name,
      {
        bomRef: purl,
        purl,
        group: acc.group ?? acc.canonical.namespace,
        version: acc.canonical.version,
        scope: RANK_SCOPE[acc.scopeRank],
        hashes,
        licenses: new Models.LicenseRepository(toCycloneDxLicenses(acc.licenses)),
        properties: new Models.PropertyRepository(properties),
      },
    );
    packageComponents.set(purl, component);
  }
  for (const purl of sortedPurls) {
    const component = packageComponents.get(purl)!;
    const targets = new Set<string>();
    for (const target of packages.get(purl)!.dependsOn) {
      const resolved = resolve(target);
      if (resolved !== undefined && resolved !== purl) targets.add(resolved);
    }
    for (const t of [...targets].sort(byString)) component.dependencies.add(packageComponents.get(t)!.bomRef);
  }

  const serviceComponents: Models.Component[] = [];
  for (const service of services) {
    const svc = perService.get(service.id)!;
    const properties = [new Models.Property(SBOM_PROPERTY.serviceId, String(service.id))];
    if (service.sourceType) properties.push(new Models.Property(SBOM_PROPERTY.serviceSourceType, service.sourceType));
    for (const root of input.codeRoots) {
      if (root.serviceId === service.id && (selectedRoots === null || selectedRoots.has(root.id))) {
        properties.push(new Models.Property(SBOM_PROPERTY.coderoot, root.id));
      }
    }
    const component = new Models.Component(Enums.ComponentType.Application, service.name, {
      bomRef: serviceRef(service.id),
      properties: new Models.PropertyRepository(properties.sort(byName)),
    });
    // A service depends on its direct packages, plus any of its packages nothing else in it depends
    // on (deployment scans rarely know "direct"): every package stays reachable from a service.
    const depended = new Set<string>();
    for (const t of svc.targets) {
      const resolved = resolve(t);
      if (resolved !== undefined) depended.add(resolved);
    }
    const roots = [...svc.packages].filter((purl) => svc.direct.has(purl) || !depended.has(purl)).sort(byString);
    for (const purl of roots) component.dependencies.add(packageComponents.get(purl)!.bomRef);
    appComponent.dependencies.add(component.bomRef);
    serviceComponents.push(component);
  }

  // --- metadata -------------------------------------------------------------------------------
  // Source observations (manifests, lock files) are pre-build data; deployment observations are
  // operations data. An environment selection is about operations even when nothing was seen there.
  const lifecycles = new Models.LifecycleRepository();
  if (seenInSource) lifecycles.add(Enums.LifecyclePhase.PreBuild);
  if (seenDeployed || selection.environment !== null) lifecycles.add(Enums.LifecyclePhase.Operations);

  const selectionProperties = [
    new Models.Property(SBOM_PROPERTY.selectionEnvironment, selection.environment ?? SELECTION_ALL),
    new Models.Property(SBOM_PROPERTY.selectionNarrowed, String(narrowed)),
    ...(selectedRoots === null ? [SELECTION_ALL] : [...selectedRoots]).map((id) => new Models.Property(SBOM_PROPERTY.selectionCoderoot, id)),
  ];
  if (skippedInvalid > 0) selectionProperties.push(new Models.Property(SBOM_PROPERTY.skippedObservations, String(skippedInvalid)));

  const bom = new ApplicationBom({
    version: 1,
    serialNumber: input.serialNumber,
    metadata: new Models.Metadata({
      timestamp: input.timestamp,
      lifecycles,
      tools: new Models.Tools({
        components: new Models.ComponentRepository([
          new Models.Component(Enums.ComponentType.Application, input.tool.name, {
            version: input.tool.version,
            publisher: input.tool.vendor,
          }),
        ]),
      }),
      component: appComponent,
      properties: new Models.PropertyRepository(selectionProperties.sort(byName)),
    }),
    components: new Models.ComponentRepository([...serviceComponents, ...packageComponents.values()]),
  });

  // Complete with respect to the inventory when nothing was narrowed and nothing was dropped;
  // incomplete when the caller chose a subset (or an observation's purl was unusable).
  const described = [appComponent.bomRef.toString(), ...serviceComponents.map((c) => c.bomRef.toString())];
  bom.compositions = [
    {
      aggregate: narrowed || skippedInvalid > 0 ? 'incomplete' : 'complete',
      assemblies: described,
      dependencies: described,
    },
  ];
  return bom;
}

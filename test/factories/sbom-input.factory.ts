import type { ApplicationBomInput, SbomPackageObservation, SbomSelection } from '../../src/sbom/application-bom.types';

/** One observation with sensible defaults; override what the test is about. */
export function observation(overrides: Partial<SbomPackageObservation> & Pick<SbomPackageObservation, 'purl'>): SbomPackageObservation {
  return {
    serviceId: 1,
    coderootId: null,
    environment: null,
    name: overrides.purl.replace(/^pkg:[^/]+\/(?:.*\/)?([^@?#/]+).*$/, '$1'),
    group: null,
    version: null,
    type: 'npm',
    scope: 'required',
    direct: true,
    hashes: [],
    licenses: [],
    dependsOn: [],
    ...overrides,
  };
}

export const ALL_SELECTION: SbomSelection = { environment: null, coderoots: null };

/** A small application: services 1 and 2, code roots on each; observations supplied by the test. */
export function bomInput(overrides: Partial<ApplicationBomInput> = {}): ApplicationBomInput {
  return {
    application: { id: 7, name: 'Payments', description: 'Card payments', tier: 'TIER_2', businessImpact: 'HIGH', applicationType: 'static' },
    services: [
      { id: 1, name: 'payments-api', sourceType: 'github' },
      { id: 2, name: 'payments-worker', sourceType: null },
    ],
    codeRoots: [
      { id: 'acme/payments:api', serviceId: 1 },
      { id: 'acme/payments:worker', serviceId: 2 },
    ],
    observations: [],
    selection: ALL_SELECTION,
    tool: { vendor: 'Bulwark', name: 'bulwark', version: '0.1.0' },
    timestamp: new Date('2025-01-02T03:04:05.000Z'),
    serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
    ...overrides,
  };
}

const ENVIRONMENTS = ['production', 'staging', 'development'] as const;
const LICENSES = ['MIT', 'Apache-2.0', 'BSD-3-Clause', 'ISC', 'MIT OR Apache-2.0', 'Some Proprietary License'];

/**
 * A large, deterministic application: `services` services with 2 code roots each, `packages`
 * distinct npm packages. Each service uses a window of packages (neighbouring services overlap),
 * seen in source and deployed to production plus one other environment, with transitive edges.
 */
export function largeBomInput(services = 50, packages = 10_000, perService = 400): ApplicationBomInput {
  const observations: SbomPackageObservation[] = [];
  const stride = Math.ceil(packages / services);
  const purlOf = (i: number) => `pkg:npm/%40scope${i % 97}/package-${i}@${1 + (i % 7)}.${i % 13}.${i % 5}`;
  for (let s = 1; s <= services; s++) {
    const root = `acme/repo-${s}:src`;
    for (let k = 0; k < perService; k++) {
      const i = ((s - 1) * stride + k) % packages;
      const base = {
        purl: purlOf(i),
        name: `package-${i}`,
        group: `@scope${i % 97}`,
        version: `${1 + (i % 7)}.${i % 13}.${i % 5}`,
        type: 'npm',
        scope: k % 10 === 0 ? 'optional' : 'required',
        direct: k % 8 === 0,
        hashes: [{ alg: 'SHA-256', content: (i.toString(16).padStart(8, '0') + 'ab').repeat(64).slice(0, 64) }],
        licenses: [LICENSES[i % LICENSES.length]],
        dependsOn: [purlOf((i + 1) % packages), purlOf((i + 17) % packages)],
      };
      observations.push({ ...base, serviceId: s, coderootId: root, environment: null });
      observations.push({ ...base, serviceId: s, coderootId: root, environment: 'production' });
      if (k % 2 === 0) observations.push({ ...base, serviceId: s, coderootId: root, environment: ENVIRONMENTS[1 + (s % 2)] });
    }
  }
  return bomInput({
    services: Array.from({ length: services }, (_, n) => ({ id: n + 1, name: `service-${n + 1}`, sourceType: 'github' })),
    codeRoots: Array.from({ length: services }, (_, n) => [
      { id: `acme/repo-${n + 1}:src`, serviceId: n + 1 },
      { id: `acme/repo-${n + 1}:tools`, serviceId: n + 1 },
    ]).flat(),
    observations,
  });
}

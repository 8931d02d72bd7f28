import { ALL_SELECTION, bomInput, largeBomInput, observation } from '../../test/factories/sbom-input.factory';
import { buildApplicationBom } from './application-bom.builder';
import { serializeApplicationBom, validateCycloneDx16Json } from './application-bom.serializer';
import type { ApplicationBomInput } from './application-bom.types';

interface Json {
  [key: string]: any;
}

/** Build, serialize, and insist the document passes the strict CycloneDX 1.6 schema. */
async function generate(input: ApplicationBomInput): Promise<Json> {
  const text = serializeApplicationBom(buildApplicationBom(input));
  const errors = await validateCycloneDx16Json(text);
  expect(errors).toBeNull();
  return JSON.parse(text) as Json;
}

const component = (doc: Json, ref: string): Json | undefined => doc.components.find((c: Json) => c['bom-ref'] === ref);
const packages = (doc: Json): Json[] => doc.components.filter((c: Json) => typeof c.purl === 'string');
const props = (c: Json, name: string): string[] => (c.properties ?? []).filter((p: Json) => p.name === name).map((p: Json) => p.value);
const dependsOn = (doc: Json, ref: string): string[] | undefined => {
  const entry = doc.dependencies.find((d: Json) => d.ref === ref);
  return entry === undefined ? undefined : (entry.dependsOn ?? []);
};

describe('buildApplicationBom', () => {
  it('produces a valid CycloneDX 1.6 document with metadata, tool, application and services', async () => {
    const doc = await generate(bomInput({ observations: [observation({ purl: 'pkg:npm/lodash@4.17.21', licenses: ['MIT'] })] }));
    expect(doc).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1, serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79' });
    expect(doc.metadata.timestamp).toBe('2025-01-02T03:04:05.000Z');
    expect(doc.metadata.lifecycles).toEqual([{ phase: 'pre-build' }]);
    expect(doc.metadata.tools).toEqual({ components: [{ type: 'application', name: 'bulwark', version: '0.1.0', publisher: 'Bulwark' }] });
    const app = doc.metadata.component;
    expect(app).toMatchObject({ type: 'application', name: 'Payments', 'bom-ref': 'application:7', description: 'Card payments' });
    expect(props(app, 'bulwark:application:tier')).toEqual(['TIER_2']);
    expect(props(app, 'bulwark:application:business_impact')).toEqual(['HIGH']);
    expect(props(app, 'bulwark:application:type')).toEqual(['static']);
    expect(doc.metadata.properties).toEqual([
      { name: 'bulwark:selection:coderoot', value: 'all' },
      { name: 'bulwark:selection:environment', value: 'all' },
      { name: 'bulwark:selection:narrowed', value: 'false' },
    ]);
    const services = doc.components.filter((c: Json) => c['bom-ref'].startsWith('service:'));
    expect(services.map((s: Json) => [s.type, s.name, s['bom-ref']])).toEqual([
      ['application', 'payments-api', 'service:1'],
      ['application', 'payments-worker', 'service:2'],
    ]);
    expect(props(services[0], 'bulwark:coderoot')).toEqual(['acme/payments:api']);
    expect(props(services[0], 'bulwark:service:source_type')).toEqual(['github']);
    expect(dependsOn(doc, 'application:7')).toEqual(['service:1', 'service:2']);
    expect(doc.compositions).toEqual([
      { aggregate: 'complete', assemblies: ['application:7', 'service:1', 'service:2'], dependencies: ['application:7', 'service:1', 'service:2'] },
    ]);
  });

  it('the validator rejects a broken document (the check can fail)', async () => {
    const doc = await generate(bomInput({ observations: [observation({ purl: 'pkg:npm/lodash@4.17.21' })] }));
    const broken = structuredClone(doc);
    delete broken.components[0].type;
    expect(await validateCycloneDx16Json(JSON.stringify(broken))).not.toBeNull();
    const badScope = structuredClone(doc);
    badScope.components.find((c: Json) => c.purl).scope = 'sometimes';
    expect(await validateCycloneDx16Json(JSON.stringify(badScope))).not.toBeNull();
    const badComposition = structuredClone(doc);
    badComposition.compositions[0].aggregate = 'mostly';
    expect(await validateCycloneDx16Json(JSON.stringify(badComposition))).not.toBeNull();
  });

  it('deduplicates packages by canonical purl across services and spellings (bom-ref = purl)', async () => {
    const doc = await generate(
      bomInput({
        observations: [
          observation({ serviceId: 1, purl: 'pkg:npm/@angular/core@17.0.0', name: 'core', group: '@angular' }),
          observation({ serviceId: 2, purl: 'pkg:NPM/%40Angular/Core@17.0.0', name: 'core', group: '@angular' }),
          observation({ serviceId: 2, purl: 'pkg:pypi/Django_Rest@3.1?b=2&a=1', name: 'Django_Rest' }),
          observation({ serviceId: 1, purl: 'pkg:npm/left-pad', version: '1.3.0' }),
        ],
      }),
    );
    expect(packages(doc).map((c) => c['bom-ref'])).toEqual(['pkg:npm/%40angular/core@17.0.0', 'pkg:npm/left-pad@1.3.0', 'pkg:pypi/django-rest@3.1?a=1&b=2']);
    for (const c of packages(doc)) expect(c.purl).toBe(c['bom-ref']);
    const core = component(doc, 'pkg:npm/%40angular/core@17.0.0')!;
    expect(core).toMatchObject({ type: 'library', name: 'core', group: '@angular', version: '17.0.0' });
    expect(props(core, 'bulwark:service_id')).toEqual(['1', '2']);
    expect(dependsOn(doc, 'service:1')).toContain('pkg:npm/%40angular/core@17.0.0');
    expect(dependsOn(doc, 'service:2')).toContain('pkg:npm/%40angular/core@17.0.0');
    expect(component(doc, 'pkg:npm/left-pad@1.3.0')!.version).toBe('1.3.0');
  });

  it('merges scope: required > unknown (absent) > optional > excluded', async () => {
    const obs = (purl: string, scope: string | null, serviceId = 1) => observation({ purl, scope, serviceId });
    const doc = await generate(
      bomInput({
        observations: [
          obs('pkg:npm/a@1', 'optional'),
          obs('pkg:npm/a@1', 'required', 2),
          obs('pkg:npm/b@1', 'excluded'),
          obs('pkg:npm/b@1', 'optional', 2),
          obs('pkg:npm/c@1', 'excluded'),
          obs('pkg:npm/c@1', 'excluded', 2),
          obs('pkg:npm/d@1', 'optional'),
          obs('pkg:npm/d@1', null, 2),
        ],
      }),
    );
    expect(component(doc, 'pkg:npm/a@1')!.scope).toBe('required');
    expect(component(doc, 'pkg:npm/b@1')!.scope).toBe('optional');
    expect(component(doc, 'pkg:npm/c@1')!.scope).toBe('excluded');
    expect(component(doc, 'pkg:npm/d@1')!.scope).toBeUndefined();
  });

  it('normalizes hashes, drops invalid ones and algorithms whose digests disagree', async () => {
    const hex = 'ab'.repeat(32);
    const doc = await generate(
      bomInput({
        observations: [
          observation({
            purl: 'pkg:npm/a@1',
            hashes: [
              { alg: 'sha256', content: hex.toUpperCase() },
              { alg: 'sha512', content: Buffer.alloc(64, 1).toString('base64') },
              { alg: 'md5', content: 'nothex' },
              { alg: 'crc32', content: 'deadbeef' },
              { alg: 'SHA-1', content: '11'.repeat(20) },
            ],
          }),
          observation({
            serviceId: 2,
            purl: 'pkg:npm/a@1',
            hashes: [
              { alg: 'SHA-256', content: hex },
              { alg: 'sha1', content: '22'.repeat(20) },
            ],
          }),
        ],
      }),
    );
    expect(component(doc, 'pkg:npm/a@1')!.hashes).toEqual([
      { alg: 'SHA-256', content: hex },
      { alg: 'SHA-512', content: '01'.repeat(64) },
    ]);
  });

  it('emits licenses as SPDX ids, one SPDX expression, or names', async () => {
    const doc = await generate(
      bomInput({
        observations: [
          observation({ purl: 'pkg:npm/a@1', licenses: ['mit', 'Apache-2.0'] }),
          observation({ purl: 'pkg:npm/b@1', licenses: ['mit or (apache-2.0 AND BSD-3-Clause)'] }),
          observation({ purl: 'pkg:npm/c@1', licenses: ['Acme Commercial License', ' '] }),
          observation({ purl: 'pkg:npm/d@1', licenses: ['GPL-2.0-only WITH Classpath-exception-2.0'] }),
          observation({ purl: 'pkg:npm/e@1', licenses: ['MIT'] }),
          observation({ serviceId: 2, purl: 'pkg:npm/e@1', licenses: ['MIT OR Apache-2.0'] }),
        ],
      }),
    );
    expect(component(doc, 'pkg:npm/a@1')!.licenses).toEqual([{ license: { id: 'Apache-2.0' } }, { license: { id: 'MIT' } }]);
    expect(component(doc, 'pkg:npm/b@1')!.licenses).toEqual([{ expression: 'MIT OR (Apache-2.0 AND BSD-3-Clause)' }]);
    expect(component(doc, 'pkg:npm/c@1')!.licenses).toEqual([{ license: { name: 'Acme Commercial License' } }]);
    expect(component(doc, 'pkg:npm/d@1')!.licenses).toEqual([{ expression: 'GPL-2.0-only WITH Classpath-exception-2.0' }]);
    // An expression cannot share the list with other licenses in 1.6: it is kept verbatim as a name.
    expect(component(doc, 'pkg:npm/e@1')!.licenses).toEqual([{ license: { id: 'MIT' } }, { license: { name: 'MIT OR Apache-2.0' } }]);
  });

  it('lists dependencies for every bom-ref, restricted to included refs, resolving versionless targets', async () => {
    const doc = await generate(
      bomInput({
        selection: { environment: 'production', coderoots: null },
        observations: [
          observation({ purl: 'pkg:npm/app-lib@1', environment: 'production', dependsOn: ['pkg:npm/util', 'pkg:npm/dev-only@2', 'not a purl'] }),
          observation({ purl: 'pkg:npm/util@3', environment: 'production', direct: false, dependsOn: ['pkg:npm/util@3'] }),
          observation({ purl: 'pkg:npm/dev-only@2', environment: null, direct: false }),
          observation({ purl: 'pkg:npm/orphan@1', environment: 'production', direct: false }),
        ],
      }),
    );
    const refs = [doc.metadata.component['bom-ref'], ...doc.components.map((c: Json) => c['bom-ref'])].sort();
    expect(doc.dependencies.map((d: Json) => d.ref).sort()).toEqual(refs);
    expect(component(doc, 'pkg:npm/dev-only@2')).toBeUndefined();
    expect(dependsOn(doc, 'pkg:npm/app-lib@1')).toEqual(['pkg:npm/util@3']);
    expect(dependsOn(doc, 'pkg:npm/util@3')).toEqual([]);
    // direct package, plus the package nothing else in the service depends on; not the transitive one
    expect(dependsOn(doc, 'service:1')).toEqual(['pkg:npm/app-lib@1', 'pkg:npm/orphan@1']);
    expect(dependsOn(doc, 'service:2')).toEqual([]);
    const all = doc.dependencies.flatMap((d: Json) => d.dependsOn ?? []);
    for (const ref of all) expect(refs).toContain(ref);
  });

  it('filters by environment: only packages seen deployed there; lifecycles and compositions follow', async () => {
    const observations = [
      observation({ purl: 'pkg:npm/in-prod@1', environment: 'production' }),
      observation({ purl: 'pkg:npm/in-staging@1', environment: 'staging' }),
      observation({ purl: 'pkg:npm/source-only@1', environment: null }),
    ];
    const prod = await generate(bomInput({ observations, selection: { environment: 'production', coderoots: null } }));
    expect(packages(prod).map((c) => c.purl)).toEqual(['pkg:npm/in-prod@1']);
    expect(props(component(prod, 'pkg:npm/in-prod@1')!, 'bulwark:environment')).toEqual(['production']);
    expect(prod.metadata.lifecycles).toEqual([{ phase: 'operations' }]);
    expect(prod.compositions[0].aggregate).toBe('incomplete');
    expect(props(prod.metadata, 'bulwark:selection:environment')).toEqual(['production']);
    expect(props(prod.metadata, 'bulwark:selection:narrowed')).toEqual(['true']);

    const all = await generate(bomInput({ observations }));
    expect(packages(all).map((c) => c.purl)).toEqual(['pkg:npm/in-prod@1', 'pkg:npm/in-staging@1', 'pkg:npm/source-only@1']);
    expect(all.metadata.lifecycles).toEqual([{ phase: 'pre-build' }, { phase: 'operations' }]);
    expect(all.compositions[0].aggregate).toBe('complete');
  });

  it('filters by code roots: only their observations, and only those roots on the services', async () => {
    const doc = await generate(
      bomInput({
        codeRoots: [
          { id: 'acme/payments:api', serviceId: 1 },
          { id: 'acme/payments:cli', serviceId: 1 },
          { id: 'acme/payments:worker', serviceId: 2 },
        ],
        selection: { environment: null, coderoots: ['acme/payments:worker'] },
        observations: [
          observation({ serviceId: 1, purl: 'pkg:npm/api-dep@1', coderootId: 'acme/payments:api' }),
          observation({ serviceId: 2, purl: 'pkg:npm/worker-dep@1', coderootId: 'acme/payments:worker' }),
          observation({ serviceId: 2, purl: 'pkg:oci/worker-image@sha256%3Aabc', coderootId: null, environment: 'production' }),
        ],
      }),
    );
    expect(packages(doc).map((c) => c.purl)).toEqual(['pkg:npm/worker-dep@1']);
    expect(props(component(doc, 'service:1')!, 'bulwark:coderoot')).toEqual([]);
    expect(props(component(doc, 'service:2')!, 'bulwark:coderoot')).toEqual(['acme/payments:worker']);
    expect(props(doc.metadata, 'bulwark:selection:coderoot')).toEqual(['acme/payments:worker']);
    expect(doc.compositions[0].aggregate).toBe('incomplete');
  });

  it('ignores observations of services that are not members, and counts unusable purls as incomplete', async () => {
    const doc = await generate(
      bomInput({
        observations: [
          observation({ serviceId: 99, purl: 'pkg:npm/foreign@1' }),
          observation({ purl: 'not-a-purl' }),
          observation({ purl: 'pkg:docker/library/nginx@1.25' }),
        ],
      }),
    );
    expect(packages(doc).map((c) => [c.type, c.purl])).toEqual([['container', 'pkg:docker/library/nginx@1.25']]);
    expect(props(doc.metadata, 'bulwark:skipped_invalid_purls')).toEqual(['1']);
    expect(doc.compositions[0].aggregate).toBe('incomplete');
  });

  it('nothing selected: a valid document with the services and no package components', async () => {
    const doc = await generate(
      bomInput({ observations: [observation({ purl: 'pkg:npm/a@1', environment: 'production' })], selection: { environment: 'sandbox', coderoots: null } }),
    );
    expect(packages(doc)).toEqual([]);
    expect(doc.components.map((c: Json) => c['bom-ref'])).toEqual(['service:1', 'service:2']);
    expect(dependsOn(doc, 'service:1')).toEqual([]);
    const noServices = await generate(bomInput({ services: [], codeRoots: [], selection: ALL_SELECTION }));
    expect(noServices.components).toEqual([]);
    expect(noServices.metadata.lifecycles).toBeUndefined();
  });

  it('is deterministic: row order does not change a byte', () => {
    const input = largeBomInput(6, 300, 80);
    const shuffled = { ...input, observations: [...input.observations].reverse(), services: [...input.services].reverse() };
    expect(serializeApplicationBom(buildApplicationBom(shuffled))).toBe(serializeApplicationBom(buildApplicationBom(input)));
  });

  it("takes the smallest observed group and name in any row order; the purl's own only when none was observed", () => {
    const rows = [
      observation({ purl: 'pkg:npm/%40acme/util@1.0.0', group: null, name: 'util' }),
      observation({ purl: 'pkg:npm/%40acme/util@1.0.0', group: '@zeta', name: 'util', serviceId: 2 }),
      observation({ purl: 'pkg:npm/left-pad@1.3.0', group: null, name: '' }),
    ];
    for (const order of [rows, [...rows].reverse()]) {
      const doc = JSON.parse(serializeApplicationBom(buildApplicationBom(bomInput({ observations: order })))) as Json;
      expect(component(doc, 'pkg:npm/%40acme/util@1.0.0')).toMatchObject({ group: '@zeta', name: 'util' });
      expect(component(doc, 'pkg:npm/left-pad@1.3.0')).toMatchObject({ name: 'left-pad' });
      expect(component(doc, 'pkg:npm/left-pad@1.3.0')!.group).toBeUndefined();
    }
  });

  it('a larger application (10 services, 500 packages) validates', async () => {
    const doc = await generate(largeBomInput(10, 500, 80));
    expect(packages(doc).length).toBe(500);
    expect(new Set(doc.components.map((c: Json) => c['bom-ref'])).size).toBe(doc.components.length);
  });
});

import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { bomInput, largeBomInput, observation } from '../../test/factories/sbom-input.factory';
import { buildApplicationBom } from './application-bom.builder';
import { serializeApplicationBom } from './application-bom.serializer';
import { validateCycloneDx16JsonText } from './cyclonedx-validator';

interface Json {
  [key: string]: any;
}

/** The library's own strict validator: the reference (quadratic uniqueItems, fine on small documents). */
const reference = new Validation.JsonStrictValidator(Spec.Version.v1dot6);

const sample = (): Json =>
  JSON.parse(
    serializeApplicationBom(
      buildApplicationBom(
        bomInput({
          observations: [
            observation({ purl: 'pkg:npm/a@1', licenses: ['MIT', 'Apache-2.0'], dependsOn: ['pkg:npm/b@1'] }),
            observation({ purl: 'pkg:npm/b@1', serviceId: 2, direct: false, environment: 'production' }),
          ],
        }),
      ),
    ),
  ) as Json;

const variants: [string, boolean, (doc: Json) => void][] = [
  ['unchanged', true, () => undefined],
  ['duplicate component', false, (d) => d.components.push(structuredClone(d.components.at(-1)))],
  [
    'duplicate component, keys in another order',
    false,
    (d) => d.components.push(Object.fromEntries(Object.entries(structuredClone(d.components.at(-1)) as Json).reverse())),
  ],
  ['near-duplicate component (one property differs)', true, (d) => d.components.push({ ...structuredClone(d.components.at(-1)), name: 'other' })],
  [
    'duplicate license entry (the schema allows it)',
    true,
    (d) => d.components.find((c: Json) => c.purl === 'pkg:npm/a@1').licenses.push({ license: { id: 'MIT' } }),
  ],
  ['duplicate dependsOn entry', false, (d) => d.dependencies.find((x: Json) => x.ref === 'service:1').dependsOn.push('pkg:npm/a@1')],
  ['duplicate lifecycle (the schema allows it)', true, (d) => d.metadata.lifecycles.push({ phase: 'pre-build' })],
  ['similar but different properties are not duplicates', true, (d) => d.components[0].properties.push({ name: 'x', value: '1' }, { name: 'x', value: '01' })],
  ['component without type', false, (d) => delete d.components[0].type],
  ['bad scope', false, (d) => (d.components.find((c: Json) => c.purl).scope = 'sometimes')],
  ['bad composition aggregate', false, (d) => (d.compositions[0].aggregate = 'mostly')],
];

describe('validateCycloneDx16JsonText (library schema, linear uniqueItems)', () => {
  it.each(variants)('agrees with the library validator: %s', async (_name, valid, change) => {
    const doc = sample();
    change(doc);
    const text = JSON.stringify(doc);
    const expected = await reference.validate(text);
    const actual = validateCycloneDx16JsonText(text);
    expect(expected === null).toBe(valid);
    expect(actual === null).toBe(valid);
  });

  it('rejects duplicates with a uniqueItems error', () => {
    const doc = sample();
    doc.components.push(structuredClone(doc.components[0]));
    expect(validateCycloneDx16JsonText(JSON.stringify(doc))).toEqual([expect.objectContaining({ keyword: 'uniqueItems', instancePath: '/components' })]);
  });

  it('validates 50 services x 10,000 packages in seconds, not minutes', () => {
    const text = serializeApplicationBom(buildApplicationBom(largeBomInput(50, 10_000, 400)));
    const start = performance.now();
    expect(validateCycloneDx16JsonText(text)).toBeNull();
    expect(performance.now() - start).toBeLessThan(10_000);
  });
});

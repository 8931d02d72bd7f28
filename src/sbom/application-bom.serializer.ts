import { type Models, Serialize, Spec, type Validation } from '@cyclonedx/cyclonedx-library';
import { ApplicationBom, type SbomComposition } from './application-bom.builder';
import { validateCycloneDx16JsonText } from './cyclonedx-validator';

type NormalizedBom = Serialize.JSON.Types.Normalized.Bom & { compositions?: SbomComposition[] };

/**
 * The library's JSON serializer (normalization, bom-ref discrimination, JSON.stringify), extended
 * only by the `compositions` array the library's models do not cover. Nothing here writes JSON by hand.
 */
class ApplicationBomJsonSerializer extends Serialize.JsonSerializer {
  protected override _normalize(bom: Models.Bom, options?: Serialize.Types.NormalizerOptions): NormalizedBom {
    const normalized: NormalizedBom = super._normalize(bom, options);
    if (bom instanceof ApplicationBom && bom.compositions.length > 0) {
      normalized.compositions = bom.compositions.map((c) => ({
        aggregate: c.aggregate,
        assemblies: [...c.assemblies],
        dependencies: [...c.dependencies],
      }));
    }
    return normalized;
  }
}

const serializer = new ApplicationBomJsonSerializer(new Serialize.JSON.Normalize.Factory(Spec.Spec1dot6));

/**
 * CycloneDX 1.6 JSON text of a BOM. Lists keep insertion order: the builder inserts everything in
 * code-unit order, which is deterministic across machines (the library's `sortLists` uses
 * localeCompare, which depends on the locale and costs ~40% of the serialization time at 10k packages).
 */
export function serializeApplicationBom(bom: Models.Bom, space?: number): string {
  return serializer.serialize(bom, { sortLists: false, space });
}

/**
 * Validates JSON text against the official CycloneDX 1.6 JSON schema shipped in the library (strict
 * variant, offline): the library's validator setup with a linear uniqueItems check
 * (./cyclonedx-validator.ts). Resolves to null when valid, otherwise to the error list.
 * The compiled schema is cached: the first call pays for the compilation.
 */
export async function validateCycloneDx16Json(json: string): Promise<null | Validation.Types.ValidationError> {
  return Promise.resolve(validateCycloneDx16JsonText(json));
}

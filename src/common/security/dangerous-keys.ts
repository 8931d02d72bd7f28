/** Keys that reach an object's prototype machinery when copied by reflection-based mappers. */
export const DANGEROUS_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A deep copy of parsed JSON without `__proto__`, `constructor` and `prototype` keys, at any
 * depth. class-transformer throws a TypeError (a 500) on `{"prototype": {"constructor": {}}}` and
 * would copy `__proto__` onto DTO instances; no DTO field has these names, and unknown fields are
 * ignored anyway, so dropping them changes nothing a legitimate client sends (docs/security.md).
 * Depth is bounded by the JSON body limit; recursion depth by MAX_DEPTH (deeper → left as null).
 */
const MAX_DEPTH = 64;

export function withoutDangerousKeys(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return null;
  if (Array.isArray(value)) return value.map((v) => withoutDangerousKeys(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (DANGEROUS_KEYS.has(key)) continue;
    out[key] = withoutDangerousKeys((value as Record<string, unknown>)[key], depth + 1);
  }
  return out;
}

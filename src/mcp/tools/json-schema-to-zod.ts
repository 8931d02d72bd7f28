import { z } from 'zod';

/**
 * The scanner documents its report as an OpenAPI 3.0 schema (`nullable: true`); MCP wants a zod
 * schema (the SDK validates structuredContent with it and publishes it as JSON Schema in
 * tools/list). Converting the one document keeps REST and MCP describing the same report.
 */
export function openApiToJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openApiToJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const src = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(src)) {
    if (key === 'nullable') continue;
    // `properties` maps names to schemas: convert each value, never treat a name as a keyword.
    out[key] =
      key === 'properties' && value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, openApiToJsonSchema(v)]))
        : openApiToJsonSchema(value);
  }
  if (src.nullable !== true) return out;
  if (Array.isArray(out.enum)) out.enum = out.enum.filter((v) => v !== null);
  return { anyOf: [out, { type: 'null' }] };
}

export function zodFromOpenApi(schema: unknown): z.ZodType {
  return z.fromJSONSchema(openApiToJsonSchema(schema) as Parameters<typeof z.fromJSONSchema>[0]);
}

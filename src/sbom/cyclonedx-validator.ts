import { readFileSync } from 'node:fs';
import * as CycloneDx from '@cyclonedx/cyclonedx-library';
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import addFormatsDraft2019 from 'ajv-formats-draft2019';

/**
 * The CycloneDX library's strict JSON validator (Validation.JsonStrictValidator: the official schema
 * files it ships, compiled by ajv with the same options, formats and referenced schemas), with one
 * change: `uniqueItems` is checked with a hash set instead of ajv's pairwise deep comparison, which
 * is quadratic (24 s for 10,050 components). Same meaning: two items are duplicates when they are
 * deep-equal JSON (object key order does not matter). A test-time check; not on the request path.
 */
const UNIQUE_KEYWORD = 'bulwarkUniqueItems';

/** JSON text with object keys sorted: equal for exactly the deep-equal JSON values. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`)
    .join(',')}}`;
}

function uniqueItems(schema: boolean, data: unknown[]): boolean {
  uniqueItems.errors = undefined;
  if (!schema || !Array.isArray(data)) return true;
  const seen = new Map<string, number>();
  for (let j = 0; j < data.length; j++) {
    const key = canonicalJson(data[j]);
    const i = seen.get(key);
    if (i !== undefined) {
      uniqueItems.errors = [
        { keyword: 'uniqueItems', params: { i: j, j: i }, message: `must NOT have duplicate items (items ## ${i} and ${j} are identical)` },
      ];
      return false;
    }
    seen.set(key, j);
  }
  return true;
}
/** ajv reads a validating keyword's errors from the function itself. */
uniqueItems.errors = undefined as Partial<ErrorObject>[] | undefined;

/** A copy of a schema with every `"uniqueItems": true` keyword renamed to the hash-set keyword. */
function withFastUniqueItems(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withFastUniqueItems);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'uniqueItems' && typeof value === 'boolean') out[UNIQUE_KEYWORD] = value;
    else out[key] = withFastUniqueItems(value);
  }
  return out;
}

const readSchema = (path: string): unknown => withFastUniqueItems(JSON.parse(readFileSync(path, 'utf-8')));

interface SchemaFiles {
  CDX: { JSON_STRICT_SCHEMA: Record<string, string> };
  SPDX: { JSON_SCHEMA: string };
  CryptoDefs: { JSON_SCHEMA: string };
  JSF: { JSON_SCHEMA: string };
}

let compiled: (((data: unknown) => boolean) & { errors?: ErrorObject[] | null }) | undefined;

function compile(): NonNullable<typeof compiled> {
  // The library's own map of its schema files (exported at run time, not in its type declarations).
  const files = (CycloneDx as unknown as { _Resources: { FILES: SchemaFiles } })._Resources.FILES;
  const ajv = new Ajv({
    useDefaults: false,
    strict: false,
    strictSchema: false,
    addUsedSchema: false,
    loadSchema: (uri: string) => {
      throw new Error(`Remote schemas are disabled: ${uri}`);
    },
    schemas: {
      'http://cyclonedx.org/schema/spdx.SNAPSHOT.schema.json': readSchema(files.SPDX.JSON_SCHEMA) as object,
      'http://cyclonedx.org/schema/cryptography-defs.SNAPSHOT.schema.json': readSchema(files.CryptoDefs.JSON_SCHEMA) as object,
      'http://cyclonedx.org/schema/jsf-0.82.SNAPSHOT.schema.json': readSchema(files.JSF.JSON_SCHEMA) as object,
    },
  });
  addFormats(ajv);
  addFormatsDraft2019(ajv, { formats: ['idn-email'] });
  ajv.addFormat('iri-reference', true);
  ajv.addKeyword({ keyword: UNIQUE_KEYWORD, type: 'array', schemaType: 'boolean', errors: true, validate: uniqueItems });
  return ajv.compile(readSchema(files.CDX.JSON_STRICT_SCHEMA[CycloneDx.Spec.Version.v1dot6]) as object);
}

/**
 * Validates JSON text against the official CycloneDX 1.6 JSON schema shipped in the library (strict
 * variant, offline). null when valid, otherwise ajv's error list. Compiled once per process.
 */
export function validateCycloneDx16JsonText(json: string): null | ErrorObject[] {
  compiled ??= compile();
  return compiled(JSON.parse(json)) ? null : (compiled.errors ?? []);
}

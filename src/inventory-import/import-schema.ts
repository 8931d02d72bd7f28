import { MAX_RATE_LIMIT_PER_MINUTE } from '../auth/tenants.service';
import { APPLICATION_TYPES, BUSINESS_IMPACTS, OWNER_TYPES, TIERS } from '../applications/application-enums';
import { ENVIRONMENTS, RESOURCE_CATEGORIES, RISK_LEVELS } from '../inventory/inventory-enums';
import { MAX_INT4 } from '../common/int4';

/**
 * JSON Schema (draft-07) of the admin import document, `POST /api/internal/inventory/import`.
 * The single source: the import validates with it, and docs/import-schema.json is a copy checked
 * by a test (regenerate with `npx ts-node --transpile-only scripts/write-import-schema.ts`).
 */
const id = { type: 'integer', minimum: 0, maximum: MAX_INT4 };
const count = { type: 'integer', minimum: 0, maximum: MAX_INT4 };
const str = (max: number, min = 0) => ({ type: 'string', minLength: min, maxLength: max });
const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });
const perMinute = { type: 'integer', minimum: 1, maximum: MAX_RATE_LIMIT_PER_MINUTE };
const owner = { type: 'object', required: ['login', 'name'], properties: { login: str(255, 1), name: str(255) } };
const integration = {
  type: 'object',
  required: ['enabled'],
  properties: {
    enabled: { type: 'boolean' },
    orgs: { type: 'array', maxItems: 1000, items: str(255, 1), default: [] },
    accounts: { type: 'array', maxItems: 1000, items: str(255, 1), default: [] },
  },
};

export const IMPORT_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://bulwark.local/schemas/inventory-import.json',
  title: 'Bulwark inventory import document',
  description:
    'Every section is optional. mode "merge" upserts by natural key; mode "replace" also deletes, for each section present, the rows of that section not in the document. All or nothing: one transaction.',
  type: 'object',
  properties: {
    mode: { enum: ['merge', 'replace'], default: 'merge' },
    services: {
      type: 'array',
      maxItems: 100000,
      description: 'Natural key: id (chosen by the source, unique within the tenant).',
      items: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id, name: str(255, 1), source_type: nullable(str(64)), source_id: { ...id, default: 0 }, meta: nullable({ type: 'object' }) },
      },
    },
    code_roots: {
      type: 'array',
      maxItems: 100000,
      description: 'Natural key: id, written owner/repo:path.',
      items: {
        type: 'object',
        required: ['id', 'service_id'],
        properties: {
          id: { type: 'string', maxLength: 512, pattern: '^[^/:\\s]+/[^:\\s]+:[^\\s]*$' },
          service_id: id,
          repository: str(255, 1),
          path: str(255),
          default_branch: nullable(str(255)),
        },
      },
    },
    resources: {
      type: 'array',
      maxItems: 200000,
      description: 'Natural key: platform_id. service_ids replaces the services using the resource.',
      items: {
        type: 'object',
        required: ['platform_id', 'resource_type'],
        properties: {
          platform_id: str(512, 1),
          resource_type: str(128, 1),
          source_type: nullable(str(64)),
          category: nullable({ enum: [...RESOURCE_CATEGORIES] }),
          name: nullable(str(255)),
          provider: nullable(str(32)),
          region: nullable(str(64)),
          environment: nullable({ enum: [...ENVIRONMENTS] }),
          service_ids: { type: 'array', maxItems: 10000, items: id, default: [] },
        },
      },
    },
    relations: {
      type: 'array',
      maxItems: 200000,
      description: 'Edges between graph nodes service:<id> and resource:<platform_id>. Natural key: (source, target, relation).',
      items: {
        type: 'object',
        required: ['source', 'target', 'relation'],
        properties: {
          source: { type: 'string', maxLength: 600, pattern: '^(service|resource):.+$' },
          target: { type: 'string', maxLength: 600, pattern: '^(service|resource):.+$' },
          relation: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9_]*$' },
        },
      },
    },
    packages: {
      type: 'array',
      maxItems: 500000,
      description: 'Package observations. Natural key: (service_id, coderoot_id, environment, purl); environment null = seen in source only.',
      items: {
        type: 'object',
        required: ['service_id', 'purl', 'name'],
        properties: {
          service_id: id,
          coderoot_id: nullable(str(512, 1)),
          environment: nullable({ enum: [...ENVIRONMENTS] }),
          purl: { type: 'string', maxLength: 1024, pattern: '^pkg:[a-z][a-z0-9.+-]*/.+' },
          name: str(255, 1),
          group: nullable(str(255)),
          version: nullable(str(128)),
          type: nullable(str(32)),
          scope: nullable({ enum: ['required', 'optional', 'excluded'] }),
          direct: { type: 'boolean', default: true },
          hashes: {
            type: 'array',
            maxItems: 10,
            items: {
              type: 'object',
              required: ['alg', 'content'],
              properties: {
                alg: {
                  enum: [
                    'MD5',
                    'SHA-1',
                    'SHA-256',
                    'SHA-384',
                    'SHA-512',
                    'SHA3-256',
                    'SHA3-384',
                    'SHA3-512',
                    'BLAKE2b-256',
                    'BLAKE2b-384',
                    'BLAKE2b-512',
                    'BLAKE3',
                  ],
                },
                content: { type: 'string', pattern: '^([a-fA-F0-9]{32}|[a-fA-F0-9]{40}|[a-fA-F0-9]{64}|[a-fA-F0-9]{96}|[a-fA-F0-9]{128})$' },
              },
            },
          },
          licenses: { type: 'array', maxItems: 20, items: str(255, 1) },
          depends_on: { type: 'array', maxItems: 1000, items: str(1024, 1) },
        },
      },
    },
    finding_counts: {
      type: 'array',
      maxItems: 100000,
      description: 'Open findings per service and severity. Natural key: (service_id, severity).',
      items: {
        type: 'object',
        required: ['service_id', 'severity'],
        properties: {
          service_id: id,
          severity: { enum: [...RISK_LEVELS] },
          urgent: { ...count, default: 0 },
          plan: { ...count, default: 0 },
          defer: { ...count, default: 0 },
        },
      },
    },
    applications: {
      type: 'array',
      maxItems: 100000,
      description:
        'Natural key: name (case-insensitive). A dynamic application (application_type "dynamic", source_id > 0) contains every service with the same source_id, recomputed at each import; a static one takes service_ids.',
      items: {
        type: 'object',
        required: ['name'],
        properties: {
          name: str(255, 1),
          description: nullable(str(10000)),
          tier: { enum: [...TIERS] },
          business_impact: { enum: [...BUSINESS_IMPACTS] },
          application_type: { enum: [...APPLICATION_TYPES] },
          source_id: id,
          meta: nullable({ type: 'object' }),
          service_ids: { type: 'array', maxItems: 10000, items: id },
          owners: {
            type: 'object',
            properties: Object.fromEntries(OWNER_TYPES.map((t) => [t, { type: 'array', maxItems: 50, items: owner }])),
          },
        },
      },
    },
    integrations: {
      type: 'object',
      description: 'Reported by GET /api/internal/application/integrations.',
      properties: { github: integration, aws: integration },
    },
    tenant_settings: {
      type: 'object',
      description:
        'Limits of the importing tenant, as PATCH /api/admin/tenant (null = the default). mode "merge": a field left out is unchanged; mode "replace": a field left out goes back to the default.',
      properties: {
        rate_limit_per_minute: { ...nullable(perMinute), description: 'Requests per minute of each API key of the tenant without a limit of its own.' },
        oauth_mcp_rate_limit_per_minute: { ...nullable(perMinute), description: 'Requests per minute of each OAuth client + user of the tenant on /mcp.' },
      },
    },
  },
} as const;

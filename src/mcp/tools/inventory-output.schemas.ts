import { z } from 'zod';
import { APPLICATION_TYPES, BUSINESS_IMPACTS } from '../../applications/application-enums';
import { RESOURCE_CATEGORIES, RISK_LEVELS } from '../../inventory/inventory-enums';

/**
 * Output schemas of the inventory tools: the JSON the REST endpoints answer (the DTOs of
 * src/applications and src/graph). Loose objects: a field added to a DTO must not make MCP clients
 * reject results (they validate structuredContent against these), and the API contract leaves some
 * shapes open (the graph and assign-tier answers are "JSON of any shape").
 */
const int = () => z.number().int();
const owner = z.looseObject({ login: z.string(), name: z.string() });

export const applicationOutput = z.looseObject({
  id: int().nullable(),
  name: z.string(),
  description: z.string().nullable().optional(),
  service_count: int().nullable().optional(),
  resource_count: int().nullable().optional(),
  business_impact: z.enum(BUSINESS_IMPACTS).optional(),
  tier: z
    .string()
    .regex(/^TIER_\d+$/)
    .optional(),
  application_type: z.enum(APPLICATION_TYPES).nullable().optional(),
  severity: z.enum(RISK_LEVELS).nullable().optional(),
  created: z.string().nullable().optional(),
  updated: z.string().nullable().optional(),
  meta: z.record(z.string(), z.unknown()).nullable().optional(),
  services: z.array(int()).nullable().optional().describe('Identifiers of the member services.'),
  urgent: int().nullable().optional(),
  plan: int().nullable().optional(),
  defer: int().nullable().optional(),
  owners: z.looseObject({ owner: z.array(owner), tech_lead: z.array(owner), security_lead: z.array(owner) }).optional(),
});

const envelope = {
  total: int().min(0),
  pages: int().min(0),
  page_size: int().min(1),
  page_number: int().min(0).describe('0-based.'),
};

export const applicationPageOutput = z.looseObject({ ...envelope, items: z.array(applicationOutput) });

const resourceEntry = {
  platform_id: z.string().describe('Identifier of the resource within its service.'),
  resource_type: z.string(),
  source_type: z.string().nullable().optional(),
};

export const applicationResourcesOutput = z.looseObject({
  resources: z.array(z.looseObject(resourceEntry)).describe('Resources of all member services, deduplicated (the REST body is this array).'),
});

export const graphResourcePageOutput = z.looseObject({
  ...envelope,
  items: z.array(
    z.looseObject({
      ...resourceEntry,
      category: z.enum(RESOURCE_CATEGORIES),
      name: z.string().nullable(),
      service_ids: z.array(int()),
      in_graph: z.boolean().describe('In the stored graph selection (true for all when none is stored).'),
    }),
  ),
});

export const graphOutput = z.looseObject({
  application_id: int(),
  selection: z.array(z.string()).nullable().describe('Stored selection of platform ids; null = every member resource.'),
  nodes: z.array(z.looseObject({ id: z.string(), type: z.enum(['application', 'service', 'resource']), label: z.string() })),
  edges: z.array(z.looseObject({ source: z.string(), target: z.string(), relation: z.string() })),
});

export const sbomOutput = z.looseObject({
  bomFormat: z.literal('CycloneDX'),
  specVersion: z.string(),
  serialNumber: z.string().nullable().optional(),
  version: int().nullable().optional(),
});

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { APPLICATION_ORDER_FIELDS, FILTER_FIELDS, FILTER_OPS } from '../../applications/application-list-query';
import type { ApplicationsService } from '../../applications/applications.service';
import { ListQueryDto } from '../../applications/dto/application-input.dto';
import { MAX_PAGE_LIMIT } from '../../applications/application-enums';
import { ENVIRONMENTS, RESOURCE_CATEGORIES } from '../../inventory/inventory-enums';
import { MAX_INT4 } from '../../common/int4';
import type { Principal } from '../../auth/principal';
import { GraphResourcesQueryDto } from '../../graph/dto/graph.dto';
import { GRAPH_RESOURCE_ORDER_FIELDS, type GraphService } from '../../graph/graph.service';
import { MAX_SBOM_CODEROOTS, SbomRequestDto } from '../../sbom/dto/sbom-request.dto';
import type { SbomService } from '../../sbom/sbom.service';
import {
  applicationOutput,
  applicationPageOutput,
  applicationResourcesOutput,
  graphOutput,
  graphResourcePageOutput,
  sbomOutput,
} from './inventory-output.schemas';
import { asJson, relocateIssues, validateLikeRest } from './tool-arguments';
import { runTool } from './tool-result';
import { READ_ONLY_ANNOTATIONS, requireScopes } from './tool-scopes';

export interface InventoryServices {
  applications: Pick<ApplicationsService, 'list' | 'get'>;
  graph: Pick<GraphService, 'resources' | 'graph' | 'graphResources'>;
  sbom: Pick<SbomService, 'generate'>;
}

const applicationId = z.number().int().min(0).max(MAX_INT4).describe('Application identifier (from list_applications).');

/** Paging and ordering arguments, as the REST list query (docs/inventory.md "List"). */
function pagingArguments(orderFields: readonly string[]) {
  return {
    page: z.number().int().min(0).max(MAX_INT4).optional().describe('0-based page number (default 0).'),
    limit: z.number().int().min(1).max(MAX_PAGE_LIMIT).optional().describe(`Page size, 1–${MAX_PAGE_LIMIT} (default 100).`),
    order: z
      .string()
      .nullable()
      .optional()
      .describe(`One order field: ${orderFields.join(', ')}.`),
    orders: z.array(z.string()).max(20).nullable().optional().describe('Several order fields, `-field` for descending; wins over `order`.'),
    direction: z.enum(['asc', 'desc']).nullable().optional().describe('Direction for `order` (default asc).'),
    search: z.string().max(255).nullable().optional().describe('Case-insensitive substring search.'),
  };
}

const filterClause = z.object({
  field: z.enum(Object.keys(FILTER_FIELDS) as [string, ...string[]]),
  op: z.enum(FILTER_OPS).optional().describe('Default eq; gt/gte/lt/lte for counts; in/nin take an array.'),
  value: z.unknown(),
});

const listApplicationsInput = {
  ...pagingArguments(APPLICATION_ORDER_FIELDS),
  filter: z
    .union([z.array(filterClause), z.record(z.string(), z.unknown())])
    .optional()
    .describe('Optional filter: clauses `[{field, op, value}]` (ANDed), or the shorthand `{"tier": ["TIER_1","TIER_2"], "severity": "HIGH"}`.'),
};

const graphResourcesInput = {
  application_id: applicationId,
  ...pagingArguments(GRAPH_RESOURCE_ORDER_FIELDS),
  category: z.enum(RESOURCE_CATEGORIES).nullable().optional().describe('Only resources of this category.'),
};

const sbomInput = {
  application_id: applicationId,
  environment: z.enum(ENVIRONMENTS).nullable().optional().describe('Only packages seen deployed in this environment; omitted or null = every observation.'),
  coderoots: z
    .array(z.string())
    .max(MAX_SBOM_CODEROOTS)
    .nullable()
    .optional()
    .describe('Only these code roots (`owner/repo:path`, must belong to the application); omitted, null or [] = all.'),
};

const INVENTORY_READ = 'Requires the `inventory:read` scope.';

/**
 * The inventory read tools: each calls the service behind the matching REST route, with the same
 * tenant isolation (another tenant's id is a 404) and the same validation, and returns the JSON
 * REST answers (arrays wrapped in an object, as structured content must be one).
 */
export function registerInventoryTools(server: McpServer, services: InventoryServices, principal: Principal | null): void {
  const tenantOf = () => requireScopes(principal, 'inventory:read').tenantId;
  const annotations = READ_ONLY_ANNOTATIONS;

  server.registerTool(
    'list_applications',
    {
      title: 'List applications',
      description: `Lists the applications of the inventory, paged, with optional search, filter and order (as GET /api/applications). ${INVENTORY_READ}`,
      inputSchema: listApplicationsInput,
      outputSchema: applicationPageOutput,
      annotations: { ...annotations, title: 'List applications' },
    },
    ({ filter, ...query }) =>
      runTool(async () => {
        const tenantId = tenantOf();
        const dto = await validateLikeRest(ListQueryDto, query);
        return asJson(await relocateIssues(['filter'], () => services.applications.list(tenantId, dto, filter ?? [])));
      }),
  );

  server.registerTool(
    'get_application',
    {
      title: 'Get application',
      description: `One application: tier, business impact, worst severity, member service ids, open finding counts, owners (as GET /api/applications/{id}). ${INVENTORY_READ}`,
      inputSchema: { application_id: applicationId },
      outputSchema: applicationOutput,
      annotations: { ...annotations, title: 'Get application' },
    },
    ({ application_id }) => runTool(async () => asJson(await services.applications.get(tenantOf(), application_id))),
  );

  server.registerTool(
    'get_application_resources',
    {
      title: 'Get application resources',
      description: `Cloud and platform resources of all member services of an application, deduplicated (as GET /api/applications/{id}/resources). ${INVENTORY_READ}`,
      inputSchema: { application_id: applicationId },
      outputSchema: applicationResourcesOutput,
      annotations: { ...annotations, title: 'Get application resources' },
    },
    ({ application_id }) => runTool(async () => ({ resources: asJson(await services.graph.resources(tenantOf(), application_id)) })),
  );

  server.registerTool(
    'get_application_graph',
    {
      title: 'Get application graph',
      description: `The application's dependency graph: nodes (application, services, selected resources) and edges (as GET /api/applications/{id}/graph). ${INVENTORY_READ}`,
      inputSchema: { application_id: applicationId },
      outputSchema: graphOutput,
      annotations: { ...annotations, title: 'Get application graph' },
    },
    ({ application_id }) => runTool(async () => asJson(await services.graph.graph(tenantOf(), application_id))),
  );

  server.registerTool(
    'list_application_graph_resources',
    {
      title: 'List application graph resources',
      description: `The resources that can appear in an application's graph, paged, with category, search and order, and whether each is in the graph (as GET /api/applications/{id}/graph_resources). ${INVENTORY_READ}`,
      inputSchema: graphResourcesInput,
      outputSchema: graphResourcePageOutput,
      annotations: { ...annotations, title: 'List application graph resources' },
    },
    ({ application_id, ...query }) =>
      runTool(async () => {
        const tenantId = tenantOf();
        const dto = await validateLikeRest(GraphResourcesQueryDto, query);
        return asJson(await relocateIssues([], () => services.graph.graphResources(tenantId, application_id, dto)));
      }),
  );

  server.registerTool(
    'generate_application_sbom',
    {
      title: 'Generate application SBOM',
      description: `A CycloneDX 1.6 JSON SBOM of an application: its services and their deduplicated packages, optionally narrowed to an environment or code roots (as POST /api/applications/{id}/sbom). ${INVENTORY_READ}`,
      inputSchema: sbomInput,
      outputSchema: sbomOutput,
      annotations: { ...annotations, title: 'Generate application SBOM' },
    },
    ({ application_id, environment, coderoots }) =>
      runTool(async () => {
        const tenantId = tenantOf();
        // REST requires both keys (null allowed); for tools, omitted means null (everything).
        const body = await validateLikeRest(SbomRequestDto, { environment: environment ?? null, coderoots: coderoots ?? null });
        const json = await relocateIssues([], () =>
          services.sbom.generate(tenantId, application_id, { environment: body.environment, coderoots: body.coderoots }),
        );
        return JSON.parse(json) as Record<string, unknown>;
      }),
  );
}

import { Injectable } from '@nestjs/common';
import { parseOrders } from '../applications/application-list-query';
import { ApplicationsService } from '../applications/applications.service';
import { ValidationFailedError, type ValidationIssue } from '../common/errors';
import { UnitOfWork, type Transaction } from '../database/unit-of-work';
import type { ApplicationResourceDto, GraphDto, GraphEdgeDto, GraphNodeDto, GraphResourcePageDto, GraphResourcesQueryDto } from './dto/graph.dto';
import { GRAPH_RESOURCE_ORDER_SQL, GraphRepository } from './persistence/graph.repository';

export const GRAPH_RESOURCE_ORDER_FIELDS = Object.keys(GRAPH_RESOURCE_ORDER_SQL);
const GRAPH_RESOURCE_DEFAULT_ORDER = [
  { field: 'resource_type', direction: 'asc' as const },
  { field: 'platform_id', direction: 'asc' as const },
];

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Resources, graph and graph selection of an application (docs/inventory.md "Graph"). */
@Injectable()
export class GraphService {
  constructor(
    private readonly repository: GraphRepository,
    private readonly applications: ApplicationsService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async resources(tenantId: string, applicationId: number): Promise<ApplicationResourceDto[]> {
    await this.applications.assertExists(tenantId, applicationId);
    const rows = await this.repository.memberResources(tenantId, applicationId);
    return rows.map((r) => ({ platform_id: r.platformId, resource_type: r.resourceType, source_type: r.sourceType }));
  }

  async graphResources(tenantId: string, applicationId: number, query: GraphResourcesQueryDto): Promise<GraphResourcePageDto> {
    const orders = parseOrders(query, GRAPH_RESOURCE_ORDER_FIELDS, GRAPH_RESOURCE_DEFAULT_ORDER);
    await this.applications.assertExists(tenantId, applicationId);
    const page = query.page ?? 0;
    const limit = query.limit ?? 100;
    const { total, items } = await this.repository.memberResourcesPage(tenantId, applicationId, {
      page,
      limit,
      orders,
      search: query.search ?? null,
      category: query.category ?? null,
    });
    return {
      total,
      pages: Math.ceil(total / limit),
      page_size: limit,
      page_number: page,
      items: items.map((r) => ({
        platform_id: r.platformId,
        resource_type: r.resourceType,
        source_type: r.sourceType,
        category: r.category,
        name: r.name,
        service_ids: r.serviceIds,
        in_graph: r.inGraph,
      })),
    };
  }

  async graph(tenantId: string, applicationId: number, tx?: Transaction): Promise<GraphDto> {
    const name = await this.repository.applicationName(tenantId, applicationId, tx);
    if (name === null) await this.applications.assertExists(tenantId, applicationId, tx);
    const [services, resources, selection] = [
      await this.repository.memberServices(tenantId, applicationId, tx),
      await this.repository.memberResources(tenantId, applicationId, tx),
      (await this.applications.graphSelectionStored(tenantId, applicationId, tx)) ? await this.repository.selection(applicationId, tx) : null,
    ];
    const appNode = `application:${applicationId}`;
    const shown = resources.filter((r) => r.inGraph).sort((a, b) => byCodeUnits(a.platformId, b.platformId));
    const nodes: GraphNodeDto[] = [
      { id: appNode, type: 'application', label: name! },
      ...services.map((s) => ({ id: `service:${s.id}`, type: 'service', label: s.name, service_id: s.id })),
      ...shown.map((r) => ({
        id: `resource:${r.platformId}`,
        type: 'resource',
        label: r.name ?? r.platformId,
        platform_id: r.platformId,
        resource_type: r.resourceType,
        category: r.category,
      })),
    ];
    const edges: GraphEdgeDto[] = [
      ...services.map((s) => ({ source: appNode, target: `service:${s.id}`, relation: 'contains' })),
      ...shown.flatMap((r) => r.serviceIds.map((sid) => ({ source: `service:${sid}`, target: `resource:${r.platformId}`, relation: 'uses' }))),
    ];
    const seen = new Set(edges.map((e) => `${e.source}\n${e.target}\n${e.relation}`));
    for (const rel of await this.repository.relationsBetween(
      tenantId,
      nodes.map((n) => n.id),
      tx,
    )) {
      const key = `${rel.source}\n${rel.target}\n${rel.relation}`;
      if (!seen.has(key)) edges.push(rel);
      seen.add(key);
    }
    edges.sort((a, b) => byCodeUnits(a.source, b.source) || byCodeUnits(a.target, b.target) || byCodeUnits(a.relation, b.relation));
    return { application_id: applicationId, selection, nodes, edges };
  }

  /**
   * Replaces the selection atomically (row lock on the application) and returns the new graph.
   * `platformIds` is the validated request body; it is stored deduplicated in first-seen order.
   */
  async replaceGraph(tenantId: string, applicationId: number, platformIds: string[]): Promise<GraphDto> {
    const ids = [...new Set(platformIds)];
    return this.unitOfWork.run(
      async (tx) => {
        await this.applications.lockOrThrow(tx, tenantId, applicationId);
        const foreign = new Set(await this.repository.foreignPlatformIds(tx, tenantId, applicationId, ids));
        if (foreign.size) {
          const issues: ValidationIssue[] = [];
          platformIds.forEach((id, i) => {
            if (foreign.has(id))
              issues.push({
                loc: ['body', i],
                msg: `resource '${id}' does not belong to a service of application ${applicationId}`,
                type: 'value_error.unknown_resource',
              });
          });
          throw new ValidationFailedError(issues);
        }
        await this.repository.replaceSelection(tx, tenantId, applicationId, ids);
        await this.applications.markGraphSelectionStored(tx, tenantId, applicationId);
        return this.graph(tenantId, applicationId, tx);
      },
      { retryConflicts: true },
    );
  }
}

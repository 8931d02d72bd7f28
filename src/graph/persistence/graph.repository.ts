import type { DataSource } from 'typeorm';
import type { OrderTerm } from '../../applications/application-list-query';
import { containsPattern, orderBySql, SqlParams, toInt } from '../../database/sql-params';
import { managerOf, type Transaction } from '../../database/unit-of-work';

export interface MemberResource {
  platformId: string;
  resourceType: string;
  sourceType: string | null;
  category: string;
  name: string | null;
  serviceIds: number[];
  inGraph: boolean;
}

export interface GraphResourcesQuery {
  page: number;
  limit: number;
  orders: OrderTerm[];
  search: string | null;
  category: string | null;
}

const C = 'COLLATE "C"';
export const GRAPH_RESOURCE_ORDER_SQL: Record<string, string> = {
  platform_id: `x.platform_id ${C}`,
  name: `x.name ${C}`,
  resource_type: `x.resource_type ${C}`,
  source_type: `x.source_type ${C}`,
  category: `x.category ${C}`,
  in_graph: 'x.in_graph',
};

/** Deduplicated resources of the member services of application $2 (tenant $1), with in_graph. */
const MEMBER_RESOURCES_SQL = `
  SELECT res.platform_id, res.resource_type, res.source_type, res.category, res.name, m.service_ids,
         (NOT a.graph_selection_set OR EXISTS (SELECT 1 FROM application_graph_selections g WHERE g.application_id = a.id AND g.platform_id = res.platform_id)) AS in_graph
  FROM applications a
  JOIN LATERAL (SELECT sr.platform_id, array_agg(DISTINCT sr.service_id ORDER BY sr.service_id) AS service_ids
                FROM application_services s JOIN service_resources sr ON sr.tenant_id = s.tenant_id AND sr.service_id = s.service_id
                WHERE s.application_id = a.id GROUP BY sr.platform_id) m ON true
  JOIN resources res ON res.tenant_id = a.tenant_id AND res.platform_id = m.platform_id
  WHERE a.tenant_id = $1 AND a.id = $2`;

function intArray(value: unknown): number[] {
  if (Array.isArray(value)) return value.map(Number);
  const inner = String(value ?? '').replace(/^\{|\}$/g, '');
  return inner ? inner.split(',').map(Number) : [];
}

function toMemberResource(r: Record<string, unknown>): MemberResource {
  return {
    platformId: r.platform_id as string,
    resourceType: r.resource_type as string,
    sourceType: (r.source_type as string | null) ?? null,
    category: r.category as string,
    name: (r.name as string | null) ?? null,
    serviceIds: intArray(r.service_ids),
    inGraph: Boolean(r.in_graph),
  };
}

/** Purpose-named persistence of the application graph (selection, member resources, relations). */
export class GraphRepository {
  constructor(private readonly dataSource: DataSource) {}

  private db(tx?: Transaction) {
    return managerOf(this.dataSource, tx);
  }

  /** Every resource of the member services, sorted by (resource_type, platform_id). */
  async memberResources(tenantId: string, applicationId: number, tx?: Transaction): Promise<MemberResource[]> {
    const rows = (await this.db(tx).query(`SELECT * FROM (${MEMBER_RESOURCES_SQL}) x ORDER BY x.resource_type ${C}, x.platform_id ${C}`, [
      tenantId,
      applicationId,
    ])) as Record<string, unknown>[];
    return rows.map(toMemberResource);
  }

  async memberResourcesPage(tenantId: string, applicationId: number, query: GraphResourcesQuery): Promise<{ total: number; items: MemberResource[] }> {
    const p = new SqlParams();
    p.add(tenantId);
    p.add(applicationId);
    const where: string[] = ['true'];
    if (query.search) {
      const pattern = p.add(containsPattern(query.search));
      where.push(`(x.platform_id ILIKE ${pattern} OR x.name ILIKE ${pattern} OR x.resource_type ILIKE ${pattern})`);
    }
    if (query.category) where.push(`x.category = ${p.add(query.category)}`);
    const base = `FROM (${MEMBER_RESOURCES_SQL}) x WHERE ${where.join(' AND ')}`;
    const count = (await this.dataSource.query(`SELECT count(*) AS total ${base}`, p.values)) as { total: string }[];
    const total = toInt(count[0]?.total);
    const offset = query.page * query.limit;
    if (offset >= total) return { total, items: [] };
    const rows = (await this.dataSource.query(
      `SELECT x.* ${base} ORDER BY ${orderBySql(query.orders, GRAPH_RESOURCE_ORDER_SQL, `x.platform_id ${C}`)} LIMIT ${p.add(query.limit)} OFFSET ${p.add(offset)}`,
      p.values,
    )) as Record<string, unknown>[];
    return { total, items: rows.map(toMemberResource) };
  }

  async memberServices(tenantId: string, applicationId: number, tx?: Transaction): Promise<{ id: number; name: string }[]> {
    const rows = (await this.db(tx).query(
      `SELECT sv.id, sv.name FROM application_services s JOIN inventory_services sv ON sv.tenant_id = s.tenant_id AND sv.id = s.service_id
       WHERE s.tenant_id = $1 AND s.application_id = $2 ORDER BY sv.id`,
      [tenantId, applicationId],
    )) as { id: number; name: string }[];
    return rows.map((r) => ({ id: Number(r.id), name: r.name }));
  }

  async applicationName(tenantId: string, applicationId: number, tx?: Transaction): Promise<string | null> {
    const rows = (await this.db(tx).query('SELECT name FROM applications WHERE tenant_id = $1 AND id = $2', [tenantId, applicationId])) as { name: string }[];
    return rows[0]?.name ?? null;
  }

  /** The stored selection rows (meaningful once the application records that a selection was stored). */
  async selection(applicationId: number, tx?: Transaction): Promise<string[]> {
    const rows = (await this.db(tx).query(`SELECT platform_id FROM application_graph_selections WHERE application_id = $1 ORDER BY platform_id ${C}`, [
      applicationId,
    ])) as {
      platform_id: string;
    }[];
    return rows.map((r) => r.platform_id);
  }

  /** The ids among `platformIds` that are not resources of a member service. */
  async foreignPlatformIds(tx: Transaction, tenantId: string, applicationId: number, platformIds: string[]): Promise<string[]> {
    if (!platformIds.length) return [];
    const rows = (await this.db(tx).query(
      `SELECT DISTINCT sr.platform_id FROM application_services s JOIN service_resources sr ON sr.tenant_id = s.tenant_id AND sr.service_id = s.service_id
       WHERE s.tenant_id = $1 AND s.application_id = $2 AND sr.platform_id = ANY($3::text[])`,
      [tenantId, applicationId, platformIds],
    )) as { platform_id: string }[];
    const known = new Set(rows.map((r) => r.platform_id));
    return platformIds.filter((id) => !known.has(id));
  }

  async replaceSelection(tx: Transaction, tenantId: string, applicationId: number, platformIds: string[]): Promise<void> {
    await this.db(tx).query('DELETE FROM application_graph_selections WHERE application_id = $1', [applicationId]);
    if (platformIds.length) {
      await this.db(tx).query(
        'INSERT INTO application_graph_selections (application_id, platform_id, tenant_id) SELECT $1, pid, $2 FROM unnest($3::text[]) AS pid',
        [applicationId, tenantId, platformIds],
      );
    }
  }

  /** Imported relations whose both ends are among `nodeIds`. */
  async relationsBetween(tenantId: string, nodeIds: string[], tx?: Transaction): Promise<{ source: string; target: string; relation: string }[]> {
    if (!nodeIds.length) return [];
    const rows = (await this.db(tx).query(
      `SELECT source_node, target_node, relation FROM inventory_relations
       WHERE tenant_id = $1 AND source_node = ANY($2::text[]) AND target_node = ANY($2::text[])`,
      [tenantId, nodeIds],
    )) as { source_node: string; target_node: string; relation: string }[];
    return rows.map((r) => ({ source: r.source_node, target: r.target_node, relation: r.relation }));
  }
}

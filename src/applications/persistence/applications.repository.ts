import { DataSource, QueryFailedError } from 'typeorm';
import { ConflictError } from '../../common/errors';
import type { FilterClause, ListSpec } from '../application-list-query';
import { applicationNameKey } from '../application-name';
import { APPLICATION_TYPES, BUSINESS_IMPACTS, OWNER_TYPES, TIERS, type OwnerType } from '../application-enums';
import { ENVIRONMENTS, RISK_LEVELS } from '../../inventory/inventory-enums';
import { affectedRows, containsPattern, orderBySql, rankSql, SqlParams, toInt } from '../../database/sql-params';
import { managerOf, type Transaction } from '../../database/unit-of-work';

/** An application with every derived field, as computed by SQL for a handful of ids. */
export interface ApplicationView {
  id: number;
  name: string;
  description: string | null;
  tier: string;
  businessImpact: string;
  applicationType: string;
  sourceId: number;
  meta: Record<string, unknown>;
  created: Date;
  updated: Date;
  services: number[];
  serviceCount: number;
  resourceCount: number;
  severity: string;
  urgent: number;
  plan: number;
  defer: number;
  owners: Record<OwnerType, { login: string; name: string }[]>;
}

export interface LockedApplication {
  id: number;
  name: string;
  nameKey: string;
  tier: string;
}

export interface NewApplication {
  tenantId: string;
  name: string;
  description: string | null;
  tier: string;
  businessImpact: string;
  applicationType: string;
  sourceId: number;
  meta: Record<string, unknown>;
}

export interface Owner {
  login: string;
  name: string;
}

const FINDINGS_JOIN =
  'application_services s JOIN service_finding_counts fc ON fc.tenant_id = s.tenant_id AND fc.service_id = s.service_id WHERE s.application_id = a.id';
const SEVERITY_RANK = rankSql('fc.severity', RISK_LEVELS);

/**
 * Derived fields for sorting and filtering whole candidate sets: each family is ONE grouped
 * aggregate over the tenant's membership, joined to `a` only when the query uses it (a correlated
 * subquery per candidate row cost ~0.4 ms each on 10,000 applications).
 */
type DerivedFamily = 'members' | 'findings' | 'resources';
const DERIVED_FAMILY: Record<string, DerivedFamily> = {
  service_count: 'members',
  resource_count: 'resources',
  urgent: 'findings',
  plan: 'findings',
  defer: 'findings',
  severity: 'findings',
  severity_rank: 'findings',
};
const DERIVED_JOIN: Record<DerivedFamily, string> = {
  members:
    'LEFT JOIN (SELECT s.application_id, count(*) AS service_count FROM application_services s WHERE s.tenant_id = $1 GROUP BY s.application_id) dm ON dm.application_id = a.id',
  findings: `LEFT JOIN (SELECT s.application_id, sum(fc.urgent) AS urgent, sum(fc.plan) AS plan, sum(fc.defer) AS defer,
                               max(CASE WHEN fc.urgent + fc.plan + fc.defer > 0 THEN ${SEVERITY_RANK} END) AS severity_rank
                        FROM application_services s JOIN service_finding_counts fc ON fc.tenant_id = s.tenant_id AND fc.service_id = s.service_id
                        WHERE s.tenant_id = $1 GROUP BY s.application_id) df ON df.application_id = a.id`,
  resources: `LEFT JOIN (SELECT s.application_id, count(DISTINCT sr.platform_id) AS resource_count
                         FROM application_services s JOIN service_resources sr ON sr.tenant_id = s.tenant_id AND sr.service_id = s.service_id
                         WHERE s.tenant_id = $1 GROUP BY s.application_id) dr ON dr.application_id = a.id`,
};
export const DERIVED_SQL = {
  service_count: 'COALESCE(dm.service_count, 0)',
  resource_count: 'COALESCE(dr.resource_count, 0)',
  urgent: 'COALESCE(df.urgent, 0)',
  plan: 'COALESCE(df.plan, 0)',
  defer: 'COALESCE(df.defer, 0)',
  /** 1 (LOW) when no member service has an open finding. */
  severity_rank: 'COALESCE(df.severity_rank, 1)',
} as const;

/** The joins a query over `applications a` (tenant = $1) needs for these fields. */
function derivedJoins(fields: Iterable<string>): string {
  const families = new Set<DerivedFamily>();
  for (const f of fields) if (DERIVED_FAMILY[f]) families.add(DERIVED_FAMILY[f]);
  return [...families]
    .sort()
    .map((f) => DERIVED_JOIN[f])
    .join('\n');
}

const ORDER_SQL: Record<string, string> = {
  id: 'a.id',
  name: 'a.name_key COLLATE "C"',
  tier: rankSql('a.tier', TIERS),
  business_impact: rankSql('a.business_impact', BUSINESS_IMPACTS),
  severity: DERIVED_SQL.severity_rank,
  application_type: rankSql('a.application_type', APPLICATION_TYPES),
  created: 'a.created',
  updated: 'a.updated',
  service_count: DERIVED_SQL.service_count,
  resource_count: DERIVED_SQL.resource_count,
  urgent: DERIVED_SQL.urgent,
  plan: DERIVED_SQL.plan,
  defer: DERIVED_SQL.defer,
};

const COMPARISON: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' };

function existsClause(clause: FilterClause, subquery: (match: string) => string, p: SqlParams, cast: string): string {
  const many = clause.op === 'in' || clause.op === 'nin';
  const match = many ? `= ANY(${p.add(clause.value)}::${cast}[])` : `= ${p.add(clause.value)}`;
  const negate = clause.op === 'neq' || clause.op === 'nin';
  return `${negate ? 'NOT ' : ''}EXISTS (${subquery(match)})`;
}

function columnClause(expr: string, clause: FilterClause, p: SqlParams, cast: string): string {
  if (clause.op === 'in') return `${expr} = ANY(${p.add(clause.value)}::${cast}[])`;
  if (clause.op === 'nin') return `NOT (${expr} = ANY(${p.add(clause.value)}::${cast}[]))`;
  return `${expr} ${COMPARISON[clause.op]} ${p.add(clause.value)}`;
}

function filterSql(clause: FilterClause, p: SqlParams): string {
  switch (clause.field) {
    case 'tier':
      return columnClause('a.tier', clause, p, 'text');
    case 'business_impact':
      return columnClause('a.business_impact', clause, p, 'text');
    case 'application_type':
      return columnClause('a.application_type', clause, p, 'text');
    case 'severity': {
      const toRank = (v: unknown) => RISK_LEVELS.indexOf(v as (typeof RISK_LEVELS)[number]) + 1;
      const value = Array.isArray(clause.value) ? clause.value.map(toRank) : toRank(clause.value);
      return columnClause(DERIVED_SQL.severity_rank, { ...clause, value }, p, 'int');
    }
    case 'name': {
      const lower = (v: unknown) => String(v).toLowerCase();
      const value = Array.isArray(clause.value) ? clause.value.map(lower) : lower(clause.value);
      return columnClause('a.name_key', { ...clause, value }, p, 'text');
    }
    case 'service_id':
      return existsClause(clause, (m) => `SELECT 1 FROM application_services s WHERE s.application_id = a.id AND s.service_id ${m}`, p, 'int');
    case 'owner_login':
      return existsClause(clause, (m) => `SELECT 1 FROM application_owners o WHERE o.application_id = a.id AND o.login ${m}`, p, 'text');
    case 'owner_type':
      return existsClause(clause, (m) => `SELECT 1 FROM application_owners o WHERE o.application_id = a.id AND o.owner_type ${m}`, p, 'text');
    default:
      return columnClause(DERIVED_SQL[clause.field as keyof typeof DERIVED_SQL], clause, p, 'int');
  }
}

function isUniqueViolation(err: unknown): boolean {
  return err instanceof QueryFailedError && (err.driverError as { code?: string } | undefined)?.code === '23505';
}

/**
 * Purpose-named persistence of applications, their membership and owners. Every method filters by
 * tenant. Methods taking a Transaction run inside the caller's unit of work (PGlite has one connection:
 * never reach for the DataSource while a transaction is open).
 */
export class ApplicationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private db(tx?: Transaction) {
    return managerOf(this.dataSource, tx);
  }

  /** Row-locks the application for the rest of the transaction (serialises concurrent writers). */
  async lockApplication(tx: Transaction, tenantId: string, id: number): Promise<LockedApplication | null> {
    const rows = (await this.db(tx).query('SELECT id, name, name_key, tier FROM applications WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenantId, id])) as {
      id: number;
      name: string;
      name_key: string;
      tier: string;
    }[];
    const row = rows[0];
    return row ? { id: row.id, name: row.name, nameKey: row.name_key, tier: row.tier } : null;
  }

  async applicationExists(tenantId: string, id: number, tx?: Transaction): Promise<boolean> {
    const rows = (await this.db(tx).query('SELECT 1 FROM applications WHERE tenant_id = $1 AND id = $2', [tenantId, id])) as unknown[];
    return rows.length > 0;
  }

  async findApplicationIdByName(tx: Transaction, tenantId: string, name: string): Promise<number | null> {
    const rows = (await this.db(tx).query('SELECT id FROM applications WHERE tenant_id = $1 AND name_key = $2', [tenantId, applicationNameKey(name)])) as {
      id: number;
    }[];
    return rows[0]?.id ?? null;
  }

  /** Inserts an application; a concurrent duplicate name surfaces as 409, never as a 500. */
  async insertApplication(tx: Transaction, app: NewApplication): Promise<number> {
    try {
      const rows = (await this.db(tx).query(
        `INSERT INTO applications (tenant_id, name, name_key, description, tier, business_impact, application_type, source_id, meta)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb) RETURNING id`,
        [
          app.tenantId,
          app.name,
          applicationNameKey(app.name),
          app.description,
          app.tier,
          app.businessImpact,
          app.applicationType,
          app.sourceId,
          JSON.stringify(app.meta),
        ],
      )) as { id: number }[];
      return rows[0]!.id;
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`An application named '${app.name}' already exists`);
      throw err;
    }
  }

  async updateApplication(
    tx: Transaction,
    tenantId: string,
    id: number,
    patch: {
      name?: string;
      description?: string | null;
      tier?: string;
      businessImpact?: string;
      applicationType?: string;
      sourceId?: number;
      meta?: Record<string, unknown>;
    },
  ): Promise<void> {
    const p = new SqlParams();
    const sets: string[] = ['updated = now()'];
    if (patch.name !== undefined) sets.push(`name = ${p.add(patch.name)}`, `name_key = ${p.add(applicationNameKey(patch.name))}`);
    if (patch.description !== undefined) sets.push(`description = ${p.add(patch.description)}`);
    if (patch.tier !== undefined) sets.push(`tier = ${p.add(patch.tier)}`);
    if (patch.businessImpact !== undefined) sets.push(`business_impact = ${p.add(patch.businessImpact)}`);
    if (patch.applicationType !== undefined) sets.push(`application_type = ${p.add(patch.applicationType)}`);
    if (patch.sourceId !== undefined) sets.push(`source_id = ${p.add(patch.sourceId)}`);
    if (patch.meta !== undefined) sets.push(`meta = ${p.add(JSON.stringify(patch.meta))}::jsonb`);
    try {
      await this.db(tx).query(`UPDATE applications SET ${sets.join(', ')} WHERE tenant_id = ${p.add(tenantId)} AND id = ${p.add(id)}`, p.values);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`An application named '${patch.name}' already exists`);
      throw err;
    }
  }

  /** Records that PUT graph stored a selection (which may be empty): the graph shows only the selected resources from now on. */
  async markGraphSelectionStored(tx: Transaction, tenantId: string, id: number): Promise<void> {
    await this.db(tx).query('UPDATE applications SET graph_selection_set = true, updated = now() WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
  }

  async graphSelectionStored(tenantId: string, id: number, tx?: Transaction): Promise<boolean> {
    const rows = (await this.db(tx).query('SELECT graph_selection_set FROM applications WHERE tenant_id = $1 AND id = $2', [tenantId, id])) as {
      graph_selection_set: boolean;
    }[];
    return Boolean(rows[0]?.graph_selection_set);
  }

  /** Marks the application updated (membership or owners changed). */
  async touchApplication(tx: Transaction, tenantId: string, id: number): Promise<void> {
    await this.db(tx).query('UPDATE applications SET updated = now() WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
  }

  /** Deletes the application; membership, owners and graph selection go with it (FK cascade), services and resources stay. */
  async deleteApplication(tenantId: string, id: number): Promise<boolean> {
    return affectedRows(await this.dataSource.query('DELETE FROM applications WHERE tenant_id = $1 AND id = $2', [tenantId, id])) > 0;
  }

  /** The ids among `ids` that are not services of the tenant (in input order). */
  async findUnknownServiceIds(tx: Transaction, tenantId: string, ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = (await this.db(tx).query('SELECT id FROM inventory_services WHERE tenant_id = $1 AND id = ANY($2::int[])', [tenantId, ids])) as {
      id: number;
    }[];
    const known = new Set(rows.map((r) => Number(r.id)));
    return ids.filter((id) => !known.has(id));
  }

  async replaceMembership(tx: Transaction, tenantId: string, applicationId: number, serviceIds: number[]): Promise<void> {
    await this.db(tx).query('DELETE FROM application_services WHERE application_id = $1', [applicationId]);
    await this.addMembership(tx, tenantId, applicationId, serviceIds);
  }

  /** Union with the current membership; already-assigned ids are left alone. */
  async addMembership(tx: Transaction, tenantId: string, applicationId: number, serviceIds: number[]): Promise<void> {
    if (!serviceIds.length) return;
    await this.db(tx).query(
      `INSERT INTO application_services (application_id, service_id, tenant_id)
       SELECT $1, sid, $2 FROM unnest($3::int[]) AS sid ON CONFLICT DO NOTHING`,
      [applicationId, tenantId, serviceIds],
    );
  }

  async removeMembership(tx: Transaction, tenantId: string, applicationId: number, serviceId: number): Promise<boolean> {
    const result: unknown = await this.db(tx).query('DELETE FROM application_services WHERE tenant_id = $1 AND application_id = $2 AND service_id = $3', [
      tenantId,
      applicationId,
      serviceId,
    ]);
    return affectedRows(result) > 0;
  }

  async replaceOwners(tx: Transaction, tenantId: string, applicationId: number, ownerType: OwnerType, owners: Owner[]): Promise<void> {
    await this.db(tx).query('DELETE FROM application_owners WHERE application_id = $1 AND owner_type = $2', [applicationId, ownerType]);
    if (!owners.length) return;
    await this.db(tx).query(
      `INSERT INTO application_owners (application_id, owner_type, position, tenant_id, login, name)
       SELECT $1, $2, o.ord - 1, $3, o.login, o.name FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS o(login, name, ord)`,
      [applicationId, ownerType, tenantId, owners.map((o) => o.login), owners.map((o) => o.name)],
    );
  }

  /** The applications with these ids, every derived field computed in one query (order not kept). */
  async loadViews(tenantId: string, ids: number[], tx?: Transaction): Promise<ApplicationView[]> {
    if (!ids.length) return [];
    const rows = (await this.db(tx).query(
      `SELECT a.id, a.name, a.description, a.tier, a.business_impact, a.application_type, a.source_id, a.meta, a.created, a.updated,
              m.services, COALESCE(m.service_count, 0) AS service_count, COALESCE(r.resource_count, 0) AS resource_count,
              COALESCE(f.urgent, 0) AS urgent, COALESCE(f.plan, 0) AS plan, COALESCE(f.defer, 0) AS defer,
              COALESCE(f.severity_rank, 1) AS severity_rank, o.owners
       FROM applications a
       LEFT JOIN LATERAL (SELECT array_agg(s.service_id ORDER BY s.service_id) AS services, count(*) AS service_count
                          FROM application_services s WHERE s.application_id = a.id) m ON true
       LEFT JOIN LATERAL (SELECT count(DISTINCT sr.platform_id) AS resource_count FROM application_services s
                          JOIN service_resources sr ON sr.tenant_id = s.tenant_id AND sr.service_id = s.service_id
                          WHERE s.application_id = a.id) r ON true
       LEFT JOIN LATERAL (SELECT sum(fc.urgent) AS urgent, sum(fc.plan) AS plan, sum(fc.defer) AS defer,
                                 max(CASE WHEN fc.urgent + fc.plan + fc.defer > 0 THEN ${SEVERITY_RANK} END) AS severity_rank
                          FROM ${FINDINGS_JOIN}) f ON true
       LEFT JOIN LATERAL (SELECT json_agg(json_build_object('type', ow.owner_type, 'login', ow.login, 'name', ow.name) ORDER BY ow.owner_type, ow.position) AS owners
                          FROM application_owners ow WHERE ow.application_id = a.id) o ON true
       WHERE a.tenant_id = $1 AND a.id = ANY($2::int[])`,
      [tenantId, ids],
    )) as Record<string, unknown>[];
    return rows.map((row) => {
      const owners = Object.fromEntries(OWNER_TYPES.map((t) => [t, [] as Owner[]])) as ApplicationView['owners'];
      for (const o of (parseJson(row.owners) as { type: OwnerType; login: string; name: string }[] | null) ?? [])
        owners[o.type]?.push({ login: o.login, name: o.name });
      return {
        id: Number(row.id),
        name: row.name as string,
        description: (row.description as string | null) ?? null,
        tier: row.tier as string,
        businessImpact: row.business_impact as string,
        applicationType: row.application_type as string,
        sourceId: Number(row.source_id),
        meta: (parseJson(row.meta) as Record<string, unknown> | null) ?? {},
        created: new Date(row.created as string),
        updated: new Date(row.updated as string),
        services: parseIntArray(row.services),
        serviceCount: toInt(row.service_count),
        resourceCount: toInt(row.resource_count),
        severity: RISK_LEVELS[toInt(row.severity_rank) - 1] ?? 'LOW',
        urgent: toInt(row.urgent),
        plan: toInt(row.plan),
        defer: toInt(row.defer),
        owners,
      };
    });
  }

  /** One page of ids in the requested order, and the size of the filtered set. */
  async listApplicationIds(tenantId: string, spec: ListSpec): Promise<{ total: number; ids: number[] }> {
    const p = new SqlParams();
    const where = [`a.tenant_id = ${p.add(tenantId)}`];
    if (spec.search) {
      const pattern = p.add(containsPattern(spec.search));
      where.push(`(a.name ILIKE ${pattern} OR a.description ILIKE ${pattern})`);
    }
    for (const clause of spec.filters) where.push(filterSql(clause, p));
    const whereSql = where.join(' AND ');
    // One scan gives the page and the size of the filtered set (count(*) OVER ()); only a page past
    // the end needs a separate count.
    const joins = derivedJoins([...spec.filters.map((f) => f.field), ...spec.orders.map((o) => o.field)]);
    const countValues = [...p.values];
    const offset = spec.page * spec.limit;
    const idRows = (await this.dataSource.query(
      `SELECT a.id, count(*) OVER () AS total FROM applications a ${joins} WHERE ${whereSql}
       ORDER BY ${orderBySql(spec.orders, ORDER_SQL, 'a.id')} LIMIT ${p.add(spec.limit)} OFFSET ${p.add(offset)}`,
      p.values,
    )) as { id: number; total: string }[];
    if (idRows.length) return { total: toInt(idRows[0]!.total), ids: idRows.map((r) => Number(r.id)) };
    const filterJoins = derivedJoins(spec.filters.map((f) => f.field));
    const countRows = (await this.dataSource.query(`SELECT count(*) AS total FROM applications a ${filterJoins} WHERE ${whereSql}`, countValues)) as {
      total: string;
    }[];
    return { total: toInt(countRows[0]?.total), ids: [] };
  }

  /** Counts behind `_terms`: applications per enum value, per owner type and per environment. */
  async termCounts(tenantId: string): Promise<Record<string, Record<string, number>>> {
    const q = async (sql: string): Promise<Record<string, number>> => {
      const rows = (await this.dataSource.query(sql, [tenantId])) as { value: string; count: string }[];
      return Object.fromEntries(rows.map((r) => [r.value, toInt(r.count)]));
    };
    return {
      tier: await q('SELECT tier AS value, count(*) AS count FROM applications WHERE tenant_id = $1 GROUP BY tier'),
      business_impact: await q('SELECT business_impact AS value, count(*) AS count FROM applications WHERE tenant_id = $1 GROUP BY business_impact'),
      application_type: await q('SELECT application_type AS value, count(*) AS count FROM applications WHERE tenant_id = $1 GROUP BY application_type'),
      severity: await q(
        `SELECT (ARRAY['${RISK_LEVELS.join("','")}'])[x.rank] AS value, count(*) AS count
         FROM (SELECT ${DERIVED_SQL.severity_rank} AS rank FROM applications a ${derivedJoins(['severity'])} WHERE a.tenant_id = $1) x GROUP BY x.rank`,
      ),
      owner_type: await q(
        'SELECT owner_type AS value, count(DISTINCT application_id) AS count FROM application_owners WHERE tenant_id = $1 GROUP BY owner_type',
      ),
      environment: await q(
        `SELECT e.environment AS value, count(DISTINCT s.application_id) AS count
         FROM application_services s
         JOIN (SELECT service_id, environment FROM package_observations WHERE tenant_id = $1 AND environment <> ''
               UNION
               SELECT sr.service_id, r.environment FROM service_resources sr
               JOIN resources r ON r.tenant_id = sr.tenant_id AND r.platform_id = sr.platform_id
               WHERE sr.tenant_id = $1 AND r.environment IS NOT NULL) e ON e.service_id = s.service_id
         WHERE s.tenant_id = $1 AND e.environment = ANY(ARRAY['${ENVIRONMENTS.join("','")}'])
         GROUP BY e.environment`,
      ),
      graph_categories: await q('SELECT category AS value, count(*) AS count FROM resources WHERE tenant_id = $1 GROUP BY category'),
    };
  }
}

/** pg parses json columns; be tolerant of drivers that hand back text. */
function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
}

function parseIntArray(value: unknown): number[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.map(Number);
  // A driver without array parsing gives the literal `{1,2,3}`.
  const inner = String(value).replace(/^\{|\}$/g, '');
  return inner ? inner.split(',').map(Number) : [];
}

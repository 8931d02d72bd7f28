import type { DataSource, EntityManager } from 'typeorm';
import { applicationNameKey } from '../../applications/application-name';
import { INTEGRATION_PROVIDERS } from '../../settings/integration-providers';
import { categoryForResourceType } from '../resource-category';
import { affectedRows, SqlParams, unnestColumns } from '../../database/sql-params';
import type {
  ImportApplication,
  ImportCodeRoot,
  ImportFindingCount,
  ImportIntegration,
  ImportPackage,
  ImportRelation,
  ImportResource,
  ImportService,
  ImportTenantSettings,
} from '../import-document';
import { splitCodeRootId } from '../import-document';

const json = (v: unknown) => JSON.stringify(v ?? null);
type Column = { values: readonly (string | number | boolean | null)[]; cast: 'text' | 'int' | 'bool' };
const text = (values: readonly (string | null)[]): Column => ({ values, cast: 'text' });
const int = (values: readonly (number | null)[]): Column => ({ values, cast: 'int' });
const bool = (values: readonly boolean[]): Column => ({ values, cast: 'bool' });

/**
 * Bulk writes of the import. Each section is one statement over `unnest(...)` of packed columns, so
 * a document of thousands of rows costs a handful of round trips. Every method runs on the caller's
 * transaction manager; `$1` is always the tenant.
 */
export class InventoryImportRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** `sql(from)` gets `unnest(...) AS t(...)` over the columns. */
  private async bulk(manager: EntityManager, tenantId: string, columns: Record<string, Column>, sql: (from: string) => string): Promise<unknown[]> {
    const p = new SqlParams();
    p.add(tenantId);
    const from = unnestColumns(p, columns);
    return (await manager.query(sql(from), p.values)) as unknown[];
  }

  /** Serialises imports of one tenant (two concurrent imports never interleave). */
  async lockTenant(manager: EntityManager, tenantId: string): Promise<void> {
    await manager.query("SELECT pg_advisory_xact_lock(hashtext('inventory-import:' || $1))", [tenantId]);
  }

  async tenantInventoryIsEmpty(manager: EntityManager, tenantId: string): Promise<boolean> {
    const rows = (await manager.query(
      'SELECT (SELECT count(*) FROM applications WHERE tenant_id = $1) + (SELECT count(*) FROM inventory_services WHERE tenant_id = $1) AS n',
      [tenantId],
    )) as { n: string }[];
    return Number(rows[0]?.n ?? 0) === 0;
  }

  /** Writes the tenant's limits: a field left out is unchanged (merge) or back to the default (replace). */
  async setTenantLimits(manager: EntityManager, tenantId: string, settings: ImportTenantSettings, replace: boolean): Promise<void> {
    const params: (string | number | null)[] = [tenantId];
    const sets: string[] = [];
    for (const column of ['rate_limit_per_minute', 'oauth_mcp_rate_limit_per_minute'] as const) {
      const value = settings[column];
      if (value === undefined && !replace) continue;
      params.push(value ?? null);
      sets.push(`${column} = $${params.length}`);
    }
    if (sets.length > 0) await manager.query(`UPDATE tenants SET ${sets.join(', ')} WHERE id = $1`, params);
  }

  async existingServiceIds(manager: EntityManager, tenantId: string, ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = (await manager.query('SELECT id FROM inventory_services WHERE tenant_id = $1 AND id = ANY($2::int[])', [tenantId, ids])) as { id: number }[];
    return new Set(rows.map((r) => Number(r.id)));
  }

  async existingCodeRoots(manager: EntityManager, tenantId: string, ids: string[]): Promise<Map<string, number>> {
    if (!ids.length) return new Map();
    const rows = (await manager.query('SELECT id, service_id FROM code_roots WHERE tenant_id = $1 AND id = ANY($2::text[])', [tenantId, ids])) as {
      id: string;
      service_id: number;
    }[];
    return new Map(rows.map((r) => [r.id, Number(r.service_id)]));
  }

  async existingResourceIds(manager: EntityManager, tenantId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = (await manager.query('SELECT platform_id FROM resources WHERE tenant_id = $1 AND platform_id = ANY($2::text[])', [tenantId, ids])) as {
      platform_id: string;
    }[];
    return new Set(rows.map((r) => r.platform_id));
  }

  /** Deletes rows of `table` in the tenant whose key is not in `keep`; returns how many. */
  private async deleteOthers(manager: EntityManager, table: string, keyColumn: string, keep: Column, tenantId: string): Promise<number> {
    return affectedRows(await this.bulk(manager, tenantId, { k: keep }, (from) => `DELETE FROM ${table} WHERE tenant_id = $1 AND ${keyColumn} NOT IN (SELECT t.k FROM ${from})`));
  }

  private async deleteAll(manager: EntityManager, table: string, tenantId: string): Promise<number> {
    return affectedRows(await manager.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [tenantId]));
  }

  async upsertServices(manager: EntityManager, tenantId: string, services: ImportService[], replace: boolean): Promise<number> {
    const deleted = replace ? await this.deleteOthers(manager, 'inventory_services', 'id', int(services.map((s) => s.id)), tenantId) : 0;
    if (!services.length) return deleted;
    await this.bulk(
      manager,
      tenantId,
      {
        id: int(services.map((s) => s.id)),
        name: text(services.map((s) => s.name)),
        source_type: text(services.map((s) => s.source_type ?? null)),
        source_id: int(services.map((s) => s.source_id ?? 0)),
        meta: text(services.map((s) => json(s.meta ?? {}))),
      },
      (from) => `INSERT INTO inventory_services (tenant_id, id, name, source_type, source_id, meta)
         SELECT $1, t.id, t.name, t.source_type, t.source_id, t.meta::jsonb FROM ${from}
         ON CONFLICT (tenant_id, id) DO UPDATE SET name = EXCLUDED.name, source_type = EXCLUDED.source_type, source_id = EXCLUDED.source_id, meta = EXCLUDED.meta`,
    );
    return deleted;
  }

  async upsertCodeRoots(manager: EntityManager, tenantId: string, roots: ImportCodeRoot[], replace: boolean): Promise<number> {
    const deleted = replace ? await this.deleteOthers(manager, 'code_roots', 'id', text(roots.map((r) => r.id)), tenantId) : 0;
    if (!roots.length) return deleted;
    await this.bulk(
      manager,
      tenantId,
      {
        id: text(roots.map((r) => r.id)),
        service_id: int(roots.map((r) => r.service_id)),
        repository: text(roots.map((r) => r.repository ?? splitCodeRootId(r.id).repository)),
        path: text(roots.map((r) => r.path ?? splitCodeRootId(r.id).path)),
        default_branch: text(roots.map((r) => r.default_branch ?? null)),
      },
      (from) => `INSERT INTO code_roots (tenant_id, id, service_id, repository, path, default_branch)
         SELECT $1, t.id, t.service_id, t.repository, t.path, t.default_branch FROM ${from}
         ON CONFLICT (tenant_id, id) DO UPDATE SET service_id = EXCLUDED.service_id, repository = EXCLUDED.repository, path = EXCLUDED.path, default_branch = EXCLUDED.default_branch`,
    );
    return deleted;
  }

  /** Upserts resources and sets, for each one, exactly the services that use it. */
  async upsertResources(manager: EntityManager, tenantId: string, resources: ImportResource[], replace: boolean): Promise<number> {
    const ids = text(resources.map((r) => r.platform_id));
    const deleted = replace ? await this.deleteOthers(manager, 'resources', 'platform_id', ids, tenantId) : 0;
    if (!resources.length) return deleted;
    await this.bulk(
      manager,
      tenantId,
      {
        platform_id: ids,
        resource_type: text(resources.map((r) => r.resource_type)),
        source_type: text(resources.map((r) => r.source_type ?? null)),
        category: text(resources.map((r) => r.category ?? categoryForResourceType(r.resource_type))),
        name: text(resources.map((r) => r.name ?? null)),
        provider: text(resources.map((r) => r.provider ?? null)),
        region: text(resources.map((r) => r.region ?? null)),
        environment: text(resources.map((r) => r.environment ?? null)),
      },
      (from) => `INSERT INTO resources (tenant_id, platform_id, resource_type, source_type, category, name, provider, region, environment)
       SELECT $1, t.platform_id, t.resource_type, t.source_type, t.category, t.name, t.provider, t.region, t.environment FROM ${from}
       ON CONFLICT (tenant_id, platform_id) DO UPDATE SET resource_type = EXCLUDED.resource_type, source_type = EXCLUDED.source_type, category = EXCLUDED.category,
         name = EXCLUDED.name, provider = EXCLUDED.provider, region = EXCLUDED.region, environment = EXCLUDED.environment`,
    );
    const links = resources.flatMap((r) => [...new Set(r.service_ids ?? [])].map((sid) => [sid, r.platform_id] as const));
    // Remove links no longer given, add new ones; unchanged links are left alone.
    await this.bulk(
      manager,
      tenantId,
      { s: int(links.map((l) => l[0])), p: text(links.map((l) => l[1])) },
      (from) => `DELETE FROM service_resources sr WHERE sr.tenant_id = $1 AND sr.platform_id IN (SELECT t.p FROM ${from})
         AND (sr.service_id, sr.platform_id) NOT IN (SELECT t.s, t.p FROM ${from})`,
    );
    // Resources listed with no services at all lose every link.
    const unlinked = resources.filter((r) => !(r.service_ids ?? []).length).map((r) => r.platform_id);
    if (unlinked.length) await this.bulk(manager, tenantId, { p: text(unlinked) }, (from) => `DELETE FROM service_resources WHERE tenant_id = $1 AND platform_id IN (SELECT t.p FROM ${from})`);
    if (links.length) {
      await this.bulk(
        manager,
        tenantId,
        { s: int(links.map((l) => l[0])), p: text(links.map((l) => l[1])) },
        (from) => `INSERT INTO service_resources (tenant_id, service_id, platform_id) SELECT $1, t.s, t.p FROM ${from} ON CONFLICT DO NOTHING`,
      );
    }
    return deleted;
  }

  async upsertRelations(manager: EntityManager, tenantId: string, relations: ImportRelation[], replace: boolean): Promise<number> {
    const deleted = replace ? await this.deleteAll(manager, 'inventory_relations', tenantId) : 0;
    if (!relations.length) return deleted;
    await this.bulk(
      manager,
      tenantId,
      { s: text(relations.map((r) => r.source)), t: text(relations.map((r) => r.target)), r: text(relations.map((r) => r.relation)) },
      (from) => `INSERT INTO inventory_relations (tenant_id, source_node, target_node, relation) SELECT $1, t.s, t.t, t.r FROM ${from} ON CONFLICT DO NOTHING`,
    );
    return deleted;
  }

  async upsertPackages(manager: EntityManager, tenantId: string, packages: ImportPackage[], replace: boolean): Promise<number> {
    const deleted = replace ? await this.deleteAll(manager, 'package_observations', tenantId) : 0;
    if (!packages.length) return deleted;
    await this.bulk(
      manager,
      tenantId,
      {
        service_id: int(packages.map((p) => p.service_id)),
        coderoot_id: text(packages.map((p) => p.coderoot_id ?? '')),
        environment: text(packages.map((p) => p.environment ?? '')),
        purl: text(packages.map((p) => p.purl)),
        name: text(packages.map((p) => p.name)),
        grp: text(packages.map((p) => p.group ?? null)),
        version: text(packages.map((p) => p.version ?? null)),
        type: text(packages.map((p) => p.type ?? null)),
        scope: text(packages.map((p) => p.scope ?? null)),
        direct: bool(packages.map((p) => p.direct ?? true)),
        hashes: text(packages.map((p) => json(p.hashes ?? []))),
        licenses: text(packages.map((p) => json(p.licenses ?? []))),
        depends_on: text(packages.map((p) => json(p.depends_on ?? []))),
      },
      (from) => `INSERT INTO package_observations (tenant_id, service_id, coderoot_id, environment, purl, name, "group", version, type, scope, direct, hashes, licenses, depends_on)
         SELECT $1, t.service_id, t.coderoot_id, t.environment, t.purl, t.name, t.grp, t.version, t.type, t.scope, t.direct, t.hashes::jsonb, t.licenses::jsonb, t.depends_on::jsonb
         FROM ${from}
         ON CONFLICT (tenant_id, service_id, coderoot_id, environment, purl) DO UPDATE SET name = EXCLUDED.name, "group" = EXCLUDED."group", version = EXCLUDED.version,
           type = EXCLUDED.type, scope = EXCLUDED.scope, direct = EXCLUDED.direct, hashes = EXCLUDED.hashes, licenses = EXCLUDED.licenses, depends_on = EXCLUDED.depends_on`,
    );
    return deleted;
  }

  async upsertFindingCounts(manager: EntityManager, tenantId: string, counts: ImportFindingCount[], replace: boolean): Promise<number> {
    const deleted = replace ? await this.deleteAll(manager, 'service_finding_counts', tenantId) : 0;
    if (!counts.length) return deleted;
    await this.bulk(
      manager,
      tenantId,
      {
        service_id: int(counts.map((c) => c.service_id)),
        severity: text(counts.map((c) => c.severity)),
        urgent: int(counts.map((c) => c.urgent ?? 0)),
        plan: int(counts.map((c) => c.plan ?? 0)),
        defer: int(counts.map((c) => c.defer ?? 0)),
      },
      (from) => `INSERT INTO service_finding_counts (tenant_id, service_id, severity, urgent, plan, defer)
         SELECT $1, t.service_id, t.severity, t.urgent, t.plan, t.defer FROM ${from}
         ON CONFLICT (tenant_id, service_id, severity) DO UPDATE SET urgent = EXCLUDED.urgent, plan = EXCLUDED.plan, defer = EXCLUDED.defer`,
    );
    return deleted;
  }

  /**
   * Upserts applications by case-insensitive name: existing rows are updated field by field (absent
   * fields keep their value; unchanged rows are not touched, so re-importing is a no-op), new rows
   * get the defaults. Then membership (service_ids) and owners, where given.
   */
  async upsertApplications(manager: EntityManager, tenantId: string, apps: ImportApplication[], replace: boolean, defaultDescription: string): Promise<number> {
    const keys = apps.map((a) => applicationNameKey(a.name));
    const deleted = replace ? await this.deleteOthers(manager, 'applications', 'name_key', text(keys), tenantId) : 0;
    if (!apps.length) return deleted;
    const has = (a: ImportApplication, k: keyof ImportApplication) => Object.prototype.hasOwnProperty.call(a, k);
    const columns = {
      name: text(apps.map((a) => a.name.trim())),
      name_key: text(keys),
      has_description: bool(apps.map((a) => has(a, 'description'))),
      description: text(apps.map((a) => a.description ?? null)),
      tier: text(apps.map((a) => a.tier ?? null)),
      business_impact: text(apps.map((a) => a.business_impact ?? null)),
      application_type: text(apps.map((a) => a.application_type ?? null)),
      source_id: int(apps.map((a) => a.source_id ?? null)),
      has_meta: bool(apps.map((a) => has(a, 'meta'))),
      meta: text(apps.map((a) => (a.meta === undefined || a.meta === null ? null : json(a.meta)))),
    };
    const newDescription = 'CASE WHEN t.has_description THEN t.description ELSE a.description END';
    const newMeta = "CASE WHEN t.has_meta THEN COALESCE(t.meta::jsonb, '{}'::jsonb) ELSE a.meta END";
    await this.bulk(
      manager,
      tenantId,
      columns,
      (from) => `UPDATE applications a SET name = t.name, description = ${newDescription}, tier = COALESCE(t.tier, a.tier),
         business_impact = COALESCE(t.business_impact, a.business_impact), application_type = COALESCE(t.application_type, a.application_type),
         source_id = COALESCE(t.source_id, a.source_id), meta = ${newMeta}, updated = now()
       FROM ${from}
       WHERE a.tenant_id = $1 AND a.name_key = t.name_key
         AND (a.name, a.description, a.tier, a.business_impact, a.application_type, a.source_id, a.meta) IS DISTINCT FROM
             (t.name, ${newDescription}, COALESCE(t.tier, a.tier), COALESCE(t.business_impact, a.business_impact),
              COALESCE(t.application_type, a.application_type), COALESCE(t.source_id, a.source_id), ${newMeta})`,
    );
    const p = new SqlParams();
    p.add(tenantId);
    const from = unnestColumns(p, columns);
    const description = p.add(defaultDescription);
    await manager.query(
      `INSERT INTO applications (tenant_id, name, name_key, description, tier, business_impact, application_type, source_id, meta)
       SELECT $1, t.name, t.name_key, CASE WHEN t.has_description THEN t.description ELSE ${description} END,
              COALESCE(t.tier, 'TIER_1'), COALESCE(t.business_impact, 'HIGH'), COALESCE(t.application_type, 'static'), COALESCE(t.source_id, 0), COALESCE(t.meta::jsonb, '{}'::jsonb)
       FROM ${from}
       ON CONFLICT (tenant_id, name_key) DO NOTHING`,
      p.values,
    );
    const rows = (await this.bulk(manager, tenantId, { k: text(keys) }, (f) => `SELECT id, name_key FROM applications WHERE tenant_id = $1 AND name_key IN (SELECT t.k FROM ${f})`)) as {
      id: number;
      name_key: string;
    }[];
    const idByKey = new Map(rows.map((r) => [r.name_key, Number(r.id)]));
    const idOf = (a: ImportApplication) => idByKey.get(applicationNameKey(a.name))!;

    const withServices = apps.filter((a) => a.service_ids !== undefined);
    if (withServices.length) {
      const pairs = withServices.flatMap((a) => [...new Set(a.service_ids!)].map((sid) => [idOf(a), sid] as const));
      await this.bulk(
        manager,
        tenantId,
        { a: int(withServices.map(idOf)) },
        (f) => `DELETE FROM application_services WHERE tenant_id = $1 AND application_id IN (SELECT t.a FROM ${f})`,
      );
      if (pairs.length) {
        await this.bulk(
          manager,
          tenantId,
          { a: int(pairs.map((x) => x[0])), s: int(pairs.map((x) => x[1])) },
          (f) => `INSERT INTO application_services (application_id, service_id, tenant_id) SELECT t.a, t.s, $1 FROM ${f} ON CONFLICT DO NOTHING`,
        );
      }
    }
    const ownerRows: { app: number; type: string; pos: number; login: string; name: string }[] = [];
    const ownerClears: { app: number; type: string }[] = [];
    for (const a of apps) {
      for (const [type, list] of Object.entries(a.owners ?? {})) {
        ownerClears.push({ app: idOf(a), type });
        (list ?? []).forEach((o, pos) => ownerRows.push({ app: idOf(a), type, pos, login: o.login.trim(), name: o.name }));
      }
    }
    if (ownerClears.length) {
      await this.bulk(
        manager,
        tenantId,
        { a: int(ownerClears.map((c) => c.app)), ty: text(ownerClears.map((c) => c.type)) },
        (f) => `DELETE FROM application_owners o USING ${f} WHERE o.tenant_id = $1 AND o.application_id = t.a AND o.owner_type = t.ty`,
      );
    }
    if (ownerRows.length) {
      await this.bulk(
        manager,
        tenantId,
        {
          a: int(ownerRows.map((o) => o.app)),
          ty: text(ownerRows.map((o) => o.type)),
          pos: int(ownerRows.map((o) => o.pos)),
          login: text(ownerRows.map((o) => o.login)),
          name: text(ownerRows.map((o) => o.name)),
        },
        (f) => `INSERT INTO application_owners (application_id, owner_type, position, tenant_id, login, name) SELECT t.a, t.ty, t.pos, $1, t.login, t.name FROM ${f}`,
      );
    }
    return deleted;
  }

  /**
   * Refreshes planner statistics after a bulk load: without them the read queries (membership ×
   * resources joins) planned sequential scans and a page of 100 took ~10× longer.
   */
  async analyzeInventoryTables(manager: EntityManager): Promise<void> {
    await manager.query(
      'ANALYZE inventory_services, code_roots, resources, service_resources, inventory_relations, service_finding_counts, package_observations, applications, application_services, application_owners',
    );
  }

  /** Every dynamic application of the tenant contains exactly the services of its source_id. */
  async refreshDynamicMembership(manager: EntityManager, tenantId: string): Promise<void> {
    await manager.query(
      `DELETE FROM application_services s USING applications a
       WHERE s.application_id = a.id AND a.tenant_id = $1 AND a.application_type = 'dynamic' AND a.source_id > 0
         AND NOT EXISTS (SELECT 1 FROM inventory_services sv WHERE sv.tenant_id = $1 AND sv.id = s.service_id AND sv.source_id = a.source_id)`,
      [tenantId],
    );
    await manager.query(
      `INSERT INTO application_services (application_id, service_id, tenant_id)
       SELECT a.id, sv.id, $1 FROM applications a JOIN inventory_services sv ON sv.tenant_id = a.tenant_id AND sv.source_id = a.source_id
       WHERE a.tenant_id = $1 AND a.application_type = 'dynamic' AND a.source_id > 0
       ON CONFLICT DO NOTHING`,
      [tenantId],
    );
  }

  async upsertIntegrations(manager: EntityManager, tenantId: string, integrations: Partial<Record<string, ImportIntegration>>, replace: boolean): Promise<number> {
    // Only the providers the settings endpoint reports; other keys are ignored like any unknown field
    // (a null or oversized unknown key used to reach the INSERT and become a 500).
    const entries = Object.entries(integrations).filter((e): e is [string, ImportIntegration] => e[1] !== undefined && (INTEGRATION_PROVIDERS as readonly string[]).includes(e[0]));
    const deleted = replace ? await this.deleteOthers(manager, 'integration_settings', 'provider', text(entries.map((e) => e[0])), tenantId) : 0;
    for (const [provider, s] of entries) {
      await manager.query(
        `INSERT INTO integration_settings (tenant_id, provider, enabled, orgs, accounts) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb)
         ON CONFLICT (tenant_id, provider) DO UPDATE SET enabled = EXCLUDED.enabled, orgs = EXCLUDED.orgs, accounts = EXCLUDED.accounts`,
        [tenantId, provider, s.enabled, json([...new Set(s.orgs ?? [])].sort()), json([...new Set(s.accounts ?? [])].sort())],
      );
    }
    return deleted;
  }
}

import type { DataSource } from 'typeorm';
import { boolColumn, bulkQuery, deleteAllOfTenant, deleteOthers, intColumn, jsonText, textColumn } from '../../database/bulk-sql';
import { managerOf, type Transaction } from '../../database/unit-of-work';
import {
  splitCodeRootId,
  type ImportCodeRoot,
  type ImportFindingCount,
  type ImportPackage,
  type ImportRelation,
  type ImportResource,
  type ImportService,
} from '../inventory-rows';
import { categoryForResourceType } from '../resource-category';

/**
 * Bulk writes of the inventory's tables, for the import. Each section is one statement over
 * `unnest(...)` of packed columns, so a document of thousands of rows costs a handful of round
 * trips. Every method runs in the caller's unit of work; `$1` is always the tenant.
 */
export class InventoryWriterRepository {
  constructor(private readonly dataSource: DataSource) {}

  private db(tx: Transaction) {
    return managerOf(this.dataSource, tx);
  }

  /** Serialises imports of one tenant (two concurrent imports never interleave); held until the transaction ends. */
  async lockTenant(tx: Transaction, tenantId: string): Promise<void> {
    await this.db(tx).query("SELECT pg_advisory_xact_lock(hashtext('inventory-import:' || $1))", [tenantId]);
  }
  async existingServiceIds(tx: Transaction, tenantId: string, ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = (await this.db(tx).query('SELECT id FROM inventory_services WHERE tenant_id = $1 AND id = ANY($2::int[])', [tenantId, ids])) as {
      id: number;
    }[];
    return new Set(rows.map((r) => Number(r.id)));
  }
  async existingCodeRoots(tx: Transaction, tenantId: string, ids: string[]): Promise<Map<string, number>> {
    if (!ids.length) return new Map();
    const rows = (await this.db(tx).query('SELECT id, service_id FROM code_roots WHERE tenant_id = $1 AND id = ANY($2::text[])', [tenantId, ids])) as {
      id: string;
      service_id: number;
    }[];
    return new Map(rows.map((r) => [r.id, Number(r.service_id)]));
  }
  async existingResourceIds(tx: Transaction, tenantId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = (await this.db(tx).query('SELECT platform_id FROM resources WHERE tenant_id = $1 AND platform_id = ANY($2::text[])', [tenantId, ids])) as {
      platform_id: string;
    }[];
    return new Set(rows.map((r) => r.platform_id));
  }
  async upsertServices(tx: Transaction, tenantId: string, services: ImportService[], replace: boolean): Promise<number> {
    const deleted = replace ? await deleteOthers(this.db(tx), 'inventory_services', 'id', intColumn(services.map((s) => s.id)), tenantId) : 0;
    if (!services.length) return deleted;
    await bulkQuery(
      this.db(tx),
      tenantId,
      {
        id: intColumn(services.map((s) => s.id)),
        name: textColumn(services.map((s) => s.name)),
        source_type: textColumn(services.map((s) => s.source_type ?? null)),
        source_id: intColumn(services.map((s) => s.source_id ?? 0)),
        meta: textColumn(services.map((s) => jsonText(s.meta ?? {}))),
      },
      (from) => `INSERT INTO inventory_services (tenant_id, id, name, source_type, source_id, meta)
         SELECT $1, t.id, t.name, t.source_type, t.source_id, t.meta::jsonb FROM ${from}
         ON CONFLICT (tenant_id, id) DO UPDATE SET name = EXCLUDED.name, source_type = EXCLUDED.source_type, source_id = EXCLUDED.source_id, meta = EXCLUDED.meta`,
    );
    return deleted;
  }
  async upsertCodeRoots(tx: Transaction, tenantId: string, roots: ImportCodeRoot[], replace: boolean): Promise<number> {
    const deleted = replace ? await deleteOthers(this.db(tx), 'code_roots', 'id', textColumn(roots.map((r) => r.id)), tenantId) : 0;
    if (!roots.length) return deleted;
    await bulkQuery(
      this.db(tx),
      tenantId,
      {
        id: textColumn(roots.map((r) => r.id)),
        service_id: intColumn(roots.map((r) => r.service_id)),
        repository: textColumn(roots.map((r) => r.repository ?? splitCodeRootId(r.id).repository)),
        path: textColumn(roots.map((r) => r.path ?? splitCodeRootId(r.id).path)),
        default_branch: textColumn(roots.map((r) => r.default_branch ?? null)),
      },
      (from) => `INSERT INTO code_roots (tenant_id, id, service_id, repository, path, default_branch)
         SELECT $1, t.id, t.service_id, t.repository, t.path, t.default_branch FROM ${from}
         ON CONFLICT (tenant_id, id) DO UPDATE SET service_id = EXCLUDED.service_id, repository = EXCLUDED.repository, path = EXCLUDED.path, default_branch = EXCLUDED.default_branch`,
    );
    return deleted;
  }
  /** Upserts resources and sets, for each one, exactly the services that use it. */
  async upsertResources(tx: Transaction, tenantId: string, resources: ImportResource[], replace: boolean): Promise<number> {
    const ids = textColumn(resources.map((r) => r.platform_id));
    const deleted = replace ? await deleteOthers(this.db(tx), 'resources', 'platform_id', ids, tenantId) : 0;
    if (!resources.length) return deleted;
    await bulkQuery(
      this.db(tx),
      tenantId,
      {
        platform_id: ids,
        resource_type: textColumn(resources.map((r) => r.resource_type)),
        source_type: textColumn(resources.map((r) => r.source_type ?? null)),
        category: textColumn(resources.map((r) => r.category ?? categoryForResourceType(r.resource_type))),
        name: textColumn(resources.map((r) => r.name ?? null)),
        provider: textColumn(resources.map((r) => r.provider ?? null)),
        region: textColumn(resources.map((r) => r.region ?? null)),
        environment: textColumn(resources.map((r) => r.environment ?? null)),
      },
      (from) => `INSERT INTO resources (tenant_id, platform_id, resource_type, source_type, category, name, provider, region, environment)
       SELECT $1, t.platform_id, t.resource_type, t.source_type, t.category, t.name, t.provider, t.region, t.environment FROM ${from}
       ON CONFLICT (tenant_id, platform_id) DO UPDATE SET resource_type = EXCLUDED.resource_type, source_type = EXCLUDED.source_type, category = EXCLUDED.category,
         name = EXCLUDED.name, provider = EXCLUDED.provider, region = EXCLUDED.region, environment = EXCLUDED.environment`,
    );
    const links = resources.flatMap((r) => [...new Set(r.service_ids ?? [])].map((sid) => [sid, r.platform_id] as const));
    // Remove links no longer given, add new ones; unchanged links are left alone.
    await bulkQuery(
      this.db(tx),
      tenantId,
      { s: intColumn(links.map((l) => l[0])), p: textColumn(links.map((l) => l[1])) },
      (from) => `DELETE FROM service_resources sr WHERE sr.tenant_id = $1 AND sr.platform_id IN (SELECT t.p FROM ${from})
         AND (sr.service_id, sr.platform_id) NOT IN (SELECT t.s, t.p FROM ${from})`,
    );
    // Resources listed with no services at all lose every link.
    const unlinked = resources.filter((r) => !(r.service_ids ?? []).length).map((r) => r.platform_id);
    if (unlinked.length)
      await bulkQuery(
        this.db(tx),
        tenantId,
        { p: textColumn(unlinked) },
        (from) => `DELETE FROM service_resources WHERE tenant_id = $1 AND platform_id IN (SELECT t.p FROM ${from})`,
      );
    if (links.length) {
      await bulkQuery(
        this.db(tx),
        tenantId,
        { s: intColumn(links.map((l) => l[0])), p: textColumn(links.map((l) => l[1])) },
        (from) => `INSERT INTO service_resources (tenant_id, service_id, platform_id) SELECT $1, t.s, t.p FROM ${from} ON CONFLICT DO NOTHING`,
      );
    }
    return deleted;
  }
  async upsertRelations(tx: Transaction, tenantId: string, relations: ImportRelation[], replace: boolean): Promise<number> {
    const deleted = replace ? await deleteAllOfTenant(this.db(tx), 'inventory_relations', tenantId) : 0;
    if (!relations.length) return deleted;
    await bulkQuery(
      this.db(tx),
      tenantId,
      { s: textColumn(relations.map((r) => r.source)), t: textColumn(relations.map((r) => r.target)), r: textColumn(relations.map((r) => r.relation)) },
      (from) => `INSERT INTO inventory_relations (tenant_id, source_node, target_node, relation) SELECT $1, t.s, t.t, t.r FROM ${from} ON CONFLICT DO NOTHING`,
    );
    return deleted;
  }
  async upsertPackages(tx: Transaction, tenantId: string, packages: ImportPackage[], replace: boolean): Promise<number> {
    const deleted = replace ? await deleteAllOfTenant(this.db(tx), 'package_observations', tenantId) : 0;
    if (!packages.length) return deleted;
    await bulkQuery(
      this.db(tx),
      tenantId,
      {
        service_id: intColumn(packages.map((p) => p.service_id)),
        coderoot_id: textColumn(packages.map((p) => p.coderoot_id ?? '')),
        environment: textColumn(packages.map((p) => p.environment ?? '')),
        purl: textColumn(packages.map((p) => p.purl)),
        name: textColumn(packages.map((p) => p.name)),
        grp: textColumn(packages.map((p) => p.group ?? null)),
        version: textColumn(packages.map((p) => p.version ?? null)),
        type: textColumn(packages.map((p) => p.type ?? null)),
        scope: textColumn(packages.map((p) => p.scope ?? null)),
        direct: boolColumn(packages.map((p) => p.direct ?? true)),
        hashes: textColumn(packages.map((p) => jsonText(p.hashes ?? []))),
        licenses: textColumn(packages.map((p) => jsonText(p.licenses ?? []))),
        depends_on: textColumn(packages.map((p) => jsonText(p.depends_on ?? []))),
      },
      (
        from,
      ) => `INSERT INTO package_observations (tenant_id, service_id, coderoot_id, environment, purl, name, "group", version, type, scope, direct, hashes, licenses, depends_on)
         SELECT $1, t.service_id, t.coderoot_id, t.environment, t.purl, t.name, t.grp, t.version, t.type, t.scope, t.direct, t.hashes::jsonb, t.licenses::jsonb, t.depends_on::jsonb
         FROM ${from}
         ON CONFLICT (tenant_id, service_id, coderoot_id, environment, purl) DO UPDATE SET name = EXCLUDED.name, "group" = EXCLUDED."group", version = EXCLUDED.version,
           type = EXCLUDED.type, scope = EXCLUDED.scope, direct = EXCLUDED.direct, hashes = EXCLUDED.hashes, licenses = EXCLUDED.licenses, depends_on = EXCLUDED.depends_on`,
    );
    return deleted;
  }
  async upsertFindingCounts(tx: Transaction, tenantId: string, counts: ImportFindingCount[], replace: boolean): Promise<number> {
    const deleted = replace ? await deleteAllOfTenant(this.db(tx), 'service_finding_counts', tenantId) : 0;
    if (!counts.length) return deleted;
    await bulkQuery(
      this.db(tx),
      tenantId,
      {
        service_id: intColumn(counts.map((c) => c.service_id)),
        severity: textColumn(counts.map((c) => c.severity)),
        urgent: intColumn(counts.map((c) => c.urgent ?? 0)),
        plan: intColumn(counts.map((c) => c.plan ?? 0)),
        defer: intColumn(counts.map((c) => c.defer ?? 0)),
      },
      (from) => `INSERT INTO service_finding_counts (tenant_id, service_id, severity, urgent, plan, defer)
         SELECT $1, t.service_id, t.severity, t.urgent, t.plan, t.defer FROM ${from}
         ON CONFLICT (tenant_id, service_id, severity) DO UPDATE SET urgent = EXCLUDED.urgent, plan = EXCLUDED.plan, defer = EXCLUDED.defer`,
    );
    return deleted;
  }
  async isEmpty(tx: Transaction, tenantId: string): Promise<boolean> {
    const rows = (await this.db(tx).query('SELECT count(*) AS n FROM inventory_services WHERE tenant_id = $1', [tenantId])) as { n: string }[];
    return Number(rows[0]?.n ?? 0) === 0;
  }

  /** Planner statistics of the inventory's tables after a bulk load. */
  async analyze(tx: Transaction): Promise<void> {
    await this.db(tx).query(
      'ANALYZE inventory_services, code_roots, resources, service_resources, inventory_relations, service_finding_counts, package_observations',
    );
  }
}

import type { DataSource } from 'typeorm';
import { boolColumn, bulkQuery, deleteOthers, intColumn, jsonText, textColumn } from '../../database/bulk-sql';
import { SqlParams, unnestColumns } from '../../database/sql-params';
import { managerOf, type Transaction } from '../../database/unit-of-work';
import type { ApplicationImport } from '../application-import';
import { applicationNameKey } from '../application-name';

/** Bulk writes of applications, membership and owners for the inventory import (one statement per step, `$1` = the tenant). */
export class ApplicationImportRepository {
  constructor(private readonly dataSource: DataSource) {}

  private db(tx: Transaction) {
    return managerOf(this.dataSource, tx);
  }

  async count(tx: Transaction, tenantId: string): Promise<number> {
    const rows = (await this.db(tx).query('SELECT count(*) AS n FROM applications WHERE tenant_id = $1', [tenantId])) as { n: string }[];
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Upserts applications by case-insensitive name: existing rows are updated field by field (absent
   * fields keep their value; unchanged rows are not touched, so re-importing is a no-op), new rows
   * get the defaults. Then membership (service_ids) and owners, where given.
   */
  async upsertApplications(tx: Transaction, tenantId: string, apps: ApplicationImport[], replace: boolean, defaultDescription: string): Promise<number> {
    const keys = apps.map((a) => applicationNameKey(a.name));
    const deleted = replace ? await deleteOthers(this.db(tx), 'applications', 'name_key', textColumn(keys), tenantId) : 0;
    if (!apps.length) return deleted;
    const has = (a: ApplicationImport, k: keyof ApplicationImport) => Object.prototype.hasOwnProperty.call(a, k);
    const columns = {
      name: textColumn(apps.map((a) => a.name.trim())),
      name_key: textColumn(keys),
      has_description: boolColumn(apps.map((a) => has(a, 'description'))),
      description: textColumn(apps.map((a) => a.description ?? null)),
      tier: textColumn(apps.map((a) => a.tier ?? null)),
      business_impact: textColumn(apps.map((a) => a.business_impact ?? null)),
      application_type: textColumn(apps.map((a) => a.application_type ?? null)),
      source_id: intColumn(apps.map((a) => a.source_id ?? null)),
      has_meta: boolColumn(apps.map((a) => has(a, 'meta'))),
      meta: textColumn(apps.map((a) => (a.meta === undefined || a.meta === null ? null : jsonText(a.meta)))),
    };
    const newDescription = 'CASE WHEN t.has_description THEN t.description ELSE a.description END';
    const newMeta = "CASE WHEN t.has_meta THEN COALESCE(t.meta::jsonb, '{}'::jsonb) ELSE a.meta END";
    await bulkQuery(
      this.db(tx),
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
    await this.db(tx).query(
      `INSERT INTO applications (tenant_id, name, name_key, description, tier, business_impact, application_type, source_id, meta)
       SELECT $1, t.name, t.name_key, CASE WHEN t.has_description THEN t.description ELSE ${description} END,
              COALESCE(t.tier, 'TIER_1'), COALESCE(t.business_impact, 'HIGH'), COALESCE(t.application_type, 'static'), COALESCE(t.source_id, 0), COALESCE(t.meta::jsonb, '{}'::jsonb)
       FROM ${from}
       ON CONFLICT (tenant_id, name_key) DO NOTHING`,
      p.values,
    );
    const rows = (await bulkQuery(
      this.db(tx),
      tenantId,
      { k: textColumn(keys) },
      (f) => `SELECT id, name_key FROM applications WHERE tenant_id = $1 AND name_key IN (SELECT t.k FROM ${f})`,
    )) as {
      id: number;
      name_key: string;
    }[];
    const idByKey = new Map(rows.map((r) => [r.name_key, Number(r.id)]));
    const idOf = (a: ApplicationImport) => idByKey.get(applicationNameKey(a.name))!;

    const withServices = apps.filter((a) => a.service_ids !== undefined);
    if (withServices.length) {
      const pairs = withServices.flatMap((a) => [...new Set(a.service_ids!)].map((sid) => [idOf(a), sid] as const));
      await bulkQuery(
        this.db(tx),
        tenantId,
        { a: intColumn(withServices.map(idOf)) },
        (f) => `DELETE FROM application_services WHERE tenant_id = $1 AND application_id IN (SELECT t.a FROM ${f})`,
      );
      if (pairs.length) {
        await bulkQuery(
          this.db(tx),
          tenantId,
          { a: intColumn(pairs.map((x) => x[0])), s: intColumn(pairs.map((x) => x[1])) },
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
      await bulkQuery(
        this.db(tx),
        tenantId,
        { a: intColumn(ownerClears.map((c) => c.app)), ty: textColumn(ownerClears.map((c) => c.type)) },
        (f) => `DELETE FROM application_owners o USING ${f} WHERE o.tenant_id = $1 AND o.application_id = t.a AND o.owner_type = t.ty`,
      );
    }
    if (ownerRows.length) {
      await bulkQuery(
        this.db(tx),
        tenantId,
        {
          a: intColumn(ownerRows.map((o) => o.app)),
          ty: textColumn(ownerRows.map((o) => o.type)),
          pos: intColumn(ownerRows.map((o) => o.pos)),
          login: textColumn(ownerRows.map((o) => o.login)),
          name: textColumn(ownerRows.map((o) => o.name)),
        },
        (f) =>
          `INSERT INTO application_owners (application_id, owner_type, position, tenant_id, login, name) SELECT t.a, t.ty, t.pos, $1, t.login, t.name FROM ${f}`,
      );
    }
    return deleted;
  }
  /** Every dynamic application of the tenant contains exactly the services of its source_id. */
  async refreshDynamicMembership(tx: Transaction, tenantId: string): Promise<void> {
    await this.db(tx).query(
      `DELETE FROM application_services s USING applications a
       WHERE s.application_id = a.id AND a.tenant_id = $1 AND a.application_type = 'dynamic' AND a.source_id > 0
         AND NOT EXISTS (SELECT 1 FROM inventory_services sv WHERE sv.tenant_id = $1 AND sv.id = s.service_id AND sv.source_id = a.source_id)`,
      [tenantId],
    );
    await this.db(tx).query(
      `INSERT INTO application_services (application_id, service_id, tenant_id)
       SELECT a.id, sv.id, $1 FROM applications a JOIN inventory_services sv ON sv.tenant_id = a.tenant_id AND sv.source_id = a.source_id
       WHERE a.tenant_id = $1 AND a.application_type = 'dynamic' AND a.source_id > 0
       ON CONFLICT DO NOTHING`,
      [tenantId],
    );
  }
  /** Planner statistics of the applications' tables after a bulk load. */
  async analyze(tx: Transaction): Promise<void> {
    await this.db(tx).query('ANALYZE applications, application_services, application_owners');
  }
}

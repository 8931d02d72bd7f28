import type { EntityManager } from 'typeorm';
import { affectedRows, SqlParams, unnestColumns } from './sql-params';

/** A column of a bulk statement: its values and their SQL type. */
export type BulkColumn = { values: readonly (string | number | boolean | null)[]; cast: 'text' | 'int' | 'bool' };
export const textColumn = (values: readonly (string | null)[]): BulkColumn => ({ values, cast: 'text' });
export const intColumn = (values: readonly (number | null)[]): BulkColumn => ({ values, cast: 'int' });
export const boolColumn = (values: readonly boolean[]): BulkColumn => ({ values, cast: 'bool' });
export const jsonText = (v: unknown): string => JSON.stringify(v ?? null);

/**
 * Runs `sql(from)` with `from` = `unnest(...) AS t(...)` over the packed columns and `$1` = the tenant:
 * one statement for a whole section of rows (the import writers of inventory, applications and settings).
 */
export async function bulkQuery(
  manager: EntityManager,
  tenantId: string,
  columns: Record<string, BulkColumn>,
  sql: (from: string) => string,
): Promise<unknown[]> {
  const p = new SqlParams();
  p.add(tenantId);
  const from = unnestColumns(p, columns);
  return (await manager.query(sql(from), p.values)) as unknown[];
}

/** Deletes the tenant's rows of `table` whose `keyColumn` is not in `keep`; returns how many. */
export async function deleteOthers(manager: EntityManager, table: string, keyColumn: string, keep: BulkColumn, tenantId: string): Promise<number> {
  return affectedRows(
    await bulkQuery(manager, tenantId, { k: keep }, (from) => `DELETE FROM ${table} WHERE tenant_id = $1 AND ${keyColumn} NOT IN (SELECT t.k FROM ${from})`),
  );
}

/** Deletes every row of the tenant in `table`; returns how many. */
export async function deleteAllOfTenant(manager: EntityManager, table: string, tenantId: string): Promise<number> {
  return affectedRows(await manager.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [tenantId]));
}

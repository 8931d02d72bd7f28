import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/unit-of-work';
import type { ImportCodeRoot, ImportFindingCount, ImportPackage, ImportRelation, ImportResource, ImportService } from './inventory-rows';
import { InventoryWriterRepository } from './persistence/inventory-writer.repository';

/**
 * The one writer of the inventory's tables (docs/decisions/0026-inventory-module-and-unit-of-work.md),
 * used by the import inside its unit of work. `replace` deletes the tenant's rows the section does
 * not list; each upsert returns how many rows it deleted.
 */
@Injectable()
export class InventoryWriter {
  constructor(private readonly repository: InventoryWriterRepository) {}

  /** Serialises imports of one tenant until `tx` ends. */
  lockTenant(tx: Transaction, tenantId: string): Promise<void> {
    return this.repository.lockTenant(tx, tenantId);
  }

  /** True when the tenant has no service. */
  isEmpty(tx: Transaction, tenantId: string): Promise<boolean> {
    return this.repository.isEmpty(tx, tenantId);
  }

  existingServiceIds(tx: Transaction, tenantId: string, ids: number[]): Promise<Set<number>> {
    return this.repository.existingServiceIds(tx, tenantId, ids);
  }

  /** Code root id → its service id, for the ids that exist. */
  existingCodeRoots(tx: Transaction, tenantId: string, ids: string[]): Promise<Map<string, number>> {
    return this.repository.existingCodeRoots(tx, tenantId, ids);
  }

  existingResourceIds(tx: Transaction, tenantId: string, ids: string[]): Promise<Set<string>> {
    return this.repository.existingResourceIds(tx, tenantId, ids);
  }

  upsertServices(tx: Transaction, tenantId: string, services: ImportService[], replace: boolean): Promise<number> {
    return this.repository.upsertServices(tx, tenantId, services, replace);
  }

  upsertCodeRoots(tx: Transaction, tenantId: string, roots: ImportCodeRoot[], replace: boolean): Promise<number> {
    return this.repository.upsertCodeRoots(tx, tenantId, roots, replace);
  }

  /** Resources, and for each one exactly the services that use it. */
  upsertResources(tx: Transaction, tenantId: string, resources: ImportResource[], replace: boolean): Promise<number> {
    return this.repository.upsertResources(tx, tenantId, resources, replace);
  }

  upsertRelations(tx: Transaction, tenantId: string, relations: ImportRelation[], replace: boolean): Promise<number> {
    return this.repository.upsertRelations(tx, tenantId, relations, replace);
  }

  upsertPackages(tx: Transaction, tenantId: string, packages: ImportPackage[], replace: boolean): Promise<number> {
    return this.repository.upsertPackages(tx, tenantId, packages, replace);
  }

  upsertFindingCounts(tx: Transaction, tenantId: string, counts: ImportFindingCount[], replace: boolean): Promise<number> {
    return this.repository.upsertFindingCounts(tx, tenantId, counts, replace);
  }

  /**
   * Refreshes planner statistics after a bulk load: without them the read queries (membership ×
   * resources joins) planned sequential scans and a page of 100 took ~10× longer.
   */
  analyze(tx: Transaction): Promise<void> {
    return this.repository.analyze(tx);
  }
}

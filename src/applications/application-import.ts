import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/unit-of-work';
import { DEFAULT_DESCRIPTION } from './application-enums';
import { ApplicationImportRepository } from './persistence/application-import.repository';

export interface ApplicationOwnerImport {
  login: string;
  name: string;
}

/** An application as the import document gives it (docs/import-schema.json); absent fields keep their stored value. */
export interface ApplicationImport {
  name: string;
  description?: string | null;
  tier?: string;
  business_impact?: string;
  application_type?: string;
  source_id?: number;
  meta?: Record<string, unknown> | null;
  service_ids?: number[];
  owners?: Partial<Record<'owner' | 'tech_lead' | 'security_lead', ApplicationOwnerImport[]>>;
}

/**
 * The import's writes of applications, membership and owners, inside the import's unit of work:
 * applications stay the only writer of their tables (docs/decisions/0026-inventory-module-and-unit-of-work.md).
 */
@Injectable()
export class ApplicationImportWriter {
  constructor(private readonly repository: ApplicationImportRepository) {}

  count(tx: Transaction, tenantId: string): Promise<number> {
    return this.repository.count(tx, tenantId);
  }

  /**
   * Upserts by case-insensitive name (absent fields keep their value, unchanged rows are not
   * touched), then membership and owners where given; `replace` deletes the applications not listed.
   * Returns how many were deleted.
   */
  upsert(tx: Transaction, tenantId: string, apps: ApplicationImport[], replace: boolean): Promise<number> {
    return this.repository.upsertApplications(tx, tenantId, apps, replace, DEFAULT_DESCRIPTION);
  }

  /** Every dynamic application of the tenant contains exactly the services of its source_id. */
  refreshDynamicMembership(tx: Transaction, tenantId: string): Promise<void> {
    return this.repository.refreshDynamicMembership(tx, tenantId);
  }

  /** Planner statistics of the applications' tables after a bulk load. */
  analyze(tx: Transaction): Promise<void> {
    return this.repository.analyze(tx);
  }
}

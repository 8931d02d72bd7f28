import type { DataSource } from 'typeorm';
import { deleteOthers, jsonText, textColumn } from '../../database/bulk-sql';
import { managerOf, type Transaction } from '../../database/unit-of-work';

export interface IntegrationState {
  provider: string;
  enabled: boolean;
  orgs: string[];
  accounts: string[];
}

export class SettingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async integrationsOfTenant(tenantId: string): Promise<IntegrationState[]> {
    const rows = (await this.dataSource.query('SELECT provider, enabled, orgs, accounts FROM integration_settings WHERE tenant_id = $1', [tenantId])) as {
      provider: string;
      enabled: boolean;
      orgs: unknown;
      accounts: unknown;
    }[];
    const list = (v: unknown): string[] => (typeof v === 'string' ? (JSON.parse(v) as string[]) : ((v as string[] | null) ?? []));
    return rows.map((r) => ({ provider: r.provider, enabled: Boolean(r.enabled), orgs: list(r.orgs), accounts: list(r.accounts) }));
  }

  /** Upserts these providers' states (lists deduplicated and sorted); `replace` first deletes the providers not given. Returns how many were deleted. */
  async upsertIntegrations(tx: Transaction, tenantId: string, states: IntegrationState[], replace: boolean): Promise<number> {
    const manager = managerOf(this.dataSource, tx);
    const deleted = replace ? await deleteOthers(manager, 'integration_settings', 'provider', textColumn(states.map((s) => s.provider)), tenantId) : 0;
    for (const s of states) {
      await manager.query(
        `INSERT INTO integration_settings (tenant_id, provider, enabled, orgs, accounts) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb)
         ON CONFLICT (tenant_id, provider) DO UPDATE SET enabled = EXCLUDED.enabled, orgs = EXCLUDED.orgs, accounts = EXCLUDED.accounts`,
        [tenantId, s.provider, s.enabled, jsonText([...new Set(s.orgs)].sort()), jsonText([...new Set(s.accounts)].sort())],
      );
    }
    return deleted;
  }
}

import type { DataSource } from 'typeorm';

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
}

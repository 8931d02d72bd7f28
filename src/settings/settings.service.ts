import { Inject, Injectable } from '@nestjs/common';
import type { Transaction } from '../database/unit-of-work';
import { INTEGRATION_PROVIDERS, type IntegrationImport } from './integration-providers';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { IntegrationsDto } from './dto/settings.dto';
import { SettingsRepository } from './persistence/settings.repository';

/** Internal settings (docs/inventory.md "Internal settings"). */
@Injectable()
export class SettingsService {
  constructor(
    private readonly repository: SettingsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Both providers always present; a provider the import never mentioned is disabled with empty lists. */
  async integrations(tenantId: string): Promise<IntegrationsDto> {
    const stored = new Map((await this.repository.integrationsOfTenant(tenantId)).map((s) => [s.provider, s]));
    const entry = (provider: string) => {
      const s = stored.get(provider);
      return { enabled: s?.enabled ?? false, orgs: [...(s?.orgs ?? [])].sort(), accounts: [...(s?.accounts ?? [])].sort() };
    };
    return Object.fromEntries(INTEGRATION_PROVIDERS.map((p) => [p, entry(p)])) as unknown as IntegrationsDto;
  }

  /**
   * The import's integrations, in its unit of work (settings stay the only writer of their table).
   * Only the providers the settings endpoint reports; other keys are ignored like any unknown field
   * (a null or oversized unknown key used to reach the INSERT and become a 500). Returns how many
   * providers `replace` deleted.
   */
  importIntegrations(tx: Transaction, tenantId: string, integrations: Partial<Record<string, IntegrationImport>>, replace: boolean): Promise<number> {
    const entries = Object.entries(integrations).filter(
      (e): e is [string, IntegrationImport] => e[1] !== undefined && (INTEGRATION_PROVIDERS as readonly string[]).includes(e[0]),
    );
    const states = entries.map(([provider, s]) => ({ provider, enabled: s.enabled, orgs: s.orgs ?? [], accounts: s.accounts ?? [] }));
    return this.repository.upsertIntegrations(tx, tenantId, states, replace);
  }

  /** Enabled features from config (FEATURES), sorted and deduplicated. */
  features(): string[] {
    return [...new Set(this.config.features)].sort();
  }
}

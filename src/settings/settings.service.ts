import { Inject, Injectable } from '@nestjs/common';
import { INTEGRATION_PROVIDERS } from './integration-providers';
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

  /** Enabled features from config (FEATURES), sorted and deduplicated. */
  features(): string[] {
    return [...new Set(this.config.features)].sort();
  }
}

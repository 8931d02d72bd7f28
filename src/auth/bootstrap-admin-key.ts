import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ApiKeysRepository } from './persistence/api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { ALL_SCOPES } from './principal';
import { TenantsService } from './tenants.service';

export const DEFAULT_TENANT_SLUG = 'default';
/** Where start-up lines for the operator go (bootstrap key, demo data); stdout by default, replaced in tests. */
export const BOOTSTRAP_OUTPUT = Symbol('BOOTSTRAP_OUTPUT');
export type BootstrapOutput = (line: string) => void;

/**
 * On first start with no API key at all: create the `default` tenant and one admin key, and print
 * the token once to stdout (never to the log sink). Replicas starting together create one key.
 */
@Injectable()
export class BootstrapAdminKey implements OnApplicationBootstrap {
  constructor(
    private readonly repository: ApiKeysRepository,
    private readonly apiKeys: ApiKeysService,
    private readonly tenants: TenantsService,
    @Inject(BOOTSTRAP_OUTPUT) private readonly output: BootstrapOutput,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const token = await this.repository.whenNoKeysExist(async (tx) => {
      const tenant = await this.tenants.findOrCreate(DEFAULT_TENANT_SLUG, tx);
      const { token } = await this.apiKeys.create(
        {
          tenantId: tenant.id,
          name: 'bootstrap-admin',
          scopes: [...ALL_SCOPES],
          expiresAt: null,
          rateLimitPerMinute: null,
        },
        tx,
      );
      return token;
    });
    if (token) this.output(`Bootstrap admin API key: ${token}`);
  }
}

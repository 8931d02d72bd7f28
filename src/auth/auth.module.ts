import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';
import { AuthGuard } from './auth.guard';
import { BOOTSTRAP_OUTPUT, BootstrapAdminKey, type BootstrapOutput } from './bootstrap-admin-key';
import { ApiKeysRepository } from './persistence/api-keys.repository';
import { TenantController } from './tenant.controller';
import { tenantLimitDefaults, TenantsService } from './tenants.service';

/**
 * API keys, tenants and the authentication guard. Imported by the modules that use its services; the
 * guard runs globally through AppGuard (src/app-guard.ts), which puts it before rate limiting.
 */
@Module({
  controllers: [ApiKeysController, TenantController],
  providers: [
    { provide: ApiKeysRepository, inject: [DataSource], useFactory: (ds: DataSource) => new ApiKeysRepository(ds) },
    {
      provide: ApiKeysService,
      inject: [ApiKeysRepository, APP_CONFIG],
      useFactory: (repo: ApiKeysRepository, config: AppConfig) => new ApiKeysService(repo, config.authCacheTtlMs),
    },
    {
      provide: TenantsService,
      inject: [ApiKeysRepository, ApiKeysService, APP_CONFIG],
      useFactory: (repo: ApiKeysRepository, apiKeys: ApiKeysService, config: AppConfig) => {
        const tenants = new TenantsService(repo, tenantLimitDefaults(config));
        tenants.onLimitsChanged((tenantId) => apiKeys.forgetTenant(tenantId));
        return tenants;
      },
    },
    { provide: BOOTSTRAP_OUTPUT, useValue: ((line) => process.stdout.write(`${line}\n`)) satisfies BootstrapOutput },
    BootstrapAdminKey,
    AuthGuard,
  ],
  exports: [ApiKeysService, ApiKeysRepository, TenantsService, AuthGuard, BOOTSTRAP_OUTPUT],
})
export class AuthModule {}

import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { ApiKeysService } from './api-keys.service';
import { ApiKeysRepository } from './persistence/api-keys.repository';
import { tenantLimitDefaults, TenantsService } from './tenants.service';

/**
 * Auth's services on a DataSource, wired as AuthModule wires them, for the CLI's `keys` and `tenants`
 * commands (no Nest container there): other code reaches tenants and keys only through these services.
 */
export function authServices(
  dataSource: DataSource,
  config: Pick<AppConfig, 'apiKeyRateLimitPerMinute'>,
  cacheTtlMs = 0,
): { apiKeys: ApiKeysService; tenants: TenantsService } {
  const repository = new ApiKeysRepository(dataSource);
  const apiKeys = new ApiKeysService(repository, cacheTtlMs);
  const tenants = new TenantsService(repository, tenantLimitDefaults(config));
  tenants.onLimitsChanged((tenantId) => apiKeys.forgetTenant(tenantId));
  return { apiKeys, tenants };
}

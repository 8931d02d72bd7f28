import type { ApiKeysRepository } from './persistence/api-keys.repository';
import type { TenantEntity } from './persistence/tenant.entity';
import { NotFoundError } from '../common/errors';
import type { AppConfig } from '../config/app-config';
import type { Transaction } from '../database/unit-of-work';

/**
 * Per-minute limit of each OAuth client + user of a tenant on /mcp when the tenant sets none. Defined
 * here and read by RATE_LIMIT_POLICY, so auth does not depend on rate limiting (which depends on auth).
 */
export const DEFAULT_OAUTH_MCP_LIMIT_PER_MINUTE = 600;

/** A tenant as this service returns it. */
export type Tenant = TenantEntity;

/** Highest per-minute limit a key (CreateApiKeyDto) or a tenant may be given. */
export const MAX_RATE_LIMIT_PER_MINUTE = 10_000_000;

/** A tenant's limit settings; null = the service default. */
export interface TenantLimits {
  /** Budget of each of the tenant's API keys that has no limit of its own. */
  rateLimitPerMinute: number | null;
  /** Limit of each OAuth client + user of the tenant on /mcp. */
  oauthMcpRateLimitPerMinute: number | null;
}

/** What applies where a tenant sets nothing (API_KEY_RATE_LIMIT_PER_MINUTE; the policy's OAuth MCP limit). */
export type TenantLimitDefaults = { [K in keyof TenantLimits]: number };

export function tenantLimitDefaults(config: Pick<AppConfig, 'apiKeyRateLimitPerMinute'>): TenantLimitDefaults {
  return { rateLimitPerMinute: config.apiKeyRateLimitPerMinute, oauthMcpRateLimitPerMinute: DEFAULT_OAUTH_MCP_LIMIT_PER_MINUTE };
}

/** A tenant as the admin API (TenantDto) and `bulwark tenants --json` show it. */
export interface TenantView {
  id: string;
  slug: string;
  name: string;
  rate_limit_per_minute: number | null;
  oauth_mcp_rate_limit_per_minute: number | null;
  effective: { rate_limit_per_minute: number; oauth_mcp_rate_limit_per_minute: number };
}

export const TENANT_LIMIT_FIELDS = ['rateLimitPerMinute', 'oauthMcpRateLimitPerMinute'] as const satisfies readonly (keyof TenantLimits)[];

/**
 * Tenant settings (docs/decisions/0008-tenant-settings.md: the API-key budget and the authenticated
 * MCP limit are set per tenant). Plain class, shared by the admin endpoint and the `bulwark tenants` CLI. The
 * limits are read into cached principals (ApiKeysService, the MCP TenantDirectory): a change made
 * here tells them at once, other replicas see it when their cache entries expire.
 */
export class TenantsService {
  private readonly listeners: ((tenantId: string) => void)[] = [];

  constructor(
    private readonly repository: ApiKeysRepository,
    readonly defaults: TenantLimitDefaults,
  ) {}

  /** Registers a cache that holds tenant limits and must drop a tenant's entries when they change. */
  onLimitsChanged(listener: (tenantId: string) => void): void {
    this.listeners.push(listener);
  }

  /** Called after any write of a tenant's limits (here, or the inventory import's, once committed). */
  limitsChanged(tenantId: string): void {
    for (const listener of this.listeners) listener(tenantId);
  }

  /**
   * The one way a tenant comes to exist: found by slug or created with the slug as its name (the
   * bootstrap key, the demo and seed loader, `bulwark keys create`). Inside `tx` when given.
   */
  findOrCreate(slug: string, tx?: Transaction): Promise<TenantEntity> {
    return this.repository.findOrCreateTenant(slug, tx);
  }

  findBySlug(slug: string): Promise<TenantEntity | null> {
    return this.repository.findTenantBySlug(slug);
  }

  async get(tenantId: string): Promise<TenantEntity> {
    const tenant = await this.repository.findTenantById(tenantId);
    if (!tenant) throw new NotFoundError(`Tenant ${tenantId} not found`);
    return tenant;
  }

  list(): Promise<TenantEntity[]> {
    return this.repository.listTenants();
  }

  /** Sets the given limits (absent = unchanged, null = back to the default) and returns the tenant. */
  async setLimits(tenantId: string, limits: Partial<TenantLimits>): Promise<TenantEntity> {
    const changes: Partial<TenantLimits> = {};
    for (const field of TENANT_LIMIT_FIELDS) if (limits[field] !== undefined) changes[field] = limits[field];
    if (!(await this.repository.updateTenantLimits(tenantId, changes))) throw new NotFoundError(`Tenant ${tenantId} not found`);
    this.limitsChanged(tenantId);
    return this.get(tenantId);
  }

  /**
   * Writes limits inside the caller's unit of work (the inventory import): absent = unchanged, null =
   * back to the default. Listeners are not told: the caller calls `limitsChanged` once committed.
   */
  async writeLimits(tx: Transaction, tenantId: string, limits: Partial<TenantLimits>): Promise<void> {
    const changes: Partial<TenantLimits> = {};
    for (const field of TENANT_LIMIT_FIELDS) if (limits[field] !== undefined) changes[field] = limits[field];
    if (Object.keys(changes).length > 0) await this.repository.updateTenantLimits(tenantId, changes, tx);
  }

  /** The tenant's settings and the limits that apply: its own where set, else the defaults. */
  view(tenant: TenantEntity): TenantView {
    return {
      id: tenant.id,
      slug: tenant.slug,
      name: tenant.name,
      rate_limit_per_minute: tenant.rateLimitPerMinute,
      oauth_mcp_rate_limit_per_minute: tenant.oauthMcpRateLimitPerMinute,
      effective: {
        rate_limit_per_minute: tenant.rateLimitPerMinute ?? this.defaults.rateLimitPerMinute,
        oauth_mcp_rate_limit_per_minute: tenant.oauthMcpRateLimitPerMinute ?? this.defaults.oauthMcpRateLimitPerMinute,
      },
    };
  }
}

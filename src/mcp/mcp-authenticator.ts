import type { ApiKeysService } from '../auth/api-keys.service';
import type { TenantsService } from '../auth/tenants.service';
import { bearerToken } from '../auth/auth.guard';
import type { OAuthPrincipal, Principal } from '../auth/principal';
import { UnauthorizedError } from '../common/errors';
import { ClearingMap } from '../common/clearing-map';
import type { OAuthTokenVerifier } from './oauth-token.verifier';

/**
 * Outcome of reading the credential of an /mcp request. `anonymous`: none was sent (discovery is
 * allowed). `rejected`: one was sent and did not verify; the request is charged to the
 * unauthenticated bucket ("unverified MCP", docs/mcp.md) and then answered 401.
 */
export type McpAuthResult = { kind: 'principal'; principal: Principal } | { kind: 'anonymous' } | { kind: 'rejected'; reason: string };

const API_KEY_PREFIX = 'bwk_';
const TENANT_CACHE_MS = 30_000;

/** What an OAuth principal needs of its tenant. */
export interface McpTenant {
  id: string;
  /** The tenant's OAuth MCP limit; null = the policy default. */
  oauthMcpRateLimitPerMinute: number | null;
}

/**
 * Tenant slug → id and OAuth MCP limit for OAuth principals; cached briefly (tenants are never
 * renamed here). TenantsService evicts a tenant whose limits it changes (see McpModule).
 */
export class TenantDirectory {
  private readonly cache = new ClearingMap<string, { tenant: McpTenant | null; until: number }>(1000);

  constructor(
    private readonly tenants: Pick<TenantsService, 'findBySlug'>,
    private readonly now: () => number = Date.now,
  ) {}

  async find(slug: string): Promise<McpTenant | null> {
    const hit = this.cache.get(slug);
    if (hit && hit.until > this.now()) return hit.tenant;
    const row = await this.tenants.findBySlug(slug);
    const tenant = row ? { id: row.id, oauthMcpRateLimitPerMinute: row.oauthMcpRateLimitPerMinute } : null;
    // Unknown slugs are cached too, so a flood of tokens naming one cannot hammer the database.
    this.cache.set(slug, { tenant, until: this.now() + TENANT_CACHE_MS });
    return tenant;
  }

  /** Drops a tenant's entry (its limits changed). */
  forget(tenantId: string): void {
    for (const [slug, entry] of this.cache.entries()) if (entry.tenant?.id === tenantId) this.cache.delete(slug);
  }
}

export interface McpAuthenticatorDeps {
  apiKeys: Pick<ApiKeysService, 'verify'>;
  /** null when OAUTH_ISSUER / OAUTH_JWKS_URL are not configured: only API keys are accepted. */
  oauth: Pick<OAuthTokenVerifier, 'verify'> | null;
  tenants: Pick<TenantDirectory, 'find'>;
  defaultTenantSlug: string;
}

/**
 * The credentials /mcp accepts (docs/mcp.md "Authentication"): an API key (`bwk_…`, verified exactly as on REST,
 * so revocation, expiry and the key's budget apply) or an OAuth access token (a JWT for this
 * server's /mcp audience). The REST guard accepts API keys only, so MCP tokens never work there.
 * Infrastructure failures (database, issuer key set) are thrown, not reported as `rejected`.
 */
export class McpAuthenticator {
  constructor(private readonly deps: McpAuthenticatorDeps) {}

  async authenticate(authorization: string | undefined): Promise<McpAuthResult> {
    let token: string | null;
    try {
      token = bearerToken(authorization);
    } catch (err) {
      return { kind: 'rejected', reason: (err as Error).message };
    }
    if (token === null) return { kind: 'anonymous' };
    try {
      if (token.startsWith(API_KEY_PREFIX)) return { kind: 'principal', principal: await this.deps.apiKeys.verify(token) };
      if (this.deps.oauth === null) return { kind: 'rejected', reason: 'Invalid credential: this server accepts API keys only (OAuth is not configured)' };
      return { kind: 'principal', principal: await this.oauthPrincipal(token, this.deps.oauth) };
    } catch (err) {
      if (err instanceof UnauthorizedError) return { kind: 'rejected', reason: err.detail };
      throw err;
    }
  }

  private async oauthPrincipal(token: string, oauth: Pick<OAuthTokenVerifier, 'verify'>): Promise<OAuthPrincipal> {
    const claims = await oauth.verify(token);
    const slug = claims.tenantSlug ?? this.deps.defaultTenantSlug;
    const tenant = await this.deps.tenants.find(slug);
    if (tenant === null) throw new UnauthorizedError('Access token names an unknown tenant');
    return {
      kind: 'oauth',
      tenantId: tenant.id,
      clientId: claims.clientId,
      subject: claims.subject,
      scopes: claims.scopes,
      // The tenant's OAuth MCP limit; null = the 600/min of the rate-limit policy.
      rateLimitPerMinute: tenant.oauthMcpRateLimitPerMinute,
    };
  }
}

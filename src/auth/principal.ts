/**
 * Who is calling, after authentication. Rate-limit buckets key on `bucketId` (a stable principal
 * id), never on token material, so rotating a credential keeps its bucket (docs/rate-limits.md).
 */
export type Scope = 'inventory:read' | 'inventory:write' | 'scan' | 'admin';
export const ALL_SCOPES: readonly Scope[] = ['inventory:read', 'inventory:write', 'scan', 'admin'];

export interface ApiKeyPrincipal {
  kind: 'api_key';
  tenantId: string;
  apiKeyId: string;
  scopes: Scope[];
  /** Per-key (or per-tenant) raise of the 2,000/min budget; null = default. */
  rateLimitPerMinute: number | null;
}

export interface OAuthPrincipal {
  kind: 'oauth';
  tenantId: string;
  clientId: string;
  subject: string;
  scopes: Scope[];
  rateLimitPerMinute: number | null;
}

export type Principal = ApiKeyPrincipal | OAuthPrincipal;

/** The stable identity a rate-limit bucket is keyed on. */
export function principalBucketId(p: Principal): string {
  return p.kind === 'api_key' ? `key:${p.apiKeyId}` : `oauth:${p.tenantId}:${p.clientId}:${p.subject}`;
}

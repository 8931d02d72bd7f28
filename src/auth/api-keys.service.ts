import { ALL_SCOPES, type ApiKeyPrincipal, type Scope } from './principal';
import { displayPrefix, generateApiKeyToken, hashApiKeyToken, isWellFormedApiKeyToken, sameDigest } from './api-key-token';
import type { ApiKeyEntity } from './persistence/api-key.entity';
import type { ApiKeysRepository } from './persistence/api-keys.repository';
import { NotFoundError, UnauthorizedError, ValidationFailedError, type ValidationIssue } from '../common/errors';
import type { Transaction } from '../database/unit-of-work';

/** A stored key as this service returns it (never its token). */
export type ApiKey = ApiKeyEntity;

export interface CreateKeyInput {
  tenantId: string;
  name: string;
  scopes: Scope[];
  expiresAt: Date | null;
  rateLimitPerMinute: number | null;
}

export interface CreatedKey {
  key: ApiKeyEntity;
  /** Shown once; only its hash is stored. */
  token: string;
}

interface CacheEntry {
  principal: ApiKeyPrincipal;
  expiresAt: Date | null;
  cachedUntil: number;
  lastUsedAt: number;
}

const MAX_CACHE_ENTRIES = 10_000;
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * API keys: creation, listing, revocation and verification. Plain class (wired by AuthModule, and
 * constructed directly by the `bulwark keys` CLI). Successful lookups are cached for at most
 * `cacheTtlMs` (≤ 30 s), so a revocation made on another replica takes effect within that; one made
 * through this instance evicts at once.
 */
export class ApiKeysService {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly repository: ApiKeysRepository,
    private readonly cacheTtlMs: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** `tx` lets a caller create the key inside its own unit of work. */
  async create(input: CreateKeyInput, tx?: Transaction): Promise<CreatedKey> {
    const unknown = input.scopes.filter((s) => !ALL_SCOPES.includes(s));
    if (unknown.length) {
      throw new ValidationFailedError([
        { loc: ['body', 'scopes'], msg: `unknown scopes: ${unknown.join(', ')}; allowed: ${ALL_SCOPES.join(', ')}`, type: 'value_error.enum' },
      ]);
    }
    const token = generateApiKeyToken();
    const key = await this.repository.insertKey(
      {
        tenantId: input.tenantId,
        name: input.name,
        scopes: [...new Set(input.scopes)],
        tokenHash: hashApiKeyToken(token),
        displayPrefix: displayPrefix(token),
        expiresAt: input.expiresAt,
        rateLimitPerMinute: input.rateLimitPerMinute,
      },
      tx,
    );
    return { key, token };
  }

  /** Refuses (422) an expiry that has already passed: the key's token would never work. */
  assertExpiryInFuture(expiresAt: Date | null, loc: ValidationIssue['loc']): void {
    if (expiresAt !== null && expiresAt.getTime() <= this.now().getTime()) {
      throw new ValidationFailedError([{ loc, msg: 'must be in the future', type: 'value_error.date.past' }]);
    }
  }

  /** Any tenant's key by id (the operator's CLI works across tenants); null if unknown. */
  findById(id: string): Promise<ApiKey | null> {
    return this.repository.findKeyById(id);
  }

  list(tenantId: string): Promise<ApiKeyEntity[]> {
    return this.repository.listKeysOfTenant(tenantId);
  }

  /** Revokes a key of the tenant; another tenant's id answers 404 like an unknown one. */
  async revoke(tenantId: string, id: string): Promise<ApiKeyEntity> {
    const key = await this.repository.findKeyOfTenant(tenantId, id);
    if (!key) throw new NotFoundError(`API key ${id} not found`);
    if (!key.revokedAt) {
      await this.repository.revokeKey(id, this.now(), tenantId);
      key.revokedAt = this.now();
    }
    this.cache.delete(key.tokenHash);
    return key;
  }

  /** Drops the cached principals of a tenant's keys, so a change of its limits applies at the next request. */
  forgetTenant(tenantId: string): void {
    for (const [hash, entry] of this.cache) if (entry.principal.tenantId === tenantId) this.cache.delete(hash);
  }

  /** Resolves a bearer token to its principal, or throws 401 with a reason safe to show. */
  async verify(token: string): Promise<ApiKeyPrincipal> {
    if (!isWellFormedApiKeyToken(token)) throw new UnauthorizedError('Invalid API key');
    const hash = hashApiKeyToken(token);
    const nowMs = this.now().getTime();
    const cached = this.cache.get(hash);
    if (cached && cached.cachedUntil > nowMs) {
      if (cached.expiresAt && cached.expiresAt.getTime() <= nowMs) throw new UnauthorizedError('API key expired');
      this.touch(cached, nowMs);
      return cached.principal;
    }
    this.cache.delete(hash);
    const key = await this.repository.findKeyByHash(hash);
    // The row was found by its hash; comparing again in constant time keeps the check timing-flat.
    if (!key || !sameDigest(key.tokenHash, hash)) throw new UnauthorizedError('Invalid API key');
    if (key.revokedAt) throw new UnauthorizedError('API key revoked');
    if (key.expiresAt && key.expiresAt.getTime() <= nowMs) throw new UnauthorizedError('API key expired');
    const principal: ApiKeyPrincipal = {
      kind: 'api_key',
      tenantId: key.tenantId,
      apiKeyId: key.id,
      scopes: key.scopes as Scope[],
      // The key's own limit wins; else its tenant's; null = the service default (RateLimiter).
      rateLimitPerMinute: key.rateLimitPerMinute ?? key.tenant.rateLimitPerMinute ?? null,
    };
    const entry: CacheEntry = { principal, expiresAt: key.expiresAt, cachedUntil: nowMs + this.cacheTtlMs, lastUsedAt: key.lastUsedAt?.getTime() ?? 0 };
    if (this.cacheTtlMs > 0) {
      if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(hash, entry);
    }
    this.touch(entry, nowMs);
    return principal;
  }

  /** last_used_at is written at most once a minute per key, off the request path. */
  private touch(entry: CacheEntry, nowMs: number): void {
    if (nowMs - entry.lastUsedAt < LAST_USED_RESOLUTION_MS) return;
    entry.lastUsedAt = nowMs;
    this.repository.touchLastUsed(entry.principal.apiKeyId, new Date(nowMs)).catch(() => undefined);
  }
}

import { ApiKeysService } from './api-keys.service';
import { hashApiKeyToken } from './api-key-token';
import type { ApiKeyEntity } from './persistence/api-key.entity';
import type { ApiKeysRepository } from './persistence/api-keys.repository';
import type { TenantEntity } from './persistence/tenant.entity';

/**
 * Cache semantics only (the database behaviour is covered end to end in test/e2e/auth.e2e-spec.ts): an
 * in-memory stand-in for the repository, standing for "another replica's database row".
 */
function memoryRepository() {
  const rows = new Map<string, ApiKeyEntity & { tenant: TenantEntity }>();
  let lookups = 0;
  const tenant = { id: 't1', slug: 't', name: 't', rateLimitPerMinute: 5000, createdAt: new Date(0) } as TenantEntity;
  const repo = {
    insertKey: async (k: Partial<ApiKeyEntity>) => {
      const row = { ...k, id: `k${rows.size}`, createdAt: new Date(0), tenant } as ApiKeyEntity & { tenant: TenantEntity };
      rows.set(row.tokenHash, row);
      return row;
    },
    findKeyByHash: async (hash: string) => {
      lookups++;
      return rows.get(hash) ?? null;
    },
    touchLastUsed: async () => undefined,
  } as unknown as ApiKeysRepository;
  return { repo, rows, lookups: () => lookups };
}

describe('ApiKeysService cache', () => {
  it('serves repeated lookups from the cache, and sees a revocation elsewhere once the TTL passes', async () => {
    let now = 1_000_000;
    const mem = memoryRepository();
    const service = new ApiKeysService(mem.repo, 10_000, () => new Date(now));
    const { token } = await service.create({ tenantId: 't1', name: 'k', scopes: ['scan'], expiresAt: null, rateLimitPerMinute: null });

    const principal = await service.verify(token);
    expect(principal).toMatchObject({ kind: 'api_key', tenantId: 't1', scopes: ['scan'], rateLimitPerMinute: 5000 });
    await service.verify(token);
    expect(mem.lookups()).toBe(1);

    // Revoked directly in the database (as by another replica): still cached within the TTL ...
    mem.rows.get(hashApiKeyToken(token))!.revokedAt = new Date(now);
    now += 9_999;
    await expect(service.verify(token)).resolves.toBeDefined();
    // ... and refused once the TTL has passed.
    now += 2;
    await expect(service.verify(token)).rejects.toThrow('API key revoked');
  });

  it('refuses an expired key even while cached', async () => {
    let now = 0;
    const mem = memoryRepository();
    const service = new ApiKeysService(mem.repo, 30_000, () => new Date(now));
    const { token } = await service.create({ tenantId: 't1', name: 'k', scopes: ['scan'], expiresAt: new Date(5_000), rateLimitPerMinute: null });
    await service.verify(token);
    now = 5_000;
    await expect(service.verify(token)).rejects.toThrow('API key expired');
  });
});

import { DataSource, IsNull } from 'typeorm';
import { managerOf, transactionManager, UnitOfWork, type Transaction } from '../../database/unit-of-work';
import { ApiKeyEntity } from './api-key.entity';
import { TenantEntity } from './tenant.entity';

/**
 * Purpose-named persistence for tenants and API keys. Nest-free, so the `bulwark keys` CLI works
 * on the database with the same code as the admin endpoints.
 */
export class ApiKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  findKeyByHash(tokenHash: string): Promise<(ApiKeyEntity & { tenant: TenantEntity }) | null> {
    return this.dataSource.getRepository(ApiKeyEntity).findOne({
      where: { tokenHash },
      relations: { tenant: true },
    }) as Promise<(ApiKeyEntity & { tenant: TenantEntity }) | null>;
  }

  listKeysOfTenant(tenantId: string): Promise<ApiKeyEntity[]> {
    return this.dataSource.getRepository(ApiKeyEntity).find({
      where: { tenantId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  findKeyOfTenant(tenantId: string, id: string): Promise<ApiKeyEntity | null> {
    return this.dataSource.getRepository(ApiKeyEntity).findOne({ where: { tenantId, id } });
  }

  findKeyById(id: string): Promise<ApiKeyEntity | null> {
    return this.dataSource.getRepository(ApiKeyEntity).findOne({ where: { id } });
  }

  insertKey(key: Omit<ApiKeyEntity, 'id' | 'createdAt' | 'tenant' | 'lastUsedAt' | 'revokedAt'>, tx?: Transaction): Promise<ApiKeyEntity> {
    const repo = managerOf(this.dataSource, tx).getRepository(ApiKeyEntity);
    return repo.save(repo.create({ ...key, lastUsedAt: null, revokedAt: null }));
  }

  /** Marks a key revoked; true if this call revoked it (false if unknown or already revoked). */
  async revokeKey(id: string, now: Date, tenantId?: string): Promise<boolean> {
    const result = await this.dataSource.getRepository(ApiKeyEntity).update({ id, revokedAt: IsNull(), ...(tenantId ? { tenantId } : {}) }, { revokedAt: now });
    return (result.affected ?? 0) > 0;
  }

  async touchLastUsed(id: string, now: Date): Promise<void> {
    await this.dataSource.getRepository(ApiKeyEntity).update({ id }, { lastUsedAt: now });
  }

  findTenantBySlug(slug: string, tx?: Transaction): Promise<TenantEntity | null> {
    return managerOf(this.dataSource, tx).getRepository(TenantEntity).findOne({ where: { slug } });
  }

  findTenantById(id: string): Promise<TenantEntity | null> {
    return this.dataSource.getRepository(TenantEntity).findOne({ where: { id } });
  }

  listTenants(): Promise<TenantEntity[]> {
    return this.dataSource.getRepository(TenantEntity).find({ order: { slug: 'ASC' } });
  }

  /** Writes the given limit columns of a tenant (absent = unchanged); false if there is no such tenant. */
  async updateTenantLimits(
    id: string,
    limits: Partial<Pick<TenantEntity, 'rateLimitPerMinute' | 'oauthMcpRateLimitPerMinute'>>,
    tx?: Transaction,
  ): Promise<boolean> {
    if (Object.keys(limits).length === 0) return (await this.findTenantById(id)) !== null;
    const result = await managerOf(this.dataSource, tx).getRepository(TenantEntity).update({ id }, limits);
    return (result.affected ?? 0) > 0;
  }

  async findOrCreateTenant(slug: string, tx?: Transaction): Promise<TenantEntity> {
    const repo = managerOf(this.dataSource, tx).getRepository(TenantEntity);
    await repo.createQueryBuilder().insert().values({ slug, name: slug }).orIgnore().execute();
    return repo.findOneOrFail({ where: { slug } });
  }

  /**
   * Runs `work` only if no API key exists at all, serialised by a transaction-scoped advisory lock
   * so replicas starting together create one bootstrap key between them.
   */
  async whenNoKeysExist<T>(work: (tx: Transaction) => Promise<T>): Promise<T | null> {
    return new UnitOfWork(this.dataSource).run(async (tx) => {
      const manager = transactionManager(tx);
      await manager.query('SELECT pg_advisory_xact_lock(72640302)');
      const count = await manager.getRepository(ApiKeyEntity).count();
      return count === 0 ? work(tx) : null;
    });
  }
}

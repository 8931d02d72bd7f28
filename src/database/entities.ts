import { ApiKeyEntity } from '../auth/persistence/api-key.entity';
import { TenantEntity } from '../auth/persistence/tenant.entity';
import { INVENTORY_ENTITIES } from '../applications/persistence/inventory-entities';

/**
 * Every TypeORM entity of the app, listed explicitly so the app, the tests, the CLI and
 * ormconfig.ts load the same set whatever the file layout (no globs: they differ between ts and js).
 */
export const ENTITIES = [TenantEntity, ApiKeyEntity, ...INVENTORY_ENTITIES];

import { ApiKeyEntity } from '../auth/persistence/api-key.entity';
import { TenantEntity } from '../auth/persistence/tenant.entity';
import { APPLICATION_ENTITIES } from '../applications/persistence/application-entities';
import { INVENTORY_ENTITIES } from '../inventory/persistence/inventory-entities';
import { GraphSelectionEntity } from '../graph/persistence/graph-selection.entity';
import { IntegrationSettingEntity } from '../settings/persistence/integration-setting.entity';

/**
 * Every TypeORM entity of the app, listed explicitly so the app, the tests, the CLI and
 * ormconfig.ts load the same set whatever the file layout (no globs: they differ between ts and js).
 * Each module's entities are listed here, not by another module: that import made applications and
 * graph depend on each other (docs/decisions/0018-module-boundaries.md).
 */
export const ENTITIES = [TenantEntity, ApiKeyEntity, ...INVENTORY_ENTITIES, ...APPLICATION_ENTITIES, GraphSelectionEntity, IntegrationSettingEntity];

import { InitTenancy1795323645090 } from './1795323645090-InitTenancy';
import { InventoryModel1795324371186 } from './1795324371186-InventoryModel';
import { TenantMcpLimit1795684911930 } from './1795684911930-TenantMcpLimit';

/**
 * Committed migrations in order. Generate a new one against a scratch PostgreSQL (see
 * docs/development.md) with `npm run migration:generate -- src/database/migrations/<Name>`,
 * review it, and append its class here.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const MIGRATIONS: Function[] = [InitTenancy1795323645090, InventoryModel1795324371186, TenantMcpLimit1795684911930];

import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../applications/applications.module';
import { AuthModule } from '../auth/auth.module';
import { InventoryModule } from '../inventory/inventory.module';
import { SettingsModule } from '../settings/settings.module';
import { DemoInventoryLoader } from './demo-inventory.loader';
import { InventoryImportController } from './inventory-import.controller';
import { InventoryImportService } from './inventory-import.service';

/**
 * The admin import: validates a document, then has each owning module write its sections (inventory,
 * applications, settings, the tenant's limits) in one unit of work. It owns no table.
 */
@Module({
  imports: [AuthModule, InventoryModule, ApplicationsModule, SettingsModule],
  controllers: [InventoryImportController],
  providers: [InventoryImportService, DemoInventoryLoader],
  exports: [InventoryImportService],
})
export class InventoryImportModule {}

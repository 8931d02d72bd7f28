import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthModule } from '../auth/auth.module';
import { DemoInventoryLoader } from './demo-inventory.loader';
import { InventoryImportController } from './inventory-import.controller';
import { InventoryImportService } from './inventory-import.service';
import { InventoryImportRepository } from './persistence/inventory-import.repository';

@Module({
  imports: [AuthModule],
  controllers: [InventoryImportController],
  providers: [
    { provide: InventoryImportRepository, inject: [DataSource], useFactory: (ds: DataSource) => new InventoryImportRepository(ds) },
    InventoryImportService,
    DemoInventoryLoader,
  ],
  exports: [InventoryImportService],
})
export class InventoryImportModule {}

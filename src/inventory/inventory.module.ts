import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InventoryReadService } from './inventory-read.service';
import { InventoryWriter } from './inventory-writer.service';
import { InventoryReadRepository } from './persistence/inventory-read.repository';
import { InventoryWriterRepository } from './persistence/inventory-writer.repository';

/**
 * The inventory's services, resources, code roots, relations, packages and finding counts
 * (docs/decisions/0026-inventory-module-and-unit-of-work.md). Exports services only (never repositories).
 */
@Module({
  providers: [
    { provide: InventoryReadRepository, inject: [DataSource], useFactory: (ds: DataSource) => new InventoryReadRepository(ds) },
    { provide: InventoryWriterRepository, inject: [DataSource], useFactory: (ds: DataSource) => new InventoryWriterRepository(ds) },
    InventoryReadService,
    InventoryWriter,
  ],
  exports: [InventoryReadService, InventoryWriter],
})
export class InventoryModule {}

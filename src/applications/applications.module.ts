import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApplicationsController } from './applications.controller';
import { ApplicationsService } from './applications.service';
import { InventoryReadService } from './inventory-read.service';
import { ApplicationsRepository } from './persistence/applications.repository';
import { InventoryReadRepository } from './persistence/inventory-read.repository';

/** Applications of the inventory. Exports services only (never repositories). */
@Module({
  controllers: [ApplicationsController],
  providers: [
    { provide: ApplicationsRepository, inject: [DataSource], useFactory: (ds: DataSource) => new ApplicationsRepository(ds) },
    { provide: InventoryReadRepository, inject: [DataSource], useFactory: (ds: DataSource) => new InventoryReadRepository(ds) },
    ApplicationsService,
    InventoryReadService,
  ],
  exports: [ApplicationsService, InventoryReadService],
})
export class ApplicationsModule {}

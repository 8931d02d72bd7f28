import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApplicationImportWriter } from './application-import';
import { ApplicationsController } from './applications.controller';
import { ApplicationsService } from './applications.service';
import { ApplicationImportRepository } from './persistence/application-import.repository';
import { ApplicationsRepository } from './persistence/applications.repository';

/** Applications of the inventory, their membership and owners. Exports services only (never repositories). */
@Module({
  controllers: [ApplicationsController],
  providers: [
    { provide: ApplicationsRepository, inject: [DataSource], useFactory: (ds: DataSource) => new ApplicationsRepository(ds) },
    { provide: ApplicationImportRepository, inject: [DataSource], useFactory: (ds: DataSource) => new ApplicationImportRepository(ds) },
    ApplicationsService,
    ApplicationImportWriter,
  ],
  exports: [ApplicationsService, ApplicationImportWriter],
})
export class ApplicationsModule {}

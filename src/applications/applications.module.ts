import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApplicationsController } from './applications.controller';
import { ApplicationsService } from './applications.service';
import { ApplicationsRepository } from './persistence/applications.repository';

/** Applications of the inventory. Exports services only (never repositories). */
@Module({
  controllers: [ApplicationsController],
  providers: [
    { provide: ApplicationsRepository, inject: [DataSource], useFactory: (ds: DataSource) => new ApplicationsRepository(ds) },
    ApplicationsService,
  ],
  exports: [ApplicationsService],
})
export class ApplicationsModule {}

import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../applications/applications.module';
import { SbomController } from './sbom.controller';
import { SbomService } from './sbom.service';

/** POST /api/applications/{application_id}/sbom (docs/sbom.md). Reads the inventory through its read service. */
@Module({
  imports: [ApplicationsModule],
  controllers: [SbomController],
  providers: [SbomService],
  exports: [SbomService],
})
export class SbomModule {}

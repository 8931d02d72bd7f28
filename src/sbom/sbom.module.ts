import { Module } from '@nestjs/common';
import { InventoryModule } from '../inventory/inventory.module';
import { SbomController } from './sbom.controller';
import { SbomService } from './sbom.service';

/** POST /api/applications/{application_id}/sbom (docs/sbom.md). Reads the inventory through its read service. */
@Module({
  imports: [InventoryModule],
  controllers: [SbomController],
  providers: [SbomService],
  exports: [SbomService],
})
export class SbomModule {}

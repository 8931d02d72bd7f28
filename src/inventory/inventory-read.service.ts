import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors';
import { InventoryReadRepository, type PackageObservation, type SbomApplication } from './persistence/inventory-read.repository';

export type { PackageObservation, SbomApplication, SbomInventoryService } from './persistence/inventory-read.repository';

/**
 * The inventory as other modules read it (the SBOM generator). Exported by InventoryModule;
 * documented in docs/inventory.md ("Read API for other modules").
 */
@Injectable()
export class InventoryReadService {
  constructor(private readonly repository: InventoryReadRepository) {}

  /** The application with its member services (ascending id) and their code roots; 404 if not in the tenant. */
  async getApplicationForSbom(tenantId: string, applicationId: number): Promise<SbomApplication> {
    const app = await this.repository.findApplicationWithServices(tenantId, applicationId);
    if (!app) throw new NotFoundError(`Application ${applicationId} not found`);
    return app;
  }

  /**
   * Package observations of these services. `environment` null = every observation (source and all
   * deployments), a value = only those deployed there; `coderootIds` null or [] = all code roots.
   * Ordered by purl, service, code root, environment.
   */
  findPackageObservations(tenantId: string, serviceIds: number[], environment: string | null, coderootIds: string[] | null): Promise<PackageObservation[]> {
    return this.repository.findPackageObservations(tenantId, serviceIds, environment, coderootIds);
  }
}

import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InventoryReadService } from '../inventory/inventory-read.service';
import { packageVersion } from '../common/package-version';
import { Clock } from '../common/clock/clock';
import { ValidationFailedError, type ValidationIssue } from '../common/errors';
import { buildApplicationBom } from './application-bom.builder';
import { serializeApplicationBom } from './application-bom.serializer';
import type { SbomEnvironment } from './application-bom.types';

export interface SbomRequest {
  environment: SbomEnvironment | null;
  coderoots: string[] | null;
}

/** Generates an application's CycloneDX 1.6 SBOM (docs/sbom.md) from the inventory. */
@Injectable()
export class SbomService {
  constructor(
    private readonly inventory: InventoryReadService,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  /** The SBOM as CycloneDX JSON text. 404 unknown (or other tenant's) application; 422 unknown code roots. */
  async generate(tenantId: string, applicationId: number, request: SbomRequest): Promise<string> {
    const app = await this.inventory.getApplicationForSbom(tenantId, applicationId);
    const codeRoots = app.services.flatMap((s) => s.codeRoots.map((c) => ({ id: c.id, serviceId: s.id })));
    const coderoots = this.checkCoderoots(app.id, request.coderoots, new Set(codeRoots.map((c) => c.id)));
    const serviceIds = app.services.map((s) => s.id);
    // The SQL does the narrowing: only observations of member services, in the environment, of the roots.
    const observations = await this.inventory.findPackageObservations(tenantId, serviceIds, request.environment, coderoots);
    const bom = buildApplicationBom({
      application: {
        id: app.id,
        name: app.name,
        description: app.description,
        tier: app.tier,
        businessImpact: app.businessImpact,
        applicationType: app.applicationType,
      },
      services: app.services.map((s) => ({ id: s.id, name: s.name, sourceType: s.sourceType })),
      codeRoots,
      observations,
      selection: { environment: request.environment, coderoots },
      tool: { vendor: 'Bulwark', name: 'bulwark', version: packageVersion() },
      timestamp: new Date(this.clock.now()),
      serialNumber: `urn:uuid:${randomUUID()}`,
    });
    return serializeApplicationBom(bom);
  }

  /** null or [] → null (all); otherwise the distinct ids, sorted, each of which must be the application's. */
  private checkCoderoots(applicationId: number, requested: string[] | null, known: Set<string>): string[] | null {
    if (requested === null || requested.length === 0) return null;
    const issues: ValidationIssue[] = [];
    requested.forEach((id, index) => {
      if (!known.has(id)) {
        issues.push({
          loc: ['body', 'coderoots', index],
          msg: `unknown code root of application ${applicationId}: ${id}`,
          type: 'value_error.unknown_coderoot',
        });
      }
    });
    if (issues.length > 0) throw new ValidationFailedError(issues);
    return [...new Set(requested)].sort();
  }
}

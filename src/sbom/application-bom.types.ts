import type { PackageObservation } from '../inventory/inventory-read.service';
import type { Environment } from '../inventory/inventory-enums';

/**
 * Plain input of the SBOM builder: no entities and no Nest at run time, so the builder is a pure
 * function that the service, the unit tests and the bench all feed directly. Package observations
 * are the inventory's read model (a type-only import).
 */

/** The environments a package can be seen deployed in: the inventory's. */
export type SbomEnvironment = Environment;

export interface SbomApplicationInput {
  id: number;
  name: string;
  description: string | null;
  tier: string;
  businessImpact: string;
  applicationType: string;
}

/** A member service of the application; becomes one `application` component. */
export interface SbomServiceInput {
  id: number;
  name: string;
  /** Where the service was discovered (`github`, `aws`, ...); null when unknown. */
  sourceType: string | null;
}

/** A code root (`owner/repo:path`) of a member service. */
export interface SbomCodeRootInput {
  id: string;
  serviceId: number;
}

/**
 * One package seen in one service: the inventory's read model, used as is (a type-only import: the
 * builder stays a pure function with no runtime dependency on the inventory module).
 */
export type SbomPackageObservation = PackageObservation;

/** What the caller asked for (echoed into the document) and whether it narrowed the application. */
export interface SbomSelection {
  /** null = every observation (source and all deployments). */
  environment: SbomEnvironment | null;
  /** null = every code root of the member services; otherwise the selected ids, sorted. */
  coderoots: string[] | null;
}

export interface SbomToolInput {
  vendor: string;
  name: string;
  version: string;
}

export interface ApplicationBomInput {
  application: SbomApplicationInput;
  services: SbomServiceInput[];
  /** Every code root of the member services (the selected ones are named in `selection`). */
  codeRoots: SbomCodeRootInput[];
  /**
   * Observations to consider. The builder applies the selection itself (so it is correct for any
   * input), but callers should pass only what the selection needs: that is where the time goes.
   */
  observations: SbomPackageObservation[];
  selection: SbomSelection;
  tool: SbomToolInput;
  timestamp: Date;
  /** `urn:uuid:<uuid>` */
  serialNumber: string;
}

import type { DataSource } from 'typeorm';
import type { PackageHash } from './package-observation.entity';

export interface SbomApplication {
  id: number;
  name: string;
  description: string | null;
  tier: string;
  businessImpact: string;
  applicationType: string;
  created: Date;
  updated: Date;
  services: SbomInventoryService[];
}

/** An inventory service of the application, as the SBOM lists it. */
export interface SbomInventoryService {
  id: number;
  name: string;
  sourceType: string | null;
  codeRoots: { id: string; repository: string; path: string; defaultBranch: string | null }[];
}

/** One package seen in one service: in a code root (source) and/or deployed in an environment. */
export interface PackageObservation {
  serviceId: number;
  /** `owner/repo:path`, or null when the observation is not tied to a code root (e.g. an image scan). */
  coderootId: string | null;
  /** Environment the package was seen deployed in; null = seen in source only. */
  environment: string | null;
  purl: string;
  name: string;
  group: string | null;
  version: string | null;
  /** Ecosystem / purl type (`npm`, `maven`, ...), informational. */
  type: string | null;
  /** required|optional|excluded, or null when the source did not say. */
  scope: string | null;
  /** A direct dependency of the service (declared in its manifest), not a transitive one. */
  direct: boolean;
  hashes: PackageHash[];
  /** SPDX ids, SPDX expressions or free license names. */
  licenses: string[];
  /** purls this package depends on. */
  dependsOn: string[];
}

/** Read-only queries for other modules (SBOM); tenant-filtered, deterministic order. */
export class InventoryReadRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findApplicationWithServices(tenantId: string, applicationId: number): Promise<SbomApplication | null> {
    const apps = (await this.dataSource.query(
      'SELECT id, name, description, tier, business_impact, application_type, created, updated FROM applications WHERE tenant_id = $1 AND id = $2',
      [tenantId, applicationId],
    )) as Record<string, unknown>[];
    const app = apps[0];
    if (!app) return null;
    const services = (await this.dataSource.query(
      `SELECT sv.id, sv.name, sv.source_type FROM application_services s
       JOIN inventory_services sv ON sv.tenant_id = s.tenant_id AND sv.id = s.service_id
       WHERE s.application_id = $1 ORDER BY sv.id`,
      [applicationId],
    )) as { id: number; name: string; source_type: string | null }[];
    const roots = (await this.dataSource.query(
      `SELECT c.id, c.service_id, c.repository, c.path, c.default_branch FROM code_roots c
       JOIN application_services s ON s.tenant_id = c.tenant_id AND s.service_id = c.service_id
       WHERE s.application_id = $1 AND c.tenant_id = $2 ORDER BY c.id`,
      [applicationId, tenantId],
    )) as { id: string; service_id: number; repository: string; path: string; default_branch: string | null }[];
    return {
      id: Number(app.id),
      name: app.name as string,
      description: (app.description as string | null) ?? null,
      tier: app.tier as string,
      businessImpact: app.business_impact as string,
      applicationType: app.application_type as string,
      created: new Date(app.created as string),
      updated: new Date(app.updated as string),
      services: services.map((s) => ({
        id: Number(s.id),
        name: s.name,
        sourceType: s.source_type,
        codeRoots: roots
          .filter((r) => Number(r.service_id) === Number(s.id))
          .map((r) => ({ id: r.id, repository: r.repository, path: r.path, defaultBranch: r.default_branch })),
      })),
    };
  }

  /**
   * Observations of these services, narrowed in SQL: `environment` null = all, `coderootIds` null/[]
   * = all. jsonb columns are read as text and each distinct text parsed once: an application's
   * observations repeat the same hashes/licenses/edges for every service × code root × environment a
   * package is seen in (measured 1.3-1.9x faster than per-row parsing on 50,000 observations).
   */
  async findPackageObservations(
    tenantId: string,
    serviceIds: number[],
    environment: string | null,
    coderootIds: string[] | null,
  ): Promise<PackageObservation[]> {
    if (!serviceIds.length) return [];
    const params: unknown[] = [tenantId, serviceIds];
    let where = 'tenant_id = $1 AND service_id = ANY($2::int[])';
    if (environment !== null) {
      params.push(environment);
      where += ` AND environment = $${params.length}`;
    }
    if (coderootIds !== null && coderootIds.length) {
      params.push(coderootIds);
      where += ` AND coderoot_id = ANY($${params.length}::text[])`;
    }
    const rows = (await this.dataSource.query(
      `SELECT service_id, coderoot_id, environment, purl, name, "group", version, type, scope, direct,
              hashes::text AS hashes, licenses::text AS licenses, depends_on::text AS depends_on
       FROM package_observations WHERE ${where}
       ORDER BY purl COLLATE "C", service_id, coderoot_id COLLATE "C", environment COLLATE "C"`,
      params,
    )) as Record<string, unknown>[];
    const parsed = new Map<string, unknown[]>();
    const jsonArray = <T>(text: unknown): T[] => {
      if (typeof text !== 'string' || text === '') return [];
      let value = parsed.get(text);
      if (value === undefined) {
        const v: unknown = JSON.parse(text);
        parsed.set(text, (value = Array.isArray(v) ? v : []));
      }
      return value as T[];
    };
    return rows.map((r) => ({
      serviceId: Number(r.service_id),
      coderootId: (r.coderoot_id as string) || null,
      environment: (r.environment as string) || null,
      purl: r.purl as string,
      name: r.name as string,
      group: (r.group as string | null) ?? null,
      version: (r.version as string | null) ?? null,
      type: (r.type as string | null) ?? null,
      scope: (r.scope as string | null) ?? null,
      direct: Boolean(r.direct),
      hashes: jsonArray<PackageHash>(r.hashes),
      licenses: jsonArray<string>(r.licenses),
      dependsOn: jsonArray<string>(r.depends_on),
    }));
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { ApplicationImportWriter } from '../applications/application-import';
import { applicationNameKey } from '../applications/application-name';
import { TenantsService } from '../auth/tenants.service';
import { ConflictError, ValidationFailedError, type ValidationIssue } from '../common/errors';
import { UnitOfWork, type Transaction } from '../database/unit-of-work';
import { InventoryWriter } from '../inventory/inventory-writer.service';
import { SettingsService } from '../settings/settings.service';
import { IMPORT_SECTIONS, parseImportDocument, type ImportDocument, type ImportSection } from './import-document';

export interface ImportResult {
  ok: boolean;
  mode: 'merge' | 'replace';
  /** Entries of each section written (upserted). */
  counts: Record<ImportSection, number>;
  /** Rows removed by mode "replace" (sections absent from the document are never touched). */
  deleted: Record<ImportSection, number>;
}

type Issues = ValidationIssue[];
/** Imports at least this large refresh the planner statistics (bulk loads skew them most). */
const ANALYZE_AFTER_ROWS = 1000;
const zero = (): Record<ImportSection, number> => Object.fromEntries(IMPORT_SECTIONS.map((s) => [s, 0])) as Record<ImportSection, number>;

function duplicates<T>(items: T[] | undefined, key: (item: T) => string, section: string, field: string, issues: Issues): void {
  const seen = new Set<string>();
  (items ?? []).forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) issues.push({ loc: ['body', section, i, field], msg: `duplicate entry for natural key ${k}`, type: 'value_error.duplicate' });
    seen.add(k);
  });
}

/**
 * The admin import (docs/inventory.md "Admin import"): validate the whole document (shape, duplicates, references),
 * then write every section in one transaction. A bad document changes nothing.
 */
@Injectable()
export class InventoryImportService {
  private readonly logger = new Logger('InventoryImport');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly inventory: InventoryWriter,
    private readonly applications: ApplicationImportWriter,
    private readonly settings: SettingsService,
    private readonly tenants: TenantsService,
  ) {}

  async import(tenantId: string, body: unknown): Promise<ImportResult> {
    const doc = parseImportDocument(body);
    try {
      const result = await this.unitOfWork.run(async (tx) => {
        await this.inventory.lockTenant(tx, tenantId);
        return this.write(tx, tenantId, doc);
      });
      // Committed: cached principals must now re-read the tenant's limits.
      if (doc.tenant_settings) this.tenants.limitsChanged(tenantId);
      return result;
    } catch (err) {
      // A concurrent API create of the same application name.
      if (err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '23505') {
        throw new ConflictError('The import conflicts with a concurrent change (duplicate natural key); nothing was imported');
      }
      throw err;
    }
  }

  /** Imports `body` into the tenant only if its inventory is empty (start-up seeding). Null if skipped. */
  async importIfEmpty(tenantSlug: string, body: unknown): Promise<{ tenantId: string; result: ImportResult } | null> {
    const doc = parseImportDocument(body);
    const loaded = await this.unitOfWork.run(async (tx) => {
      const tenantId = (await this.tenants.findOrCreate(tenantSlug, tx)).id;
      await this.inventory.lockTenant(tx, tenantId);
      if ((await this.applications.count(tx, tenantId)) > 0 || !(await this.inventory.isEmpty(tx, tenantId))) return null;
      return { tenantId, result: await this.write(tx, tenantId, doc) };
    });
    if (loaded && doc.tenant_settings) this.tenants.limitsChanged(loaded.tenantId);
    return loaded;
  }

  private async write(tx: Transaction, tenantId: string, doc: ImportDocument): Promise<ImportResult> {
    const mode = doc.mode ?? 'merge';
    await this.checkReferences(tx, tenantId, doc, mode);
    const replace = mode === 'replace';
    const counts = zero();
    const deleted = zero();
    const inv = this.inventory;
    if (doc.integrations) {
      deleted.integrations = await this.settings.importIntegrations(tx, tenantId, doc.integrations, replace);
      counts.integrations = Object.values(doc.integrations).filter(Boolean).length;
    }
    if (doc.tenant_settings) {
      // A field left out is unchanged (merge) or back to the default (replace).
      const s = doc.tenant_settings;
      const limit = (v: number | null | undefined) => (v === undefined && !replace ? undefined : (v ?? null));
      await this.tenants.writeLimits(tx, tenantId, {
        rateLimitPerMinute: limit(s.rate_limit_per_minute),
        oauthMcpRateLimitPerMinute: limit(s.oauth_mcp_rate_limit_per_minute),
      });
      counts.tenant_settings = 1;
    }
    if (doc.services) deleted.services = await inv.upsertServices(tx, tenantId, doc.services, replace);
    if (doc.resources) deleted.resources = await inv.upsertResources(tx, tenantId, doc.resources, replace);
    if (doc.code_roots) deleted.code_roots = await inv.upsertCodeRoots(tx, tenantId, doc.code_roots, replace);
    if (doc.packages) deleted.packages = await inv.upsertPackages(tx, tenantId, doc.packages, replace);
    if (doc.finding_counts) deleted.finding_counts = await inv.upsertFindingCounts(tx, tenantId, doc.finding_counts, replace);
    if (doc.relations) deleted.relations = await inv.upsertRelations(tx, tenantId, doc.relations, replace);
    if (doc.applications) deleted.applications = await this.applications.upsert(tx, tenantId, doc.applications, replace);
    await this.applications.refreshDynamicMembership(tx, tenantId);
    for (const section of IMPORT_SECTIONS)
      if (section !== 'integrations' && section !== 'tenant_settings') counts[section] = (doc[section] as unknown[] | undefined)?.length ?? 0;
    if (Object.values(counts).reduce((a, b) => a + b, 0) >= ANALYZE_AFTER_ROWS) {
      await inv.analyze(tx);
      await this.applications.analyze(tx);
    }
    this.logger.log(`Imported inventory (${mode}): ${IMPORT_SECTIONS.map((s) => `${s}=${counts[s]}`).join(' ')}`);
    return { ok: true, mode, counts, deleted };
  }

  /**
   * Duplicates within a section and references to services, code roots and resources: each must be
   * in the document, or (unless the document replaces that section) already stored.
   */
  private async checkReferences(tx: Transaction, tenantId: string, doc: ImportDocument, mode: 'merge' | 'replace'): Promise<void> {
    const issues: Issues = [];
    duplicates(doc.services, (s) => String(s.id), 'services', 'id', issues);
    duplicates(doc.code_roots, (c) => c.id, 'code_roots', 'id', issues);
    duplicates(doc.resources, (r) => r.platform_id, 'resources', 'platform_id', issues);
    duplicates(doc.relations, (r) => `${r.source}|${r.target}|${r.relation}`, 'relations', 'relation', issues);
    duplicates(doc.packages, (p) => `${p.service_id}|${p.coderoot_id ?? ''}|${p.environment ?? ''}|${p.purl}`, 'packages', 'purl', issues);
    duplicates(doc.finding_counts, (f) => `${f.service_id}|${f.severity}`, 'finding_counts', 'severity', issues);
    duplicates(doc.applications, (a) => applicationNameKey(a.name), 'applications', 'name', issues);
    (doc.applications ?? []).forEach((a, i) => {
      if (!a.name.trim()) issues.push({ loc: ['body', 'applications', i, 'name'], msg: 'must not be blank', type: 'value_error.blank' });
      if (a.application_type === 'dynamic' && a.service_ids !== undefined) {
        issues.push({
          loc: ['body', 'applications', i, 'service_ids'],
          msg: 'a dynamic application takes its services from its source_id; omit service_ids',
          type: 'value_error.dynamic_membership',
        });
      }
      if (a.application_type === 'dynamic' && !a.source_id) {
        issues.push({
          loc: ['body', 'applications', i, 'source_id'],
          msg: 'a dynamic application needs a source_id > 0',
          type: 'value_error.dynamic_membership',
        });
      }
      for (const [type, list] of Object.entries(a.owners ?? {})) {
        const seen = new Set<string>();
        (list ?? []).forEach((o, j) => {
          const k = o.login.trim().toLowerCase();
          if (!k) issues.push({ loc: ['body', 'applications', i, 'owners', type, j, 'login'], msg: 'must not be blank', type: 'value_error.blank' });
          else if (seen.has(k))
            issues.push({ loc: ['body', 'applications', i, 'owners', type, j, 'login'], msg: `duplicate login '${o.login}'`, type: 'value_error.duplicate' });
          seen.add(k);
        });
      }
    });

    // Services: from the document, plus stored ones unless the document replaces the services.
    const docServices = new Set((doc.services ?? []).map((s) => s.id));
    const storedCount = mode === 'replace' && doc.services;
    const serviceRefs: { loc: ValidationIssue['loc']; id: number }[] = [];
    (doc.code_roots ?? []).forEach((c, i) => serviceRefs.push({ loc: ['body', 'code_roots', i, 'service_id'], id: c.service_id }));
    (doc.resources ?? []).forEach((r, i) =>
      (r.service_ids ?? []).forEach((id, j) => serviceRefs.push({ loc: ['body', 'resources', i, 'service_ids', j], id })),
    );
    (doc.packages ?? []).forEach((p, i) => serviceRefs.push({ loc: ['body', 'packages', i, 'service_id'], id: p.service_id }));
    (doc.finding_counts ?? []).forEach((f, i) => serviceRefs.push({ loc: ['body', 'finding_counts', i, 'service_id'], id: f.service_id }));
    (doc.applications ?? []).forEach((a, i) =>
      (a.service_ids ?? []).forEach((id, j) => serviceRefs.push({ loc: ['body', 'applications', i, 'service_ids', j], id })),
    );
    for (const rel of ['source', 'target'] as const) {
      (doc.relations ?? []).forEach((r, i) => {
        const m = /^service:(\d{1,10})$/.exec(r[rel]);
        if (r[rel].startsWith('service:') && !m)
          issues.push({ loc: ['body', 'relations', i, rel], msg: 'service node ids are service:<integer id>', type: 'value_error.node' });
        if (m) serviceRefs.push({ loc: ['body', 'relations', i, rel], id: Number(m[1]) });
      });
    }
    const missingServices = [...new Set(serviceRefs.map((r) => r.id).filter((id) => !docServices.has(id)))];
    const stored = storedCount ? new Set<number>() : await this.inventory.existingServiceIds(tx, tenantId, missingServices);
    for (const ref of serviceRefs) {
      if (!docServices.has(ref.id) && !stored.has(ref.id))
        issues.push({ loc: ref.loc, msg: `unknown service id ${ref.id}`, type: 'value_error.unknown_service' });
    }

    // Code roots of packages: known, and belonging to the package's service.
    const docRoots = new Map((doc.code_roots ?? []).map((c) => [c.id, c.service_id]));
    const rootRefs = (doc.packages ?? []).flatMap((p, i) => (p.coderoot_id ? [{ i, id: p.coderoot_id, serviceId: p.service_id }] : []));
    const storedRoots =
      mode === 'replace' && doc.code_roots
        ? new Map<string, number>()
        : await this.inventory.existingCodeRoots(tx, tenantId, [...new Set(rootRefs.map((r) => r.id).filter((id) => !docRoots.has(id)))]);
    for (const ref of rootRefs) {
      const owner = docRoots.get(ref.id) ?? storedRoots.get(ref.id);
      if (owner === undefined)
        issues.push({ loc: ['body', 'packages', ref.i, 'coderoot_id'], msg: `unknown code root '${ref.id}'`, type: 'value_error.unknown_code_root' });
      else if (owner !== ref.serviceId)
        issues.push({
          loc: ['body', 'packages', ref.i, 'coderoot_id'],
          msg: `code root '${ref.id}' belongs to service ${owner}, not ${ref.serviceId}`,
          type: 'value_error.code_root_service',
        });
    }

    // Resource nodes of relations.
    const docResources = new Set((doc.resources ?? []).map((r) => r.platform_id));
    const resourceRefs = (doc.relations ?? []).flatMap((r, i) =>
      (['source', 'target'] as const).flatMap((rel) =>
        r[rel].startsWith('resource:') ? [{ loc: ['body', 'relations', i, rel], id: r[rel].slice('resource:'.length) }] : [],
      ),
    );
    const storedResources =
      mode === 'replace' && doc.resources
        ? new Set<string>()
        : await this.inventory.existingResourceIds(tx, tenantId, [...new Set(resourceRefs.map((r) => r.id).filter((id) => !docResources.has(id)))]);
    for (const ref of resourceRefs) {
      if (!docResources.has(ref.id) && !storedResources.has(ref.id))
        issues.push({ loc: ref.loc, msg: `unknown resource '${ref.id}'`, type: 'value_error.unknown_resource' });
    }
    if (issues.length) throw new ValidationFailedError(issues.slice(0, 200));
  }
}

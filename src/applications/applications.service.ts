import { Injectable } from '@nestjs/common';
import { NotFoundError, ValidationFailedError, type ValidationIssue } from '../common/errors';
import { UnitOfWork, type Transaction } from '../database/unit-of-work';
import { APPLICATION_DEFAULT_ORDER, APPLICATION_ORDER_FIELDS, parseListFilter, parseOrders } from './application-list-query';
import type { ApplicationDto, ApplicationPageDto, TermDto, TermsDto } from './dto/application.dto';
import type { AssignTierDto, CreateApplicationDto, ListQueryDto, UpdateApplicationDto } from './dto/application-input.dto';
import {
  APPLICATION_TYPES,
  BUSINESS_IMPACTS,
  DEFAULT_DESCRIPTION,
  MAX_OWNER_FIELD_LENGTH,
  MAX_OWNERS,
  OWNER_TYPES,
  TERM_TEXT,
  TIERS,
  type OwnerType,
} from './application-enums';
import { ENVIRONMENTS, RESOURCE_CATEGORIES, RISK_LEVELS } from '../inventory/inventory-enums';
import { ApplicationsRepository, type ApplicationView, type LockedApplication, type Owner } from './persistence/applications.repository';

export interface ResultBody {
  ok: boolean;
  message: string | null;
}

export function toApplicationDto(view: ApplicationView): ApplicationDto {
  return {
    id: view.id,
    name: view.name,
    description: view.description,
    service_count: view.serviceCount,
    resource_count: view.resourceCount,
    business_impact: view.businessImpact,
    tier: view.tier,
    application_type: view.applicationType,
    severity: view.severity,
    created: view.created.toISOString(),
    updated: view.updated.toISOString(),
    meta: view.meta,
    services: view.services,
    urgent: view.urgent,
    plan: view.plan,
    defer: view.defer,
    owners: view.owners,
  };
}

function notFound(id: number): NotFoundError {
  return new NotFoundError(`Application ${id} not found`);
}

/** The application inventory (docs/inventory.md): every write that touches several rows is one transaction. */
@Injectable()
export class ApplicationsService {
  constructor(
    private readonly repository: ApplicationsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async terms(tenantId: string): Promise<TermsDto> {
    const counts = await this.repository.termCounts(tenantId);
    const list = (key: string, values: readonly string[], countKey = key): TermDto[] =>
      values.map((value) => ({ value, ...TERM_TEXT[key]![value]!, count: counts[countKey]?.[value] ?? 0 }));
    return {
      tier: list('tier', TIERS),
      business_impact: list('business_impact', BUSINESS_IMPACTS),
      severity: list('severity', RISK_LEVELS),
      application_type: list('application_type', APPLICATION_TYPES),
      owner_type: list('owner_type', OWNER_TYPES),
      environment: list('environment', ENVIRONMENTS),
      order_fields: [...APPLICATION_ORDER_FIELDS],
      graph_categories: list('graph_categories', RESOURCE_CATEGORIES),
    };
  }

  async create(tenantId: string, body: CreateApplicationDto): Promise<ApplicationDto> {
    const serviceIds = [...new Set(body.service_ids ?? [])];
    const id = await this.write(async (tx) => {
      await this.assertKnownServices(tx, tenantId, serviceIds, body.service_ids ?? [], ['body', 'service_ids']);
      const id = await this.repository.insertApplication(tx, {
        tenantId,
        name: body.name,
        description: body.description === undefined ? DEFAULT_DESCRIPTION : body.description,
        tier: body.tier ?? 'TIER_1',
        businessImpact: 'HIGH',
        applicationType: body.application_type ?? 'static',
        sourceId: body.source_id ?? 0,
        meta: body.meta ?? {},
      });
      await this.repository.addMembership(tx, tenantId, id, serviceIds);
      if (body.owner) await this.repository.replaceOwners(tx, tenantId, id, 'owner', [{ login: body.owner.login, name: body.owner.name }]);
      return id;
    });
    return this.get(tenantId, id);
  }

  /** Name, description (null clears) and tier (null keeps), and membership when service_ids is an array: all or nothing. */
  async update(tenantId: string, body: UpdateApplicationDto): Promise<ResultBody> {
    await this.write(async (tx) => {
      await this.lockOrThrow(tx, tenantId, body.id);
      if (Array.isArray(body.service_ids)) {
        const ids = [...new Set(body.service_ids)];
        await this.assertKnownServices(tx, tenantId, ids, body.service_ids, ['body', 'service_ids']);
        await this.repository.replaceMembership(tx, tenantId, body.id, ids);
      }
      await this.repository.updateApplication(tx, tenantId, body.id, {
        name: body.name,
        description: body.description,
        ...(body.tier !== null ? { tier: body.tier } : {}),
      });
    });
    return { ok: true, message: `Application ${body.id} updated` };
  }

  /** `serviceIds` is the validated request body; unknown ids are reported at their request index. */
  async assignServices(tenantId: string, applicationId: number, serviceIds: number[]): Promise<ResultBody> {
    const ids = [...new Set(serviceIds)];
    await this.write(async (tx) => {
      await this.lockOrThrow(tx, tenantId, applicationId);
      await this.assertKnownServices(tx, tenantId, ids, serviceIds, ['body']);
      await this.repository.addMembership(tx, tenantId, applicationId, ids);
      await this.repository.touchApplication(tx, tenantId, applicationId);
    });
    return { ok: true, message: `${ids.length} service(s) assigned to application ${applicationId}` };
  }

  async removeService(tenantId: string, applicationId: number, serviceId: number): Promise<ResultBody> {
    await this.write(async (tx) => {
      await this.lockOrThrow(tx, tenantId, applicationId);
      const removed = await this.repository.removeMembership(tx, tenantId, applicationId, serviceId);
      if (!removed) throw new NotFoundError(`Service ${serviceId} is not assigned to application ${applicationId}`);
      await this.repository.touchApplication(tx, tenantId, applicationId);
    });
    return { ok: true, message: `Service ${serviceId} removed from application ${applicationId}` };
  }

  async assignTier(tenantId: string, applicationId: number, body: AssignTierDto): Promise<ApplicationDto> {
    await this.write(async (tx) => {
      await this.lockOrThrow(tx, tenantId, applicationId);
      await this.repository.updateApplication(tx, tenantId, applicationId, { tier: body.tier });
    });
    return this.get(tenantId, applicationId);
  }

  async list(tenantId: string, query: ListQueryDto, body: unknown): Promise<ApplicationPageDto> {
    const filters = parseListFilter(body);
    const orders = parseOrders(query, APPLICATION_ORDER_FIELDS, APPLICATION_DEFAULT_ORDER);
    const page = query.page ?? 0;
    const limit = query.limit ?? 100;
    const { total, ids } = await this.repository.listApplicationIds(tenantId, { page, limit, orders, search: query.search ?? null, filters });
    const views = new Map((await this.repository.loadViews(tenantId, ids)).map((v) => [v.id, v]));
    return {
      total,
      pages: Math.ceil(total / limit),
      page_size: limit,
      page_number: page,
      // An application deleted between the two queries is simply skipped.
      items: ids.flatMap((id) => (views.has(id) ? [toApplicationDto(views.get(id)!)] : [])),
    };
  }

  async get(tenantId: string, applicationId: number, tx?: Transaction): Promise<ApplicationDto> {
    const [view] = await this.repository.loadViews(tenantId, [applicationId], tx);
    if (!view) throw notFound(applicationId);
    return toApplicationDto(view);
  }

  async delete(tenantId: string, applicationId: number): Promise<ResultBody> {
    if (!(await this.repository.deleteApplication(tenantId, applicationId))) throw notFound(applicationId);
    return { ok: true, message: `Application ${applicationId} deleted` };
  }

  /** Body `[{"login", "name"}]` (0–50) replaces the owners of that type. */
  async setOwners(tenantId: string, applicationId: number, ownerType: string, body: unknown): Promise<ResultBody> {
    if (!(OWNER_TYPES as readonly string[]).includes(ownerType)) {
      throw new ValidationFailedError([{ loc: ['path', 'owner_type'], msg: `must be one of ${OWNER_TYPES.join(', ')}`, type: 'value_error.enum' }]);
    }
    const owners = parseOwners(body);
    await this.write(async (tx) => {
      await this.lockOrThrow(tx, tenantId, applicationId);
      await this.repository.replaceOwners(tx, tenantId, applicationId, ownerType as OwnerType, owners);
      await this.repository.touchApplication(tx, tenantId, applicationId);
    });
    return { ok: true, message: `${owners.length} ${ownerType} owner(s) set on application ${applicationId}` };
  }

  /** 404 unless the application exists in the tenant; locks its row for the transaction. */
  async lockOrThrow(tx: Transaction, tenantId: string, applicationId: number): Promise<LockedApplication> {
    const app = await this.repository.lockApplication(tx, tenantId, applicationId);
    if (!app) throw notFound(applicationId);
    return app;
  }

  async assertExists(tenantId: string, applicationId: number, tx?: Transaction): Promise<void> {
    if (!(await this.repository.applicationExists(tenantId, applicationId, tx))) throw notFound(applicationId);
  }

  /** The graph module's PUT graph stored a selection: applications stay the only writer of their rows. */
  markGraphSelectionStored(tx: Transaction, tenantId: string, applicationId: number): Promise<void> {
    return this.repository.markGraphSelectionStored(tx, tenantId, applicationId);
  }

  /** Whether PUT graph ever stored a selection for the application (false = the graph shows every member resource). */
  graphSelectionStored(tenantId: string, applicationId: number, tx?: Transaction): Promise<boolean> {
    return this.repository.graphSelectionStored(tenantId, applicationId, tx);
  }

  /** A transaction of several rows, repeated on deadlock or serialization failure (the work is safe to repeat). */
  private write<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.unitOfWork.run(work, { retryConflicts: true });
  }

  /** 422 listing every unknown id at its index in the request (`original`). */
  private async assertKnownServices(tx: Transaction, tenantId: string, ids: number[], original: number[], loc: ValidationIssue['loc']): Promise<void> {
    const unknown = new Set(await this.repository.findUnknownServiceIds(tx, tenantId, ids));
    if (!unknown.size) return;
    const issues: ValidationIssue[] = [];
    original.forEach((id, i) => {
      if (unknown.has(id)) issues.push({ loc: [...loc, i], msg: `unknown service id ${id}`, type: 'value_error.unknown_service' });
    });
    throw new ValidationFailedError(issues);
  }
}

export function parseOwners(body: unknown): Owner[] {
  if (!Array.isArray(body)) throw new ValidationFailedError([{ loc: ['body'], msg: 'must be an array of {login, name}', type: 'type_error.list' }]);
  if (body.length > MAX_OWNERS) throw new ValidationFailedError([{ loc: ['body'], msg: `at most ${MAX_OWNERS} owners`, type: 'value_error.list.max_items' }]);
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  const owners: Owner[] = [];
  body.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      issues.push({ loc: ['body', i], msg: 'must be an object {login, name}', type: 'type_error.object' });
      return;
    }
    const { login, name } = item as Record<string, unknown>;
    const trimmed = typeof login === 'string' ? login.trim() : login;
    if (typeof trimmed !== 'string' || trimmed.length < 1 || trimmed.length > MAX_OWNER_FIELD_LENGTH) {
      issues.push({ loc: ['body', i, 'login'], msg: `must be a string of 1 to ${MAX_OWNER_FIELD_LENGTH} characters`, type: 'value_error.login' });
    } else if (seen.has(trimmed.toLowerCase())) {
      issues.push({ loc: ['body', i, 'login'], msg: `duplicate login '${trimmed}'`, type: 'value_error.duplicate' });
    }
    if (typeof name !== 'string' || name.length > MAX_OWNER_FIELD_LENGTH)
      issues.push({ loc: ['body', i, 'name'], msg: `must be a string of at most ${MAX_OWNER_FIELD_LENGTH} characters`, type: 'type_error.string' });
    if (typeof trimmed === 'string') seen.add(trimmed.toLowerCase());
    if (typeof trimmed === 'string' && typeof name === 'string') owners.push({ login: trimmed, name });
  });
  if (issues.length) throw new ValidationFailedError(issues);
  return owners;
}

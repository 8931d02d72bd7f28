import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConflictResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ResultDto } from '../common/dto/result.dto';
import { TRAILING_SLASH } from '../common/routing';
import { ApplicationsService } from './applications.service';
import { ApplicationDto, ApplicationPageDto, TermsDto } from './dto/application.dto';
import { ArrayBodyPipe } from '../common/pipes/array-body.pipe';
import { AssignTierDto, CreateApplicationDto, ListQueryDto, SERVICE_IDS_BODY, UpdateApplicationDto } from './dto/application-input.dto';
import { FILTER_FIELDS, FILTER_OPS } from './application-list-query';
import { MAX_OWNER_FIELD_LENGTH, MAX_OWNERS, MAX_SERVICE_IDS, OWNER_TYPES } from './application-enums';

const LIST_BODY_SCHEMA = {
  description:
    'Optional filter: `[]`; an array of `{field, op, value}` clauses (ANDed; ops eq, neq, in, nin, and gt, gte, lt, lte for counts); or the shorthand object `{"tier": ["TIER_1","TIER_2"], "severity": "HIGH"}`.',
  required: false,
  schema: {
    oneOf: [
      { type: 'array', maxItems: 0 },
      {
        type: 'array',
        items: {
          type: 'object',
          required: ['field', 'value'],
          properties: { field: { type: 'string', enum: Object.keys(FILTER_FIELDS) }, op: { type: 'string', enum: [...FILTER_OPS], default: 'eq' }, value: {} },
        },
      },
      { type: 'object', additionalProperties: true },
    ],
  },
  examples: {
    none: { value: [] },
    clauses: {
      value: [
        { field: 'tier', op: 'in', value: ['TIER_1', 'TIER_2'] },
        { field: 'urgent', op: 'gt', value: 0 },
      ],
    },
    shorthand: { value: { tier: ['TIER_1', 'TIER_2'], severity: 'HIGH' } },
  },
};

const ID_PARAM = { name: 'application_id', type: 'integer', example: 12 };

/**
 * The application endpoints (docs/inventory.md; the graph and SBOM ones live in their own modules). The prefix is
 * only `api`: a trailing-slash route must be written `applications/{/}` (see common/routing.ts).
 */
@ApiTags('applications')
@ApiBearerAuth()
@Controller('api')
export class ApplicationsController {
  constructor(private readonly applications: ApplicationsService) {}

  // Declared before `:application_id` so `_terms` is never read as an id.
  @Get('applications/_terms')
  @RequireScopes('inventory:read')
  @ApiOperation({ summary: 'Get application terms: every enum with labels and counts, order fields and graph categories' })
  @ApiOkResponse({ type: TermsDto })
  terms(@CurrentPrincipal() principal: Principal): Promise<TermsDto> {
    return this.applications.terms(principal.tenantId);
  }

  @Post(`applications/${TRAILING_SLASH}`)
  @HttpCode(200)
  @RequireScopes('inventory:write')
  @ApiOperation({ summary: 'Create application (note the trailing slash; POST without it lists)' })
  @ApiBody({
    type: CreateApplicationDto,
    examples: {
      minimal: { value: { name: 'payments' } },
      full: {
        value: {
          name: 'payments',
          description: 'Card payments',
          tier: 'TIER_2',
          application_type: 'static',
          owner: { login: 'jdoe', name: 'Jane Doe' },
          meta: { cost_center: 'cc-42' },
          service_ids: [101, 102],
        },
      },
    },
  })
  @ApiOkResponse({ type: ApplicationDto })
  @ApiConflictResponse({ description: 'An application of that name already exists in the tenant' })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApplicationDto): Promise<ApplicationDto> {
    return this.applications.create(principal.tenantId, body);
  }

  @Put(`applications/${TRAILING_SLASH}`)
  @RequireScopes('inventory:write')
  @ApiOperation({ summary: 'Update application info (description and tier keys must be present; null clears the description, keeps the tier)' })
  @ApiBody({ type: UpdateApplicationDto, examples: { update: { value: { id: 12, name: 'payments', description: null, tier: 'TIER_2', service_ids: [101] } } } })
  @ApiOkResponse({ type: ResultDto })
  @ApiConflictResponse({ description: 'Another application of that name already exists in the tenant' })
  update(@CurrentPrincipal() principal: Principal, @Body() body: UpdateApplicationDto): Promise<ResultDto> {
    return this.applications.update(principal.tenantId, body);
  }

  @Get('applications')
  @RequireScopes('inventory:read')
  // No @ApiBody: browsers cannot send a body with GET, so Swagger UI could not run this operation
  // (docs/decisions/0007-get-list-body-undocumented.md). The body is still accepted: existing clients send it.
  @ApiOperation({
    summary: 'List applications (paged)',
    description:
      'Filters go in a JSON body, which HTTP clients may send with this GET; browsers, and so Swagger UI, cannot. To filter from here, use `POST /api/applications` (the same operation, body documented there).',
  })
  @ApiOkResponse({ type: ApplicationPageDto })
  listGet(@CurrentPrincipal() principal: Principal, @Query() query: ListQueryDto, @Body() body: unknown): Promise<ApplicationPageDto> {
    return this.applications.list(principal.tenantId, query, body);
  }

  @Post('applications')
  @HttpCode(200)
  @RequireScopes('inventory:read')
  @ApiOperation({ summary: 'List applications (same as GET; no trailing slash)' })
  @ApiBody(LIST_BODY_SCHEMA)
  @ApiOkResponse({ type: ApplicationPageDto })
  listPost(@CurrentPrincipal() principal: Principal, @Query() query: ListQueryDto, @Body() body: unknown): Promise<ApplicationPageDto> {
    return this.applications.list(principal.tenantId, query, body);
  }

  @Get('applications/:application_id')
  @RequireScopes('inventory:read')
  @ApiOperation({ summary: 'Get application' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: ApplicationDto })
  get(@CurrentPrincipal() principal: Principal, @Param('application_id') id: number): Promise<ApplicationDto> {
    return this.applications.get(principal.tenantId, id);
  }

  @Delete('applications/:application_id')
  @RequireScopes('inventory:write')
  @ApiOperation({ summary: 'Delete application (its membership, owners and graph selection; never services or resources)' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: ResultDto })
  delete(@CurrentPrincipal() principal: Principal, @Param('application_id') id: number): Promise<ResultDto> {
    return this.applications.delete(principal.tenantId, id);
  }

  @Post('applications/:application_id/service')
  @HttpCode(200)
  @RequireScopes('inventory:write')
  @ApiOperation({ summary: 'Assign services (union with the current membership; idempotent)' })
  @ApiParam(ID_PARAM)
  @ApiBody({ schema: { type: 'array', items: { type: 'integer', minimum: 0 }, maxItems: MAX_SERVICE_IDS }, examples: { assign: { value: [101, 102] } } })
  @ApiOkResponse({ type: ResultDto })
  assignServices(
    @CurrentPrincipal() principal: Principal,
    @Param('application_id') id: number,
    @Body(new ArrayBodyPipe(SERVICE_IDS_BODY)) serviceIds: number[],
  ): Promise<ResultDto> {
    return this.applications.assignServices(principal.tenantId, id, serviceIds);
  }

  @Delete('applications/:application_id/service/:service_id')
  @RequireScopes('inventory:write')
  @ApiOperation({ summary: 'Remove service (404 if it is not assigned)' })
  @ApiParam(ID_PARAM)
  @ApiParam({ name: 'service_id', type: 'integer', example: 101 })
  @ApiOkResponse({ type: ResultDto })
  removeService(@CurrentPrincipal() principal: Principal, @Param('application_id') id: number, @Param('service_id') serviceId: number): Promise<ResultDto> {
    return this.applications.removeService(principal.tenantId, id, serviceId);
  }

  @Post('applications/:application_id/tier')
  @HttpCode(200)
  @RequireScopes('inventory:write')
  @ApiOperation({ summary: 'Assign tier; returns the updated application' })
  @ApiParam(ID_PARAM)
  @ApiBody({ type: AssignTierDto, examples: { tier: { value: { tier: 'TIER_2' } } } })
  @ApiOkResponse({ type: ApplicationDto })
  assignTier(@CurrentPrincipal() principal: Principal, @Param('application_id') id: number, @Body() body: AssignTierDto): Promise<ApplicationDto> {
    return this.applications.assignTier(principal.tenantId, id, body);
  }

  @Post('applications/:application_id/owners/:owner_type')
  @HttpCode(200)
  @RequireScopes('inventory:write')
  @ApiOperation({ summary: "Set owners of one type (replaces that type's list; 0–50 entries)" })
  @ApiParam(ID_PARAM)
  @ApiParam({ name: 'owner_type', enum: OWNER_TYPES })
  @ApiBody({
    schema: {
      type: 'array',
      maxItems: MAX_OWNERS,
      items: {
        type: 'object',
        required: ['login', 'name'],
        properties: { login: { type: 'string', minLength: 1, maxLength: MAX_OWNER_FIELD_LENGTH }, name: { type: 'string', maxLength: MAX_OWNER_FIELD_LENGTH } },
      },
    },
    examples: { owners: { value: [{ login: 'jdoe', name: 'Jane Doe' }] } },
  })
  @ApiOkResponse({ type: ResultDto })
  setOwners(
    @CurrentPrincipal() principal: Principal,
    @Param('application_id') id: number,
    @Param('owner_type') ownerType: string,
    @Body() body: unknown,
  ): Promise<ResultDto> {
    return this.applications.setOwners(principal.tenantId, id, ownerType, body);
  }
}

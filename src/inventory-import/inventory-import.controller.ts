import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ImportResultDto } from './dto/import-result.dto';
import { IMPORT_SCHEMA } from './import-schema';
import { InventoryImportService } from './inventory-import.service';

const EXAMPLE = {
  mode: 'merge',
  services: [{ id: 101, name: 'payments-api', source_type: 'github', source_id: 1 }],
  code_roots: [{ id: 'acme/payments:services/api', service_id: 101 }],
  resources: [{ platform_id: 'arn:aws:s3:::acme-payments-prod', resource_type: 'aws_s3_bucket', environment: 'production', service_ids: [101] }],
  relations: [{ source: 'service:101', target: 'resource:arn:aws:s3:::acme-payments-prod', relation: 'writes_to' }],
  packages: [
    {
      service_id: 101,
      coderoot_id: 'acme/payments:services/api',
      environment: null,
      purl: 'pkg:npm/express@5.1.0',
      name: 'express',
      version: '5.1.0',
      type: 'npm',
      licenses: ['MIT'],
    },
  ],
  finding_counts: [{ service_id: 101, severity: 'HIGH', urgent: 2, plan: 5, defer: 1 }],
  applications: [{ name: 'payments', tier: 'TIER_1', service_ids: [101], owners: { owner: [{ login: 'jdoe', name: 'Jane Doe' }] } }],
  integrations: { github: { enabled: true, orgs: ['acme'], accounts: [] }, aws: { enabled: false, orgs: [], accounts: [] } },
};

/** Admin import of services, resources, packages, findings and applications (docs/inventory.md). */
@ApiTags('internal')
@ApiBearerAuth()
@RequireScopes('admin')
@Controller('api/internal/inventory')
export class InventoryImportController {
  constructor(private readonly imports: InventoryImportService) {}

  @Post('import')
  @HttpCode(200)
  @ApiOperation({ summary: 'Import an inventory document (merge|replace; idempotent upserts by natural key; all or nothing)' })
  @ApiBody({ schema: IMPORT_SCHEMA as unknown as Record<string, unknown>, examples: { merge: { value: EXAMPLE } } })
  @ApiOkResponse({ type: ImportResultDto })
  @ApiConflictResponse({ description: 'A concurrent change conflicts with the import (duplicate natural key); nothing was imported' })
  import(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<ImportResultDto> {
    return this.imports.import(principal.tenantId, body);
  }
}

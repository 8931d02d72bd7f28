import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from './auth.decorators';
import { TenantDto, UpdateTenantDto } from './dto/tenant.dto';
import type { Principal } from './principal';
import { TenantsService } from './tenants.service';
import { ValidationFailedError } from '../common/errors';

/**
 * Administration → the caller's own tenant and its limits (docs/decisions/0008-tenant-settings.md).
 * An admin key sees and changes only its tenant; `bulwark tenants` works on every tenant.
 */
@ApiTags('admin')
@ApiBearerAuth()
@RequireScopes('admin')
@Controller('api/admin/tenant')
export class TenantController {
  constructor(private readonly tenants: TenantsService) {}

  @Get()
  @ApiOperation({ summary: "The caller's tenant, its limit settings and the limits that apply" })
  @ApiOkResponse({ type: TenantDto })
  async get(@CurrentPrincipal() principal: Principal): Promise<TenantDto> {
    return this.tenants.view(await this.tenants.get(principal.tenantId));
  }

  @Patch()
  @ApiOperation({ summary: "Set the caller's tenant limits (a field left out is unchanged; null restores the default); applies from the next request" })
  @ApiOkResponse({ type: TenantDto })
  @ApiUnprocessableEntityResponse({ description: 'A limit that is not an integer from 1 to 10,000,000 or null, or neither field given' })
  async update(@CurrentPrincipal() principal: Principal, @Body() body: UpdateTenantDto): Promise<TenantDto> {
    if (body.rate_limit_per_minute === undefined && body.oauth_mcp_rate_limit_per_minute === undefined) {
      // Unknown fields are stripped, so a misspelt one would otherwise change nothing and answer 200.
      throw new ValidationFailedError([
        { loc: ['body'], msg: 'give rate_limit_per_minute and/or oauth_mcp_rate_limit_per_minute', type: 'value_error.missing' },
      ]);
    }
    const tenant = await this.tenants.setLimits(principal.tenantId, {
      rateLimitPerMinute: body.rate_limit_per_minute,
      oauthMcpRateLimitPerMinute: body.oauth_mcp_rate_limit_per_minute,
    });
    return this.tenants.view(tenant);
  }
}

import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { IntegrationsDto } from './dto/settings.dto';
import { SettingsService } from './settings.service';

@ApiTags('internal')
@ApiBearerAuth()
@RequireScopes('admin')
@Controller('api/internal/application')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get('integrations')
  @ApiOperation({ summary: 'Which integrations are enabled, with their organizations and accounts (admin scope)' })
  @ApiOkResponse({ type: IntegrationsDto })
  integrations(@CurrentPrincipal() principal: Principal): Promise<IntegrationsDto> {
    return this.settings.integrations(principal.tenantId);
  }

  @Get('features')
  @ApiOperation({ summary: 'Enabled features, sorted (admin scope)' })
  @ApiOkResponse({ schema: { type: 'array', items: { type: 'string' }, example: ['agent_file_scan', 'application_inventory', 'mcp', 'sbom'] } })
  features(): string[] {
    return this.settings.features();
  }
}

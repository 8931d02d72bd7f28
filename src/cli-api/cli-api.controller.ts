import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { CliApiService } from './cli-api.service';
import { CliConfigDto, TelemetryAcceptedDto, TelemetryEventDto, WhoamiDto } from './dto/cli-api.dto';

/** Control-plane calls of the `bulwark` CLI: their own 600/min budget per credential (docs/rate-limits.md). */
@ApiTags('cli')
@ApiBearerAuth()
@Controller('api/cli')
export class CliApiController {
  constructor(private readonly cli: CliApiService) {}

  @Get('whoami')
  @ApiOperation({ summary: 'Who this credential is: tenant, key, scopes and rate budgets' })
  @ApiOkResponse({ type: WhoamiDto })
  whoami(@CurrentPrincipal() principal: Principal): Promise<WhoamiDto> {
    return this.cli.whoami(principal);
  }

  @Get('config')
  @ApiOperation({ summary: 'Server-advertised CLI settings: SBOM batch size, scan limits, retry policy, budgets' })
  @ApiOkResponse({ type: CliConfigDto })
  config(@CurrentPrincipal() principal: Principal): CliConfigDto {
    return this.cli.config(principal);
  }

  @Post('telemetry')
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept one small usage event; it is validated and discarded (never stored or logged)' })
  @ApiOkResponse({ type: TelemetryAcceptedDto })
  telemetry(@Body() event: TelemetryEventDto): TelemetryAcceptedDto {
    this.cli.telemetry(event);
    return { accepted: true };
  }
}

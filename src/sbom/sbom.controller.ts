import { Body, Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentPrincipal, RequireScopes } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { SbomRequestDto } from './dto/sbom-request.dto';
import { SbomService } from './sbom.service';

export const CYCLONEDX_JSON = 'application/vnd.cyclonedx+json';
/** The CycloneDX media type with the spec version we emit. */
export const CYCLONEDX_JSON_16 = `${CYCLONEDX_JSON}; version=1.6`;

const SBOM_RESPONSE_SCHEMA = {
  type: 'object',
  description: 'A CycloneDX 1.6 JSON document (https://cyclonedx.org/docs/1.6/json/); only the top-level keys SPEC.md names are listed.',
  required: ['bomFormat', 'specVersion'],
  additionalProperties: true,
  properties: {
    bomFormat: { type: 'string', enum: ['CycloneDX'] },
    specVersion: { type: 'string', default: '1.6' },
    serialNumber: { type: 'string', nullable: true, example: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79' },
    version: { type: 'integer', nullable: true, example: 1 },
  },
};

@ApiTags('applications')
@ApiBearerAuth()
@Controller('api/applications')
export class SbomController {
  constructor(private readonly sbom: SbomService) {}

  @Post(':application_id/sbom')
  @HttpCode(200)
  @RequireScopes('inventory:read')
  @ApiOperation({
    summary: 'Generate SBOM: CycloneDX 1.6 JSON of the application (services and deduplicated packages)',
    description: `Both body keys must be present (null allowed). Send \`Accept: ${CYCLONEDX_JSON}\` to get that media type back; otherwise application/json.`,
  })
  @ApiParam({ name: 'application_id', type: 'integer', example: 12 })
  @ApiBody({
    type: SbomRequestDto,
    examples: {
      all: { value: { environment: null, coderoots: null } },
      production: { value: { environment: 'production', coderoots: ['acme/payments:services/api'] } },
    },
  })
  @ApiProduces('application/json', CYCLONEDX_JSON)
  @ApiOkResponse({ description: 'CycloneDX 1.6 document', schema: SBOM_RESPONSE_SCHEMA })
  async generate(
    @CurrentPrincipal() principal: Principal,
    @Param('application_id') applicationId: number,
    @Body() body: SbomRequestDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const json = await this.sbom.generate(principal.tenantId, applicationId, { environment: body.environment, coderoots: body.coderoots });
    // Content negotiation between the two JSON spellings; anything else gets plain JSON (never 406).
    const wantsCycloneDx = req.accepts(['application/json', CYCLONEDX_JSON]) === CYCLONEDX_JSON;
    res.type(wantsCycloneDx ? CYCLONEDX_JSON_16 : 'application/json');
    return json;
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from './auth.decorators';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyDto, CreateApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';
import type { Principal } from './principal';
import { ResultDto } from '../common/dto/result.dto';
import { ValidationFailedError } from '../common/errors';

/** Administration → access → API keys. Keys are managed within the caller's tenant (docs/decisions/0021-tenancy-and-credentials.md). */
@ApiTags('admin')
@ApiBearerAuth()
@RequireScopes('admin')
@Controller('api/admin/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: "Create an API key in the caller's tenant; the token is returned once" })
  @ApiOkResponse({ type: CreatedApiKeyDto })
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
    this.apiKeys.assertExpiryInFuture(expiresAt, ['body', 'expires_at']);
    const { key, token } = await this.apiKeys.create({
      tenantId: principal.tenantId,
      name: body.name.trim(),
      scopes: body.scopes ?? ['inventory:read', 'scan'],
      expiresAt,
      rateLimitPerMinute: body.rate_limit_per_minute ?? null,
    });
    return { ...ApiKeyDto.from(key), token };
  }

  @Get()
  @ApiOperation({ summary: "List the API keys of the caller's tenant (no tokens)" })
  @ApiOkResponse({ type: ApiKeyDto, isArray: true })
  async list(@CurrentPrincipal() principal: Principal): Promise<ApiKeyDto[]> {
    return (await this.apiKeys.list(principal.tenantId)).map((k) => ApiKeyDto.from(k));
  }

  @Delete(':key_id')
  @ApiOperation({ summary: 'Revoke an API key (takes effect everywhere within the auth cache TTL)' })
  @ApiOkResponse({ type: ResultDto })
  async revoke(
    @CurrentPrincipal() principal: Principal,
    @Param(
      'key_id',
      new ParseUUIDPipe({ exceptionFactory: () => new ValidationFailedError([{ loc: ['path', 'key_id'], msg: 'must be a UUID', type: 'type_error.uuid' }]) }),
    )
    keyId: string,
  ): Promise<ResultDto> {
    await this.apiKeys.revoke(principal.tenantId, keyId);
    return { ok: true, message: `API key ${keyId} revoked` };
  }
}

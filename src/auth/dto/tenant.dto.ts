import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_RATE_LIMIT_PER_MINUTE, type TenantView } from '../tenants.service';

const API_KEY_BUDGET =
  "Requests per minute of each of the tenant's API keys that has no rate_limit_per_minute of its own (REST and API-key MCP calls share it).";
const OAUTH_MCP = 'Requests per minute of each OAuth client + user of the tenant on /mcp.';

/** Body of PATCH /api/admin/tenant: a field left out is unchanged, null puts the default back. */
export class UpdateTenantDto {
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_RATE_LIMIT_PER_MINUTE,
    example: 5000,
    description: `${API_KEY_BUDGET} null = the default.`,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_LIMIT_PER_MINUTE)
  rate_limit_per_minute?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_RATE_LIMIT_PER_MINUTE,
    example: 1200,
    description: `${OAUTH_MCP} null = the default.`,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_LIMIT_PER_MINUTE)
  oauth_mcp_rate_limit_per_minute?: number | null;
}

export class TenantLimitsDto {
  @ApiProperty({ type: 'integer', example: 2000, description: API_KEY_BUDGET }) rate_limit_per_minute!: number;
  @ApiProperty({ type: 'integer', example: 600, description: OAUTH_MCP }) oauth_mcp_rate_limit_per_minute!: number;
}

export class TenantDto implements TenantView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'default' }) slug!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: `${API_KEY_BUDGET} null = the default.` }) rate_limit_per_minute!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: `${OAUTH_MCP} null = the default.` }) oauth_mcp_rate_limit_per_minute!: number | null;
  @ApiProperty({ type: TenantLimitsDto, description: "The limits that apply: the tenant's where set, else the service defaults." }) effective!: TenantLimitsDto;
}

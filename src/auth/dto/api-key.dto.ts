import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsISO8601, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { ALL_SCOPES, type Scope } from '../principal';
import type { ApiKeyEntity } from '../persistence/api-key.entity';
import { MAX_RATE_LIMIT_PER_MINUTE } from '../tenants.service';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'ci-pipeline', minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  name!: string;

  @ApiPropertyOptional({ enum: ALL_SCOPES, isArray: true, default: ['inventory:read', 'scan'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(ALL_SCOPES.length)
  @IsIn(ALL_SCOPES as Scope[], { each: true })
  scopes?: Scope[];

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the key stops working; must be in the future (422 otherwise); null or absent = never.',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  expires_at?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: 10_000_000,
    description: "Raise of the per-key budget (requests per minute); null or absent = the tenant's budget.",
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_LIMIT_PER_MINUTE)
  rate_limit_per_minute?: number | null;
}

export class ApiKeyDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'bwk_AbC123', description: 'First characters of the token, for recognition.' }) display_prefix!: string;
  @ApiProperty({ enum: ALL_SCOPES, isArray: true }) scopes!: string[];
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expires_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revoked_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_used_at!: string | null;
  @ApiProperty({ nullable: true, type: 'integer' }) rate_limit_per_minute!: number | null;

  static from(key: ApiKeyEntity): ApiKeyDto {
    return {
      id: key.id,
      name: key.name,
      display_prefix: key.displayPrefix,
      scopes: key.scopes,
      created: key.createdAt.toISOString(),
      expires_at: key.expiresAt?.toISOString() ?? null,
      revoked_at: key.revokedAt?.toISOString() ?? null,
      last_used_at: key.lastUsedAt?.toISOString() ?? null,
      rate_limit_per_minute: key.rateLimitPerMinute,
    };
  }
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The bearer token. Shown once; only its SHA-256 is stored.', example: 'bwk_…' })
  token!: string;
}

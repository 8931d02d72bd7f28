import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

export class WindowLimitDto {
  @ApiProperty({ type: 'integer', example: 2000 }) limit!: number;
  @ApiProperty({ type: 'integer', example: 60 }) window_seconds!: number;
}

export class WhoamiApiKeyDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ nullable: true, type: String, description: 'Key name (null if the key is no longer listed).' }) name!: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'bwk_AbC123' }) display_prefix!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expires_at!: string | null;
}

export class WhoamiRateLimitsDto {
  @ApiProperty({ type: WindowLimitDto, description: 'The bulk budget this credential is charged against (tenant raises included).' })
  api!: WindowLimitDto;
  @ApiProperty({ type: WindowLimitDto, description: 'Budget of whoami, config and telemetry.' })
  control_plane!: WindowLimitDto;
}

export class WhoamiDto {
  @ApiProperty({ enum: ['api_key', 'oauth'] }) kind!: 'api_key' | 'oauth';
  @ApiProperty({ format: 'uuid' }) tenant_id!: string;
  @ApiProperty({ type: [String], example: ['inventory:read', 'scan'] }) scopes!: string[];
  @ApiPropertyOptional({ type: WhoamiApiKeyDto }) api_key?: WhoamiApiKeyDto;
  @ApiPropertyOptional({ description: 'OAuth client id (OAuth principals only).' }) client_id?: string;
  @ApiProperty({ type: WhoamiRateLimitsDto }) rate_limits!: WhoamiRateLimitsDto;
}

export class ScanLimitsDto {
  @ApiProperty({ type: 'integer', example: 3 }) files_per_upload!: number;
  @ApiProperty({ type: 'integer', example: 256000, description: 'Bytes (KB = 1,024).' }) file_bytes!: number;
  @ApiProperty({ type: 'integer', example: 768000 }) total_uncompressed_bytes!: number;
  @ApiProperty({ type: 'integer', example: 1048576 }) upload_bytes!: number;
}

export class RetryPolicyDto {
  @ApiProperty({ type: 'integer', example: 3 }) max_retries!: number;
  @ApiProperty({ type: 'integer', example: 60 }) within_seconds!: number;
}

export class CliConfigDto {
  @ApiProperty({ type: 'integer', example: 10, description: 'SBOM assessments per batch request.' }) sbom_batch_size!: number;
  @ApiProperty({ type: ScanLimitsDto }) scan_limits!: ScanLimitsDto;
  @ApiProperty({ type: RetryPolicyDto, description: 'How the scan command retries after 429/503 with Retry-After.' })
  scan_retry!: RetryPolicyDto;
  @ApiProperty({ type: WhoamiRateLimitsDto }) rate_limits!: WhoamiRateLimitsDto;
  @ApiProperty({ type: WindowLimitDto, description: 'Per-source-address edge allowance for API traffic.' }) edge_api!: WindowLimitDto;
  @ApiProperty({ type: WindowLimitDto, description: 'Separate edge allowance of POST /api/agent_files/scan.' }) edge_scan!: WindowLimitDto;
  @ApiProperty({ example: '1.0.21' }) min_cli_version!: string;
}

export const TELEMETRY_EVENTS = ['command_started', 'command_finished', 'command_failed', 'retry', 'backoff'] as const;

/** A small usage event. Accepted and discarded: nothing is stored or logged with its content. */
export class TelemetryEventDto {
  @ApiProperty({ enum: TELEMETRY_EVENTS })
  @IsIn(TELEMETRY_EVENTS as unknown as string[])
  event!: (typeof TELEMETRY_EVENTS)[number];

  @ApiProperty({ example: '1.0.23' })
  @IsString()
  @Matches(/^\d{1,4}\.\d{1,4}\.\d{1,4}(?:[-+][0-9A-Za-z.-]{1,32})?$/)
  cli_version!: string;

  @ApiPropertyOptional({ example: 'scan', maxLength: 32 })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z][a-z0-9-]{0,31}$/)
  command?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 86_400_000 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(86_400_000)
  duration_ms?: number;

  @ApiPropertyOptional({ example: 'linux', maxLength: 32 })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  os?: string;

  @ApiPropertyOptional({ description: 'At most 16 flat properties (strings ≤ 64 chars, numbers, booleans).' })
  @IsOptional()
  @IsObject()
  properties?: Record<string, string | number | boolean>;
}

export class TelemetryAcceptedDto {
  @ApiProperty({ example: true }) accepted!: boolean;
}

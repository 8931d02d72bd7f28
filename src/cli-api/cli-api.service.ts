import { Injectable, Optional } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { ApiKeysService } from '../auth/api-keys.service';
import type { Principal } from '../auth/principal';
import { ValidationFailedError, type ValidationIssue } from '../common/errors';
import { MetricsService } from '../metrics/metrics.service';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { DEFAULT_SCAN_LIMITS } from '../scanner/archive/scan-limits';
import type { CliConfigDto, TelemetryEventDto, WhoamiDto, WhoamiRateLimitsDto } from './dto/cli-api.dto';

/** Server-advertised CLI settings (docs/cli.md "Network behaviour"). */
export const CLI_SETTINGS = {
  sbomBatchSize: 10,
  scanRetry: { maxRetries: 3, withinSeconds: 60 },
  minCliVersion: '1.0.21',
} as const;

const MAX_PROPERTIES = 16;
const MAX_PROPERTY_STRING = 64;

/**
 * The CLI's control-plane calls. They are charged to the separate 600/min control-plane budget by
 * the rate-limit guard (the routes are listed in RATE_LIMIT_POLICY), not to the 2,000/min bulk one.
 */
@Injectable()
export class CliApiService {
  private readonly telemetryEvents?: Counter<'event'>;

  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly limiter: RateLimiter,
    @Optional() metrics?: MetricsService,
  ) {
    this.telemetryEvents = metrics?.counter('bulwark_cli_telemetry_events_total', 'CLI telemetry events received (content discarded)', ['event']);
  }

  async whoami(principal: Principal): Promise<WhoamiDto> {
    const base = { tenant_id: principal.tenantId, scopes: [...principal.scopes], rate_limits: this.rateLimits(principal) };
    if (principal.kind === 'oauth') return { kind: 'oauth', client_id: principal.clientId, ...base };
    const key = (await this.apiKeys.list(principal.tenantId)).find((k) => k.id === principal.apiKeyId);
    return {
      kind: 'api_key',
      ...base,
      api_key: {
        id: principal.apiKeyId,
        name: key?.name ?? null,
        display_prefix: key?.displayPrefix ?? null,
        expires_at: key?.expiresAt?.toISOString() ?? null,
      },
    };
  }

  config(principal: Principal): CliConfigDto {
    const edge = this.limiter.policy.edge;
    return {
      sbom_batch_size: CLI_SETTINGS.sbomBatchSize,
      scan_limits: {
        files_per_upload: DEFAULT_SCAN_LIMITS.maxFiles,
        file_bytes: DEFAULT_SCAN_LIMITS.maxFileBytes,
        total_uncompressed_bytes: DEFAULT_SCAN_LIMITS.maxTotalBytes,
        upload_bytes: DEFAULT_SCAN_LIMITS.maxUploadBytes,
      },
      scan_retry: { max_retries: CLI_SETTINGS.scanRetry.maxRetries, within_seconds: CLI_SETTINGS.scanRetry.withinSeconds },
      rate_limits: this.rateLimits(principal),
      edge_api: { limit: edge.api.limit, window_seconds: edge.windowMs / 1000 },
      edge_scan: { limit: edge.scan.limit, window_seconds: edge.windowMs / 1000 },
      min_cli_version: CLI_SETTINGS.minCliVersion,
    };
  }

  /** Validates and discards the event; only a per-event-name counter moves. */
  telemetry(event: TelemetryEventDto): void {
    const issues: ValidationIssue[] = [];
    const props = event.properties ?? {};
    const entries = Object.entries(props);
    if (entries.length > MAX_PROPERTIES)
      issues.push({ loc: ['body', 'properties'], msg: `at most ${MAX_PROPERTIES} properties`, type: 'value_error.too_many' });
    for (const [k, v] of entries.slice(0, MAX_PROPERTIES + 1)) {
      const ok = typeof v === 'number' ? Number.isFinite(v) : typeof v === 'boolean' || (typeof v === 'string' && v.length <= MAX_PROPERTY_STRING);
      if (!ok || k.length > 64) {
        issues.push({
          loc: ['body', 'properties', k.slice(0, 64)],
          msg: `must be a number, boolean or string of at most ${MAX_PROPERTY_STRING} characters`,
          type: 'type_error.property',
        });
      }
    }
    if (issues.length) throw new ValidationFailedError(issues);
    this.telemetryEvents?.inc({ event: event.event });
  }

  private rateLimits(principal: Principal): WhoamiRateLimitsDto {
    const api = this.limiter.appBudgetCheck(principal, 'api');
    const cp = this.limiter.appBudgetCheck(principal, 'control-plane');
    return {
      api: { limit: api.limit, window_seconds: api.windowMs / 1000 },
      control_plane: { limit: cp.limit, window_seconds: cp.windowMs / 1000 },
    };
  }
}

import type Redis from 'ioredis';
import type { AppConfig, EdgeLimitsMode } from '../config/app-config';
import type { RateLimitPolicy } from './rate-limit.policy';

export interface RateLimitModuleOptions {
  /** Shared counters; null = per-process memory (single replica). */
  redis: Redis | null;
  /** Redis key prefix (tests: unique per run). Default `bulwark:rl:`. */
  keyPrefix?: string;
  /** EDGE_LIMITS: enforce, only log and count would-be blocks, or skip the edge layer. */
  edgeLimits: EdgeLimitsMode;
  /** TRUSTED_PROXIES: CIDRs whose X-Forwarded-For is believed. */
  trustedProxies: readonly string[];
  /** API_KEY_RATE_LIMIT_PER_MINUTE (default budget per key, before per-tenant raises). */
  apiKeyRateLimitPerMinute?: number;
  /** Defaults to RATE_LIMIT_POLICY. */
  policy?: RateLimitPolicy;
}

/** Injection token of {@link RateLimitModuleOptions}. */
export const RATE_LIMIT_OPTIONS = Symbol('RATE_LIMIT_OPTIONS');

/** The app's wiring: REDIS_URL (through the shared client), EDGE_LIMITS, TRUSTED_PROXIES, default budget. */
export function rateLimitOptionsFromConfig(
  config: Pick<AppConfig, 'edgeLimits' | 'trustedProxies' | 'apiKeyRateLimitPerMinute'>,
  redis: Redis | null,
): RateLimitModuleOptions {
  return {
    redis,
    edgeLimits: config.edgeLimits,
    trustedProxies: config.trustedProxies,
    apiKeyRateLimitPerMinute: config.apiKeyRateLimitPerMinute,
  };
}

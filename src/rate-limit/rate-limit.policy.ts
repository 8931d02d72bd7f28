/**
 * Every rate-limit rule as data (docs/decisions/0023-rate-limiting-model.md). Reviewed like code: a
 * change here changes what clients are allowed. Open points (secrets, exports, repositories,
 * preflight kinds) are decided here and documented in docs/rate-limits.md.
 *
 * Path patterns: literal segments match case-insensitively (as Express routes do), `:name` matches
 * one segment, and a trailing slash is optional (so `/x` cannot dodge the limit of `/x/`).
 */
import { DEFAULT_OAUTH_MCP_LIMIT_PER_MINUTE } from '../auth/tenants.service';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSpec {
  method: HttpMethod;
  path: string;
}

export interface WindowLimit {
  limit: number;
  windowMs: number;
}

/** Per-endpoint limit, scoped to the caller's source network (IPv4 exact, IPv6 /64). */
export interface EndpointLimitRule extends WindowLimit {
  id: string;
  route: RouteSpec;
  /** Refuse (503) rather than count per process when Redis is down. */
  failClosed: boolean;
  /** Bucket separately per value of this path parameter (values outside `values` share one bucket). */
  separateBy?: { param: string; values: readonly string[] };
}

export type CooldownScope = 'secret' | 'organization' | 'user' | 'repository';

/** Cooldown or quota on an action; only actions that succeed (2xx) are counted. */
export interface CooldownRule extends WindowLimit {
  id: string;
  /** Human wording for the 429 detail ("a secret can be re-checked once every 15 minutes"). */
  description: string;
  scope: CooldownScope;
  /** For `secret`/`repository` scopes: the path parameter holding the id. */
  scopeParam?: string;
  /** Requests that perform the action; several routes listed under one rule share its budget. */
  routes: readonly RouteSpec[];
}

export interface McpClassLimits {
  /** OAuth-authenticated MCP: bucket tenant + OAuth client + subject; tenant-raisable. */
  oauth: WindowLimit;
  /** Browser-session MCP: tenant + signed-in user (no browser sessions exist yet; kept for the table). */
  browserSession: WindowLimit;
  /** Unauthenticated or unverified MCP: per source network. */
  anonymous: WindowLimit;
}

export interface RateLimitPolicy {
  appBudget: {
    /** Per API key, shared by REST and API-key MCP calls; raisable per tenant/key. */
    apiKey: WindowLimit;
    /** The CLI's authentication, configuration and telemetry calls: a separate per-key budget. */
    controlPlane: WindowLimit & { routes: readonly RouteSpec[] };
  };
  mcp: McpClassLimits;
  endpoints: readonly EndpointLimitRule[];
  cooldowns: readonly CooldownRule[];
  edge: {
    windowMs: number;
    /** Paths equal to or under these prefixes, except the scan route (health, docs, /.well-known: not counted). */
    api: { limit: number; pathPrefixes: readonly string[] };
    /** Separate allowance, not counted in `api`. */
    scan: { limit: number; route: RouteSpec };
  };
  /** Scan worker-pool admission: queue full → 503 with this Retry-After (sizes: SCAN_WORKERS, SCAN_MAX_QUEUE). */
  scanCapacity: { retryAfterSeconds: number };
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RATE_LIMIT_POLICY: RateLimitPolicy = {
  appBudget: {
    apiKey: { limit: 2000, windowMs: MINUTE },
    controlPlane: {
      limit: 600,
      windowMs: MINUTE,
      routes: [
        { method: 'GET', path: '/api/cli/whoami' },
        { method: 'GET', path: '/api/cli/config' },
        { method: 'POST', path: '/api/cli/telemetry' },
      ],
    },
  },
  mcp: {
    oauth: { limit: DEFAULT_OAUTH_MCP_LIMIT_PER_MINUTE, windowMs: MINUTE },
    browserSession: { limit: 600, windowMs: MINUTE },
    anonymous: { limit: 60, windowMs: MINUTE },
  },
  endpoints: [
    { id: 'reset-password', route: { method: 'PATCH', path: '/api/reset_password' }, limit: 3, windowMs: HOUR, failClosed: true },
    { id: 'upgrade-guidance', route: { method: 'POST', path: '/api/upgrade-guidance/' }, limit: 30, windowMs: MINUTE, failClosed: false },
    { id: 'upgrade-guidance-generate', route: { method: 'POST', path: '/api/upgrade-guidance/generate' }, limit: 5, windowMs: MINUTE, failClosed: false },
    { id: 'upgrade-guidance-invalidate', route: { method: 'POST', path: '/api/upgrade-guidance/invalidate' }, limit: 5, windowMs: MINUTE, failClosed: false },
    { id: 'workflows-ai-suggest', route: { method: 'POST', path: '/api/workflows/ai/suggest' }, limit: 10, windowMs: MINUTE, failClosed: false },
    { id: 'guardrails-ai-suggest', route: { method: 'POST', path: '/api/guardrails/ai/suggest' }, limit: 10, windowMs: MINUTE, failClosed: false },
    { id: 'credentials-create', route: { method: 'POST', path: '/api/credentials/' }, limit: 100, windowMs: 30 * MINUTE, failClosed: true },
    {
      id: 'credentials-preflight',
      route: { method: 'POST', path: '/api/credentials/preflight/:kind' },
      limit: 20,
      windowMs: 5 * MINUTE,
      failClosed: true,
      separateBy: {
        param: 'kind',
        values: ['aws-organization', 'aws-account', 'codeartifact', 'gcp-organization', 'azure-organization'],
      },
    },
  ],
  cooldowns: [
    {
      id: 'secret-recheck',
      description: 'a secret can be re-checked once every 15 minutes',
      scope: 'secret',
      scopeParam: 'secret_id',
      limit: 1,
      windowMs: 15 * MINUTE,
      routes: [{ method: 'POST', path: '/api/secrets/:secret_id/recheck' }],
    },
    {
      // Manual re-checks only: scheduled re-checks run inside the service and use their own budget.
      id: 'secret-recheck-manual',
      description: 'an organization can run 60 manual secret re-checks per hour',
      scope: 'organization',
      limit: 60,
      windowMs: HOUR,
      routes: [{ method: 'POST', path: '/api/secrets/:secret_id/recheck' }],
    },
    {
      // Creating an export and running one on demand share this budget; scheduled runs do not.
      id: 'export-start',
      description: 'a user can start 30 exports per hour',
      scope: 'user',
      limit: 30,
      windowMs: HOUR,
      routes: [
        { method: 'POST', path: '/api/exports/' },
        { method: 'POST', path: '/api/exports/:export_id/run' },
      ],
    },
    {
      id: 'repository-scan-branch',
      description: "a repository's scan branch can be changed once every 24 hours",
      scope: 'repository',
      scopeParam: 'repository_id',
      limit: 1,
      windowMs: 24 * HOUR,
      routes: [
        { method: 'PUT', path: '/api/repositories/:repository_id/scan_branch' },
        { method: 'PATCH', path: '/api/repositories/:repository_id/scan_branch' },
      ],
    },
  ],
  edge: {
    windowMs: 5 * MINUTE,
    api: { limit: 2000, pathPrefixes: ['/api', '/mcp'] },
    scan: { limit: 6000, route: { method: 'POST', path: '/api/agent_files/scan' } },
  },
  scanCapacity: { retryAfterSeconds: 5 },
};

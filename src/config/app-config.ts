import { isIP } from 'node:net';
import type { LogFormat } from '../logging/pretty-log';
import type { JudgeProviderName } from '../scanner/judge/judge-options';

/**
 * The one place that reads process.env (docs/decisions/0020-config-providers-and-migrations.md).
 * Every variable is parsed and validated once; a bad value stops start-up with a message naming
 * the variable and what it accepts.
 */

export type DatabaseTarget = { kind: 'pglite'; dataDir: string | 'memory' } | { kind: 'postgres'; url: string };

export type EdgeLimitsMode = 'on' | 'shadow' | 'off';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseTarget;
  /** Raw DATABASE_URL for display (never logged with credentials). */
  databaseUrl: string;
  /** Run pending migrations at start-up (default true). */
  migrationsRun: boolean;
  redisUrl: string | null;
  logLevel: LogLevel;
  /** `auto` (default): human-readable lines on a terminal, JSON otherwise (src/logging/pretty-log.ts). */
  logFormat: LogFormat;
  judge: JudgeSettings;
  edgeLimits: EdgeLimitsMode;
  /** CIDRs whose X-Forwarded-For is believed. */
  trustedProxies: string[];
  /** Load the demo inventory (or SEED_FILE) into `demoTenant` when that tenant's inventory is empty. */
  demo: boolean;
  /** `default` unless `--demo-tenant <slug>` / BULWARK_DEMO_TENANT names another (which implies --demo). */
  demoTenant: string;
  seedFile: string | null;
  /** Enabled features reported by GET /api/internal/application/features. */
  features: string[];
  /** Cache lifetime of successful API-key lookups; a revocation takes effect within it. */
  authCacheTtlMs: number;
  /** Default per-key app budget (requests per minute). */
  apiKeyRateLimitPerMinute: number;
  scan: {
    /** Worker threads for scans; 0 = derived from the CPU count. */
    workers: number;
    /** Scans waiting for a worker before the endpoint answers 503. */
    maxQueue: number;
    /** Internal deadline of one scan, after which the request gets 502. */
    timeoutMs: number;
  };
  /** Max JSON body size in bytes for non-upload routes. */
  jsonBodyLimitBytes: number;
  /** Browser origins allowed by CORS; empty = CORS closed. */
  corsOrigins: string[];
  /** Public URL of this server (used for the MCP audience and OAuth metadata). */
  publicUrl: string;
  oauth: {
    issuer: string | null;
    jwksUrl: string | null;
    /** Tenant slug that OAuth principals belong to when the token carries none. */
    defaultTenant: string;
  };
  /** Sent as `X-Bulwark-Replica` on every response when set (tells replicas apart behind a balancer). */
  replicaId: string | null;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    accepts: string,
    got: string,
  ) {
    super(`Invalid configuration: ${variable}=${JSON.stringify(got)} — accepts ${accepts}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | null {
  const v = env[name];
  return v === undefined || v.trim() === '' ? null : v.trim();
}

function int(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === null) return def;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `an integer from ${min} to ${max}`, raw);
  }
  return Number(raw);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], def: T): T {
  const raw = str(env, name);
  if (raw === null) return def;
  const v = raw.toLowerCase() as T;
  if (!allowed.includes(v)) throw new ConfigError(name, `one of ${allowed.join('|')}`, raw);
  return v;
}

function bool(env: Env, name: string, def: boolean): boolean {
  const raw = str(env, name);
  if (raw === null) return def;
  const v = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(name, 'true|false (or 1|0, yes|no, on|off)', raw);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = str(env, name);
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `a URL (${protocols.join(', ')})`, raw);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(name, `a URL (${protocols.join(', ')})`, raw);
  return raw;
}

function list(env: Env, name: string): string[] {
  const raw = str(env, name);
  return raw === null
    ? []
    : raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}

function cidrs(env: Env, name: string): string[] {
  const values = list(env, name);
  for (const v of values) {
    const [addr, bits, extra] = v.split('/');
    const family = isIP(addr ?? '');
    const max = family === 6 ? 128 : 32;
    const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= max);
    if (!family || !okBits || extra !== undefined) {
      throw new ConfigError(name, 'a comma-separated list of IP addresses or CIDRs (e.g. 10.0.0.0/8,::1)', v);
    }
  }
  return values;
}

/** `unset → pglite://./data/pglite`; `pglite://memory`; `pglite://<dir>`; `postgres://…` (README.md "Configuration"). */
function database(env: Env): { target: DatabaseTarget; raw: string } {
  const raw = str(env, 'DATABASE_URL') ?? 'pglite://./data/pglite';
  if (raw.startsWith('pglite://')) {
    const rest = raw.slice('pglite://'.length);
    if (rest === '') throw new ConfigError('DATABASE_URL', 'postgres://…, pglite://memory or pglite://<dir>', raw);
    return { target: { kind: 'pglite', dataDir: rest === 'memory' ? 'memory' : rest }, raw };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'postgres://…, pglite://memory or pglite://<dir>', raw);
    }
    return { target: { kind: 'postgres', url: raw }, raw };
  }
  throw new ConfigError('DATABASE_URL', 'postgres://…, pglite://memory or pglite://<dir>', raw);
}

export function loadConfig(env: Env = process.env, argv: string[] = process.argv): AppConfig {
  const db = database(env);
  const port = int(env, 'PORT', 3000, 0, 65535);
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  const demoTenant = demoTenantOf(env, argv);
  return {
    port,
    host: str(env, 'HOST') ?? '0.0.0.0',
    database: db.target,
    databaseUrl: db.raw,
    migrationsRun: bool(env, 'DB_MIGRATIONS_RUN', true),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', ['auto', 'json', 'pretty'] as const, 'auto'),
    judge: judgeSettingsFrom(env),
    edgeLimits: oneOf(env, 'EDGE_LIMITS', ['on', 'shadow', 'off'] as const, 'on'),
    trustedProxies: cidrs(env, 'TRUSTED_PROXIES'),
    demo: argv.includes('--demo') || bool(env, 'BULWARK_DEMO', false) || demoTenant !== null,
    demoTenant: demoTenant ?? 'default',
    seedFile: str(env, 'SEED_FILE'),
    features: list(env, 'FEATURES').length ? list(env, 'FEATURES') : ['agent_file_scan', 'application_inventory', 'mcp', 'sbom'],
    authCacheTtlMs: int(env, 'AUTH_CACHE_TTL_MS', 10000, 0, 30000),
    apiKeyRateLimitPerMinute: int(env, 'API_KEY_RATE_LIMIT_PER_MINUTE', 2000, 1, 10_000_000),
    scan: {
      workers: int(env, 'SCAN_WORKERS', 0, 0, 64),
      maxQueue: int(env, 'SCAN_MAX_QUEUE', 64, 0, 100000),
      timeoutMs: int(env, 'SCAN_TIMEOUT_MS', 10000, 100, 600000),
    },
    jsonBodyLimitBytes: int(env, 'JSON_BODY_LIMIT_BYTES', 5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    corsOrigins: list(env, 'CORS_ORIGINS'),
    publicUrl: publicUrl.replace(/(?<!\/)\/+$/, ''),
    oauth: {
      issuer: url(env, 'OAUTH_ISSUER', ['http:', 'https:']),
      jwksUrl: url(env, 'OAUTH_JWKS_URL', ['http:', 'https:']),
      defaultTenant: str(env, 'OAUTH_DEFAULT_TENANT') ?? 'default',
    },
    replicaId: replicaId(env),
  };
}

export interface JudgeSettings {
  provider: JudgeProviderName;
  baseUrl: string | null;
  model: string | null;
  apiKey: string | null;
  timeoutMs: number;
  maxConcurrency: number;
}

/**
 * The JUDGE_* variables, read the one way every entry point reads them: this config, `bulwark scan
 * --local` and the evaluation CLI (a bad value throws ConfigError). Whether they make a working
 * judge (a model named, a key where one is needed) is the judge's own check (createJudge).
 */
export function judgeSettingsFrom(env: Env): JudgeSettings {
  return {
    provider: oneOf<JudgeProviderName>(env, 'JUDGE_PROVIDER', ['none', 'openai', 'anthropic'], 'none'),
    baseUrl: url(env, 'JUDGE_BASE_URL', ['http:', 'https:']),
    model: str(env, 'JUDGE_MODEL'),
    apiKey: str(env, 'JUDGE_API_KEY'),
    timeoutMs: int(env, 'JUDGE_TIMEOUT_MS', 20000, 100, 600000),
    maxConcurrency: int(env, 'JUDGE_MAX_CONCURRENCY', 4, 1, 256),
  };
}

/** A tenant's slug (the CLI and the demo loader name tenants by it). */
export const TENANT_SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** `--demo-tenant <slug>` or `--demo-tenant=<slug>` on the command line, else BULWARK_DEMO_TENANT. */
function demoTenantOf(env: Env, argv: string[]): string | null {
  const at = argv.findIndex((a) => a === '--demo-tenant' || a.startsWith('--demo-tenant='));
  const raw = at < 0 ? str(env, 'BULWARK_DEMO_TENANT') : argv[at].includes('=') ? argv[at].slice('--demo-tenant='.length) : (argv[at + 1] ?? '');
  if (raw !== null && !TENANT_SLUG.test(raw))
    throw new ConfigError(at < 0 ? 'BULWARK_DEMO_TENANT' : '--demo-tenant', 'a tenant slug: 1-100 of A-Z a-z 0-9 . _ - starting with a letter or digit', raw);
  return raw;
}

/** A header-safe name (pod or container name), so it can go into a response header verbatim. */
function replicaId(env: Env): string | null {
  const raw = str(env, 'REPLICA_ID');
  if (raw !== null && !/^[A-Za-z0-9._-]{1,64}$/.test(raw)) throw new ConfigError('REPLICA_ID', 'up to 64 of A-Z a-z 0-9 . _ -', raw);
  return raw;
}

/** Documented variables (README's configuration table is checked against this list in tests). */
export const CONFIG_VARIABLES = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'DB_MIGRATIONS_RUN',
  'REDIS_URL',
  'LOG_LEVEL',
  'LOG_FORMAT',
  'JUDGE_PROVIDER',
  'JUDGE_BASE_URL',
  'JUDGE_MODEL',
  'JUDGE_API_KEY',
  'JUDGE_TIMEOUT_MS',
  'JUDGE_MAX_CONCURRENCY',
  'EDGE_LIMITS',
  'TRUSTED_PROXIES',
  'BULWARK_DEMO',
  'BULWARK_DEMO_TENANT',
  'SEED_FILE',
  'FEATURES',
  'AUTH_CACHE_TTL_MS',
  'API_KEY_RATE_LIMIT_PER_MINUTE',
  'SCAN_WORKERS',
  'SCAN_MAX_QUEUE',
  'SCAN_TIMEOUT_MS',
  'JSON_BODY_LIMIT_BYTES',
  'CORS_ORIGINS',
  'PUBLIC_URL',
  'OAUTH_ISSUER',
  'OAUTH_JWKS_URL',
  'OAUTH_DEFAULT_TENANT',
  'REPLICA_ID',
] as const;

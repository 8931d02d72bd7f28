import { loadConfig, type AppConfig } from '../../src/config/app-config';

/**
 * Config for tests: the real PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set (as .ci/run
 * does), otherwise in-memory PGlite and in-process counters. Logs are silent unless asked for.
 */
export function testConfig(overrides: Partial<AppConfig> = {}, env: Record<string, string> = {}): AppConfig {
  const base = loadConfig(
    {
      DATABASE_URL: process.env.DATABASE_URL ?? 'pglite://memory',
      REDIS_URL: process.env.REDIS_URL,
      LOG_LEVEL: 'silent',
      // Every test request comes from 127.0.0.1: with the edge on, suites sharing one Redis would
      // 403 each other past 2,000 requests per 5 minutes. Edge tests pass EDGE_LIMITS=on.
      EDGE_LIMITS: 'off',
      ...env,
    },
    [],
  );
  return { ...base, ...overrides };
}

export const usingPostgres = (): boolean => (process.env.DATABASE_URL ?? '').startsWith('postgres');

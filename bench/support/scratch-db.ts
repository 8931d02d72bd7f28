/** Scratch PostgreSQL databases for bench parts: created from DATABASE_URL's server, dropped after. */
import Redis from 'ioredis';

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}
// pg ships no types (and @types/pg is not a dependency): the three calls used here, typed by hand.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require('pg') as { Client: new (options: { connectionString: string; connectionTimeoutMillis?: number }) => PgClient };

async function query(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** `baseUrl` names any database on the server (e.g. …/postgres); the scratch one sits beside it. */
export async function createScratchDatabase(baseUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now()}_${process.pid}`;
  await query(baseUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => query(baseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** The PostgreSQL URL of this run, or null (parts then report "skipped (no PostgreSQL)"). */
export function postgresUrl(): string | null {
  const url = process.env.DATABASE_URL ?? '';
  return url.startsWith('postgres://') || url.startsWith('postgresql://') ? url : null;
}

export async function redisAnswers(url: string | undefined): Promise<boolean> {
  if (!url) return false;
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

import { connect, type Socket } from 'node:net';
import type { DataSource } from 'typeorm';

/** Every table holding a tenant's data (all carry tenant_id). */
export const TENANT_TABLES = [
  'applications',
  'application_graph_selections',
  'integration_settings',
  'application_owners',
  'inventory_services',
  'application_services',
  'code_roots',
  'service_finding_counts',
  'package_observations',
  'inventory_relations',
  'resources',
  'service_resources',
] as const;

/** All of a tenant's rows, table by table, as sorted JSON text (one round trip): equal snapshots = unchanged data. */
export async function snapshotTenant(dataSource: DataSource, tenantId: string): Promise<Record<string, string[]>> {
  const sql = TENANT_TABLES.map((table) => `SELECT '${table}' AS t, row_to_json(x)::text AS r FROM "${table}" x WHERE tenant_id = $1`).join(' UNION ALL ');
  const rows = (await dataSource.query(sql, [tenantId])) as { t: string; r: string }[];
  const out: Record<string, string[]> = Object.fromEntries(TENANT_TABLES.map((table) => [table, [] as string[]]));
  for (const row of rows) out[row.t]!.push(row.r);
  for (const table of TENANT_TABLES) out[table]!.sort();
  return out;
}

/** Statuses the API may answer to hostile input: 4xx, and the documented 502/503 of the scanner. */
export function isAllowedStatus(status: number, allow5xx: readonly number[] = []): boolean {
  return (status >= 200 && status < 500) || allow5xx.includes(status);
}

/** A seed for fast-check: FUZZ_SEED when given (to replay a failure), else fixed so CI is reproducible. */
export function fuzzSeed(): number {
  const raw = process.env.FUZZ_SEED;
  return raw && /^-?\d+$/.test(raw) ? Number(raw) : 20_260_512;
}

/** Runs per property: FUZZ_RUNS (npm run fuzz) or the CI default given. */
export function fuzzRuns(ciDefault: number): number {
  const raw = process.env.FUZZ_RUNS;
  return raw && /^\d+$/.test(raw) ? Math.max(1, Number(raw)) : ciDefault;
}

/** A raw TCP client, for requests supertest cannot make (slow clients, declared-but-unsent bodies). */
export interface RawClient {
  socket: Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves when the server closes the connection (with ms elapsed since connect). */
  closed: Promise<number>;
}

export function rawClient(port: number): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let data = '';
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<number>((r) => socket.on('close', () => r(Date.now() - started)));
    socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
    socket.on('error', () => undefined); // a reset is a close, for these tests
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { acquireDataDirLock } from './data-dir-lock';
import { initdbInWorker, needsInitdb, pgliteStartParams } from './pglite-memory';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** Marker in `extra` telling createDataSource to open an embedded PGlite in this folder. */
interface PgliteMarker {
  pgliteDataDir: string;
}

/**
 * The one source of DataSource options for the app, the CLI, the tests and ormconfig.ts. Pure: the
 * embedded database, if any, is opened by createDataSource. Migrations are run by our migrator
 * under an advisory lock (run-migrations.ts), never by `synchronize`.
 */
export function buildDataSourceOptions(config: Pick<AppConfig, 'database'>): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    // gen_random_uuid() is built in since PG 13; PGlite has no uuid-ossp (docs/decisions/0024-dependency-pitfalls.md, 1).
    uuidExtension: 'pgcrypto' as const,
    installExtensions: false,
    migrationsTableName: 'migrations',
  };
  if (config.database.kind === 'postgres') {
    return { ...common, url: config.database.url, extra: { max: 20 } };
  }
  const dataDir = config.database.dataDir === 'memory' ? 'memory://' : resolve(config.database.dataDir);
  return { ...common, extra: { pgliteDataDir: dataDir } satisfies PgliteMarker };
}

/**
 * A DataSource (not yet initialized). For PGlite it constructs the instance itself (createPgConfig
 * with a folder looks for its WASM files in a missing folder under require(), then hangs;
 * docs/decisions/0024-dependency-pitfalls.md, 2) and closes it after the pool on destroy, since
 * the adapter's pool.end() leaves it open.
 */
export function createDataSource(options: DataSourceOptions): DataSource {
  const dataDir = (options.extra as Partial<PgliteMarker> | undefined)?.pgliteDataDir;
  if (dataDir === undefined) return new DataSource(options);
  // Lazy require: PGlite (WASM, ~150 MB RSS idle) is loaded only when no real server is configured.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PGlite } = require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createPgConfig } = require('@electric-sql/pglite/node-postgres') as typeof import('@electric-sql/pglite/node-postgres');
  // PGlite creates its own folder but not the parents (`./data` on a fresh clone).
  const onDisk = !dataDir.startsWith('memory://');
  if (onDisk) mkdirSync(dirname(dataDir), { recursive: true });
  const release = onDisk ? acquireDataDirLock(dataDir) : () => undefined;
  const startParams = pgliteStartParams(PGlite.defaultStartParams);
  let pglite: InstanceType<typeof PGlite> | null = null;
  // The instance is created in initialize(), after a fresh folder was set up in a worker thread
  // (pglite-memory.ts); the driver reads `extra` when it connects.
  const dataSource = new DataSource({ ...options }); // own copy: setOptions() below mutates it
  const initialize = dataSource.initialize.bind(dataSource);
  dataSource.initialize = async () => {
    if (onDisk && needsInitdb(dataDir)) await initdbInWorker(dataDir, startParams);
    pglite = new PGlite(dataDir, { startParams });
    dataSource.setOptions({ extra: { ...createPgConfig(pglite) } });
    return initialize();
  };
  const destroy = dataSource.destroy.bind(dataSource);
  dataSource.destroy = async () => {
    try {
      if (dataSource.isInitialized) await destroy();
    } finally {
      if (pglite && !pglite.closed) await pglite.close();
      release();
    }
  };
  return dataSource;
}

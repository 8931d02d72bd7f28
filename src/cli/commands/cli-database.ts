import { parseArgs } from 'node:util';
import type { DataSource } from 'typeorm';
import type { ApiKeysService } from '../../auth/api-keys.service';
import { authServices } from '../../auth/auth-services';
import type { TenantsService } from '../../auth/tenants.service';
import { DomainError } from '../../common/errors';
import { type AppConfig, ConfigError, loadConfig } from '../../config/app-config';
import { DataDirInUseError } from '../../database/data-dir-lock';
import { buildDataSourceOptions, createDataSource } from '../../database/data-source-options';
import { runMigrationsLocked } from '../../database/run-migrations';
import { CliError, UsageError, type CliIo } from '../cli-io';
import { safeText } from '../output/terminal';

/** What the `keys` and `tenants` commands work with: the database, opened as the server opens it. */
export interface Db {
  config: AppConfig;
  apiKeys: ApiKeysService;
  tenants: TenantsService;
}

/** How to do the same through a running server: the request, and what it can and cannot do. */
export interface ViaServer {
  /** One curl command line (continuation lines allowed) with `${base}` standing for http://localhost:<port>. */
  curl: (base: string) => string[];
  note: string;
}

/** Opens the database (DATABASE_URL; default the embedded PGlite), runs pending migrations, runs `work`, closes. */
export async function withDatabase<T>(io: CliIo, viaServer: ViaServer, work: (db: Db) => Promise<T>): Promise<T> {
  let config;
  try {
    config = loadConfig(io.env, []);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message);
    throw err;
  }
  let dataSource: DataSource;
  try {
    dataSource = createDataSource(buildDataSourceOptions(config));
  } catch (err) {
    if (err instanceof DataDirInUseError) throw new CliError(inUseMessage(err, config.port, viaServer));
    throw err;
  }
  try {
    await dataSource.initialize();
  } catch (err) {
    await dataSource.destroy().catch(() => undefined);
    throw new CliError(`Cannot open the database (${config.database.kind}): ${(err as Error).message}`);
  }
  try {
    await runMigrationsLocked(dataSource, config.database.kind === 'pglite');
    // No cache: this process verifies nothing, and a stale entry could only confuse.
    return await work({ config, ...authServices(dataSource, config, 0) });
  } catch (err) {
    if (err instanceof DomainError) throw new CliError(err.detail);
    throw err;
  } finally {
    await dataSource.destroy();
  }
}

/** Refusal when the embedded database is open in a server: say why, and the two ways that work. */
function inUseMessage(err: DataDirInUseError, port: number, viaServer: ViaServer): string {
  return [
    `${err.dataDir} is open in another process (pid ${err.holder.pid}: ${safeText(err.holder.command, 120)}), most likely a running Bulwark server.`,
    'The embedded database serves one process at a time: a change written from here would never be seen by that',
    'server and would be lost when it saves its own copy. Either:',
    `  - go through the running server (admin key in BULWARK_API_KEY):`,
    ...viaServer.curl(`http://localhost:${port}`).map((line) => `      ${line}`),
    `    (${viaServer.note});`,
    '  - or stop the server (Ctrl-C), run this command again, then start the server.',
  ].join('\n');
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/** parseArgs in strict mode, its errors as usage errors (exit 2). */
export function parse(argv: string[], options: Options, positionals = false): { values: Record<string, unknown>; positionals: string[] } {
  try {
    const r = parseArgs({ args: argv, options, allowPositionals: positionals, strict: true });
    return { values: r.values as Record<string, unknown>, positionals: r.positionals };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

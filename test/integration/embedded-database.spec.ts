import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/app-config';
import { buildDataSourceOptions, createDataSource } from '../../src/database/data-source-options';
import { PGlite } from '@electric-sql/pglite';
import { initdbInWorker, needsInitdb, PGLITE_SHARED_BUFFERS, pgliteStartParams } from '../../src/database/pglite-memory';
import { runMigrationsLocked } from '../../src/database/run-migrations';

describe('embedded PGlite data folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'bulwark-pglite-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('creates missing parent folders (the default ./data/pglite on a fresh clone) and keeps data across reopen', async () => {
    const dir = join(root, 'data', 'nested', 'pglite');
    const options = buildDataSourceOptions(loadConfig({ DATABASE_URL: `pglite://${dir}` }, []));
    const first = await createDataSource(options).initialize();
    await runMigrationsLocked(first, true);
    await first.query(`INSERT INTO tenants (slug, name) VALUES ('reopen', 'reopen')`);
    await first.destroy();
    expect(existsSync(dir)).toBe(true);

    const second = await createDataSource(options).initialize();
    expect(await second.query(`SELECT slug FROM tenants WHERE slug = 'reopen'`)).toEqual([{ slug: 'reopen' }]);
    await second.destroy();
  });

  // Memory figures: docs/performance.md "Memory". The buffer pool inside the WASM
  // memory is sized for one embedded user, on disk and in memory alike.
  it.each([
    ['a folder', () => `pglite://${join(root, 'buffers')}`],
    ['memory', () => 'pglite://memory'],
  ])('runs PGlite (%s) with a small shared_buffers', async (_name, url) => {
    const ds = await createDataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: url() }, []))).initialize();
    try {
      expect(PGLITE_SHARED_BUFFERS).toBe('32MB');
      expect(await ds.query('SHOW shared_buffers')).toEqual([{ shared_buffers: PGLITE_SHARED_BUFFERS }]);
    } finally {
      await ds.destroy();
    }
  });

  it('initialises a new folder in a worker thread, and says why when it cannot', async () => {
    const dir = join(root, 'worker-initdb');
    expect(needsInitdb(dir)).toBe(true);
    await initdbInWorker(dir, pgliteStartParams(PGlite.defaultStartParams));
    expect(needsInitdb(dir)).toBe(false);

    const blocked = join(root, 'a-file');
    writeFileSync(blocked, 'not a folder');
    await expect(initdbInWorker(join(blocked, 'pglite'), pgliteStartParams(PGlite.defaultStartParams))).rejects.toThrow(
      /^Could not initialise the embedded database in .*a-file\/pglite: /,
    );
  });
});

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/app-config';
import { buildDataSourceOptions, createDataSource } from '../../src/database/data-source-options';
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
});

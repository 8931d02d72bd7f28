import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { ApiKeysRepository } from '../../src/auth/persistence/api-keys.repository';
import { loadConfig } from '../../src/config/app-config';
import { buildDataSourceOptions, createDataSource } from '../../src/database/data-source-options';
import { runMigrationsLocked } from '../../src/database/run-migrations';
import { buildCli, runCli } from './cli-harness';

/**
 * `bulwark tenants list|show|set` as a child process on a real database (the PostgreSQL of
 * DATABASE_URL when set, else a file-backed PGlite in a temp folder). What it sets is read back
 * through the server's own ApiKeysService: a key without its own limit gets the tenant's.
 */
const usingPostgres = (process.env.DATABASE_URL ?? '').startsWith('postgres');
// Each CLI run opens the database and checks migrations: a few seconds apiece on a loaded machine.
jest.setTimeout(300_000);

describe('bulwark tenants', () => {
  let dir: string;
  let databaseUrl: string;
  const slug = `cli-t-${randomUUID().slice(0, 8)}`;

  beforeAll(() => {
    buildCli();
    dir = mkdtempSync(join(tmpdir(), 'bulwark-tenants-'));
    databaseUrl = usingPostgres ? process.env.DATABASE_URL! : `pglite://${join(dir, 'pglite')}`;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const cli = (...args: string[]) => runCli(args, { env: { DATABASE_URL: databaseUrl }, timeoutMs: 90_000 });

  /** The budget a key's principal carries, as a server would resolve it. */
  async function principalLimit(token: string): Promise<number | null> {
    const ds = createDataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: databaseUrl }, [])));
    await ds.initialize();
    try {
      return (await new ApiKeysService(new ApiKeysRepository(ds), 0).verify(token)).rateLimitPerMinute;
    } finally {
      await ds.destroy();
    }
  }

  it('set → show → list; a key without its own limit takes the tenant\'s; "default" clears it', async () => {
    const created = await cli('keys', 'create', '--tenant', slug, '--scopes', 'scan');
    expect(created.code).toBe(0);
    const token = created.stdout.trimEnd().split('\n').pop()!;
    expect(await principalLimit(token)).toBeNull();

    const set = await cli('tenants', 'set', slug, '--rate-limit', '5000', '--oauth-mcp-rate-limit', '1200');
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/^Updated\.\nTenant /);
    expect(set.stdout).toMatch(/API-key budget per minute \(keys without their own limit\): 5000 \(tenant\)/);
    expect(set.stdout).toMatch(/OAuth MCP limit per minute \(per client \+ user\): +1200 \(tenant\)/);
    expect(await principalLimit(token)).toBe(5000);

    const shown = await cli('tenants', 'show', slug, '--json');
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      slug,
      rate_limit_per_minute: 5000,
      oauth_mcp_rate_limit_per_minute: 1200,
      effective: { rate_limit_per_minute: 5000, oauth_mcp_rate_limit_per_minute: 1200 },
    });

    // One option at a time leaves the other; "default" goes back to the service default.
    const cleared = await cli('tenants', 'set', slug, '--rate-limit', 'default', '--json');
    expect(cleared.code).toBe(0);
    expect(JSON.parse(cleared.stdout)).toMatchObject({
      rate_limit_per_minute: null,
      oauth_mcp_rate_limit_per_minute: 1200,
      effective: { rate_limit_per_minute: 2000 },
    });
    expect(await principalLimit(token)).toBeNull();

    const table = await cli('tenants', 'list');
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^SLUG +ID +API-KEY BUDGET\/MIN +OAUTH MCP\/MIN$/);
    expect(table.stdout).toMatch(new RegExp(`^${slug} +[0-9a-f-]{36} +2000 \\(default\\) +1200 \\(tenant\\)$`, 'm'));
  });

  it('bad values and missing options exit 2 before touching the database; an unknown tenant exits 2', async () => {
    for (const [args, message] of [
      [['--rate-limit', '0'], /--rate-limit takes a whole number of requests per minute from 1 to 10000000, or "default"; got "0"/],
      [['--rate-limit', '2.5'], /--rate-limit takes a whole number/],
      [['--oauth-mcp-rate-limit', '10000001'], /--oauth-mcp-rate-limit takes a whole number/],
      [['--rate-limit', 'lots'], /got "lots"/],
      [[], /tenants set needs --rate-limit and\/or --oauth-mcp-rate-limit/],
    ] as const) {
      const r = await cli('tenants', 'set', slug, ...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
    const unknown = await cli('tenants', 'show', `nope-${randomUUID().slice(0, 8)}`);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^No tenant "nope-/);
    const noSlug = await cli('tenants', 'show');
    expect(noSlug.code).toBe(2);
    expect(noSlug.stderr).toMatch(/tenants show takes exactly one tenant slug/);
  });

  // The refusal is the embedded database's (one process per folder); the test opens its own
  // embedded folder, so it runs whichever database the suite uses.
  it('refuses while a server holds the embedded database, pointing at PATCH /api/admin/tenant', async () => {
    const url = `pglite://${join(dir, 'busy')}`;
    const server = createDataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: url }, [])));
    await server.initialize();
    await runMigrationsLocked(server, true);
    try {
      const refused = await runCli(['tenants', 'list'], { env: { DATABASE_URL: url, PORT: '3124' }, timeoutMs: 90_000 });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('-X PATCH');
      expect(refused.stderr).toContain('http://localhost:3124/api/admin/tenant');
    } finally {
      await server.destroy();
    }
  });
});

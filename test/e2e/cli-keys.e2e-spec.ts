import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { ApiKeysRepository } from '../../src/auth/persistence/api-keys.repository';
import { UnauthorizedError } from '../../src/common/errors';
import { loadConfig } from '../../src/config/app-config';
import { DataDirInUseError, lockPathOf } from '../../src/database/data-dir-lock';
import { buildDataSourceOptions, createDataSource } from '../../src/database/data-source-options';
import { runMigrationsLocked } from '../../src/database/run-migrations';
import { buildCli, runCli } from './cli-harness';

/**
 * `bulwark keys create|list|revoke` as a child process on a real database: the PostgreSQL of
 * DATABASE_URL when set, else a file-backed PGlite in a temp folder. The token the CLI prints is
 * then verified with the server's own ApiKeysService, before and after revocation.
 */
const usingPostgres = (process.env.DATABASE_URL ?? '').startsWith('postgres');

describe('bulwark keys', () => {
  let dir: string;
  let databaseUrl: string;
  const slug = `cli-${randomUUID().slice(0, 8)}`;

  beforeAll(() => {
    buildCli();
    dir = mkdtempSync(join(tmpdir(), 'bulwark-keys-'));
    databaseUrl = usingPostgres ? process.env.DATABASE_URL! : `pglite://${join(dir, 'pglite')}`;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const keys = (...args: string[]) => runCli(['keys', ...args], { env: { DATABASE_URL: databaseUrl }, timeoutMs: 90_000 });

  async function verify(token: string): Promise<{ tenantId: string } | Error> {
    const ds = createDataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: databaseUrl }, [])));
    await ds.initialize();
    try {
      const repository = new ApiKeysRepository(ds);
      const tenant = await repository.findTenantBySlug(slug);
      const principal = await new ApiKeysService(repository, 0).verify(token).catch((e: Error) => e);
      if (principal instanceof Error) return principal;
      expect(principal.tenantId).toBe(tenant?.id);
      return principal;
    } finally {
      await ds.destroy();
    }
  }

  it('create (new tenant) → token on the last line; list; the token works; revoke; it stops working', async () => {
    const created = await keys('create', '--tenant', slug, '--name', 'ci pipeline', '--scopes', 'scan', '--expires-in', '30d');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const lines = created.stdout.trimEnd().split('\n');
    const token = lines[lines.length - 1];
    expect(token).toMatch(/^bwk_[A-Za-z0-9]{32,}$/);
    expect(lines.slice(0, -1).join('\n')).toMatch(new RegExp(`for tenant ${slug} \\(scopes: scan; expires: \\d{4}-`));
    expect(lines.slice(0, -1).join('\n')).not.toContain(token);

    const listed = await keys('list', '--tenant', slug, '--json');
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as { id: string; name: string; scopes: string[]; status: string; expires_at: string; tenant: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tenant: slug, name: 'ci pipeline', scopes: ['scan'], status: 'active' });
    expect(Math.abs(Date.parse(rows[0].expires_at) - (Date.now() + 30 * 86_400_000))).toBeLessThan(3_600_000);
    expect(listed.stdout).not.toContain(token);

    expect(await verify(token)).toMatchObject({ scopes: ['scan'] });

    const revoked = await keys('revoke', rows[0].id);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`Revoked API key ${rows[0].id}`));
    const after = JSON.parse((await keys('list', '--tenant', slug, '--json')).stdout) as { status: string }[];
    expect(after[0].status).toBe('revoked');
    const denied = await verify(token);
    expect(denied).toBeInstanceOf(UnauthorizedError);
    expect((denied as Error).message).toBe('API key revoked');
  });

  it('usage errors exit 2 before touching the database', async () => {
    const bad = await keys('create', '--tenant', slug, '--expires-in', '30s');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--expires-in must be a number followed by m, h, d or w/);
    const scopes = await keys('create', '--tenant', slug, '--scopes', 'scan,root');
    expect(scopes.code).toBe(2);
    expect(scopes.stderr).toMatch(/--scopes takes a comma-separated list of inventory:read, inventory:write, scan, admin/);
    const noTenant = await keys('create');
    expect(noTenant.code).toBe(2);
    expect(noTenant.stderr).toMatch(/needs --tenant/);
  });

  it('revoking an unknown id exits 2 with a message', async () => {
    const r = await keys('revoke', randomUUID());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/No API key with id/);
  });
});

/**
 * The embedded database serves one process at a time. With a server holding a file-backed PGlite
 * (this Jest process opens it the way the server does, through createDataSource), `bulwark keys`
 * refuses and says what to do instead of printing a token the server never sees. Always on PGlite:
 * the folder is the point (PostgreSQL has no such limit).
 */
describe('bulwark keys beside a server on the embedded database', () => {
  let dir: string;
  let databaseUrl: string;
  const slug = `cli-busy-${randomUUID().slice(0, 8)}`;

  beforeAll(() => {
    buildCli();
    dir = mkdtempSync(join(tmpdir(), 'bulwark-keys-busy-'));
    databaseUrl = `pglite://${join(dir, 'pglite')}`;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const keys = (...args: string[]) => runCli(['keys', ...args], { env: { DATABASE_URL: databaseUrl, PORT: '3123' }, timeoutMs: 90_000 });
  const open = () => createDataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: databaseUrl }, []))).initialize();

  it('refuses while the folder is open elsewhere, naming the process and both ways out; works once it is closed', async () => {
    const server = await open();
    await runMigrationsLocked(server, true);
    try {
      const refused = await keys('create', '--tenant', slug, '--scopes', 'admin');
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`${join(dir, 'pglite')} is open in another process (pid ${process.pid}:`);
      expect(refused.stderr).toContain('http://localhost:3123/api/admin/api-keys');
      expect(refused.stderr).toMatch(/stop the server \(Ctrl-C\), run this command again/);
      // Nothing was written behind the server's back.
      expect(await server.query('SELECT count(*)::int AS n FROM tenants WHERE slug = $1', [slug])).toEqual([{ n: 0 }]);
      expect((await keys('list')).code).toBe(2);
    } finally {
      await server.destroy();
    }
    const created = await keys('create', '--tenant', slug, '--scopes', 'admin');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout.trimEnd().split('\n').pop()).toMatch(/^bwk_/);
  });

  it('the server side: a folder held by a live process cannot be opened, a stale lock is taken over', async () => {
    const lock = lockPathOf(join(dir, 'pglite'));
    // A live process that is not this one: Jest's parent.
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, command: 'bulwark keys create' }));
    expect(() => createDataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: databaseUrl }, [])))).toThrow(DataDirInUseError);
    expect(() => createDataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: databaseUrl }, [])))).toThrow(
      /in use by another process \(pid \d+: bulwark keys create\)/,
    );
    // A process that has exited leaves its lock behind; the next opener takes it over.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    writeFileSync(lock, JSON.stringify({ pid: Number(gone.stdout.toString()), command: 'node dist/main.js' }));
    const ds = await open();
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid });
    await ds.destroy();
    expect(existsSync(lock)).toBe(false);
  });
});

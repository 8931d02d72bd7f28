import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { ApiKeysRepository } from '../../src/auth/persistence/api-keys.repository';
import { loadConfig } from '../../src/config/app-config';
import { buildDataSourceOptions, createDataSource } from '../../src/database/data-source-options';

/**
 * Runs the built server (dist/, produced by `npm install`'s prepare step and by .ci/run) as a real
 * process: SIGTERM lets an in-flight request finish, closes the database, and the row it wrote is
 * there after a restart.
 */
const MAIN = resolve(__dirname, '../../dist/main.js');

function startServer(env: Record<string, string>): Promise<{ proc: ChildProcess; port: number; stdout: () => string }> {
  return new Promise((resolvePromise, reject) => {
    const proc = spawn(process.execPath, [MAIN], { env: { ...process.env, PORT: '0', LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 60_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on http:\/\/localhost:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolvePromise({ proc, port: Number(m[1]), stdout: () => out });
      }
    });
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('exit', (code) => reject(new Error(`server exited early (${code}): ${out}`)));
  });
}

describe('graceful shutdown on SIGTERM', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bulwark-shutdown-'));
  const usePg = (process.env.DATABASE_URL ?? '').startsWith('postgres');
  const env: Record<string, string> = usePg ? {} : { DATABASE_URL: `pglite://${join(dataDir, 'db')}` };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('finishes the in-flight request, exits, and keeps what it wrote', async () => {
    const first = await startServer(env);
    let token = /Bootstrap admin API key: (bwk_\w+)/.exec(first.stdout())?.[1];
    if (!token) {
      // On a shared PostgreSQL the bootstrap key was created by an earlier run: mint one via the CLI's path.
      const ds = await createDataSource(buildDataSourceOptions(loadConfig())).initialize();
      const repo = new ApiKeysRepository(ds);
      const tenant = await repo.findOrCreateTenant(`shutdown-${Date.now()}`);
      token = (await new ApiKeysService(repo, 0).create({ tenantId: tenant.id, name: 't', scopes: ['admin'], expiresAt: null, rateLimitPerMinute: null }))
        .token;
      await ds.destroy();
    }
    const name = `inflight-${Date.now()}`;
    const body = JSON.stringify({ name, scopes: ['scan'] });
    const exited = new Promise<number | null>((r) => first.proc.on('exit', (code, signal) => r(code ?? (signal ? 143 : null))));

    // A slow client: headers and half the body now, SIGTERM, then the rest.
    const response = new Promise<{ status: number; body: string }>((resolveRes, reject) => {
      const req = httpRequest(
        {
          port: first.port,
          method: 'POST',
          path: '/api/admin/api-keys',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolveRes({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        first.proc.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 500);
      }, 300);
    });
    const res = await response;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).name).toBe(name);
    expect([0, 143]).toContain(await exited);

    // Restart on the same database: the key written during shutdown is there, intact.
    const second = await startServer(env);
    try {
      const list = await fetch(`http://127.0.0.1:${second.port}/api/admin/api-keys`, { headers: { Authorization: `Bearer ${token}` } });
      expect(list.status).toBe(200);
      const names = ((await list.json()) as { name: string }[]).map((k) => k.name);
      expect(names).toContain(name);
    } finally {
      second.proc.kill('SIGTERM');
      await new Promise((r) => second.proc.on('exit', r));
    }
  }, 120_000);
});

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';

/**
 * Throwaway PostgreSQL and Redis servers for fault tests and the soak, so they can be stopped and
 * started without touching the shared servers on 5432/6379 that other suites use concurrently.
 * PostgreSQL: a fresh `initdb` cluster in a temp dir on a free port (run as the `postgres` user
 * when we are root: the server refuses to run as root). Redis: a child `redis-server` without
 * persistence. Every process started here is stopped by its own pid or data dir.
 */
const run = promisify(execFile);

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The newest installed PostgreSQL bin dir with initdb and pg_ctl, or null. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = join(root, v, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

export const redisServerAvailable = (): boolean => ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].some(existsSync);

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** A bare SQL connection (no entities) for setup and for checking what was stored. */
export function openSql(url: string): Promise<DataSource> {
  return new DataSource({ type: 'postgres', url, extra: { max: 2 } }).initialize();
}

export class PrivatePostgres {
  private constructor(
    private readonly bin: string,
    readonly dir: string,
    readonly port: number,
  ) {}

  static async create(database = 'bulwark'): Promise<PrivatePostgres> {
    const bin = postgresBinDir();
    if (!bin) throw new Error('PostgreSQL binaries not found');
    const dir = mkdtempSync(join(tmpdir(), 'bulwark-pg-'));
    if (asRoot) chownSync(dir, ...(await postgresIds()));
    const pg = new PrivatePostgres(bin, dir, await freePort());
    await pg.exec('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-locale']);
    await pg.start();
    const sql = await openSql(pg.url('postgres'));
    try {
      await sql.query(`CREATE DATABASE ${database}`);
    } finally {
      await sql.destroy();
    }
    return pg;
  }

  url(database = 'bulwark'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private async exec(tool: string, args: string[]): Promise<void> {
    const file = join(this.bin, tool);
    if (asRoot) await run('runuser', ['-u', 'postgres', '--', file, ...args], { cwd: this.dir });
    else await run(file, args, { cwd: this.dir });
  }

  async start(): Promise<void> {
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    await this.exec('pg_ctl', ['-D', join(this.dir, 'data'), '-o', opts, '-l', join(this.dir, 'server.log'), '-w', '-t', '60', 'start']);
  }

  /** `fast`: terminate sessions and shut down cleanly; `immediate`: like a crash. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.exec('pg_ctl', ['-D', join(this.dir, 'data'), '-m', mode, '-w', '-t', '60', 'stop']);
  }

  async destroy(): Promise<void> {
    try {
      await this.stop('immediate');
    } catch {
      /* already stopped */
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function postgresIds(): Promise<[number, number]> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return [Number(uid.trim()), Number(gid.trim())];
}

export class PrivateRedis {
  private proc: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async create(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const proc = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.proc = proc;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 20_000);
      proc.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (/Ready to accept connections/i.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}): ${out}`));
      });
    });
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null) return;
    this.proc = null;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
  }
}

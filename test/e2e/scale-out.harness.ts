import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../../src/config/node-runtime';

/**
 * Real processes for the scale-out test and benchmark: nginx (Debian package) rendered from the
 * reference template in deploy/nginx, in front of `node dist/main.js` replicas on loopback.
 */

export const REPO_ROOT = resolve(__dirname, '../..');
export const NGINX_TEMPLATE = join(REPO_ROOT, 'deploy/nginx/templates/default.conf.template');
export const APP_ENTRY = join(REPO_ROOT, 'dist/main.js');

export function nginxBinary(): string | null {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx']) {
    if (existsSync(candidate)) return candidate;
  }
  const found = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : null;
}

/** The `${NAME}` placeholders of a template (what the nginx image's envsubst fills in). */
export function templateVariables(template: string): string[] {
  return [...new Set([...template.matchAll(/\$\{([A-Z][A-Z0-9_]*)\}/g)].map((m) => m[1]!))].sort();
}

/** envsubst as the nginx image applies it; every placeholder must be given a value. */
export function renderTemplate(template: string, values: Record<string, string>): string {
  const missing = templateVariables(template).filter((name) => values[name] === undefined);
  if (missing.length) throw new Error(`no value for ${missing.join(', ')}`);
  return template.replace(/\$\{([A-Z][A-Z0-9_]*)\}/g, (_, name: string) => values[name]!);
}

export interface EdgeSettings {
  EDGE_API_RATE: string;
  EDGE_API_BURST: string;
  EDGE_SCAN_RATE: string;
  EDGE_SCAN_BURST: string;
}

/** The production allowances (same values as deploy/docker-compose.yml). */
export const PRODUCTION_EDGE: EdgeSettings = { EDGE_API_RATE: '400r/m', EDGE_API_BURST: '2000', EDGE_SCAN_RATE: '1200r/m', EDGE_SCAN_BURST: '6000' };

/** A self-contained nginx.conf (prefix, pid, temp paths in `dir`) around the rendered template. */
export function writeNginxConfig(dir: string, opts: { port: number; upstreams: number[]; edge: EdgeSettings }): string {
  mkdirSync(dir, { recursive: true });
  const upstreamConf = join(dir, 'upstream.conf');
  writeFileSync(upstreamConf, opts.upstreams.map((p) => `server 127.0.0.1:${p} max_fails=1 fail_timeout=10s;\n`).join(''));
  const site = renderTemplate(readFileSync(NGINX_TEMPLATE, 'utf8'), {
    NGINX_PORT: `127.0.0.1:${opts.port}`,
    BULWARK_UPSTREAM_CONF: upstreamConf,
    ...opts.edge,
  });
  writeFileSync(join(dir, 'site.conf'), site);
  const temp = (name: string) => `${name} ${join(dir, name.replace(/_path$/, ''))};`;
  const main = [
    // Workers run as the invoking user when it is root (CI), so they can use the temp folders here.
    process.getuid?.() === 0 ? 'user root;' : '',
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} warn;`,
    'events { worker_connections 2048; }',
    'http {',
    '  access_log off;',
    `  ${temp('client_body_temp_path')}`,
    `  ${temp('proxy_temp_path')}`,
    `  ${temp('fastcgi_temp_path')}`,
    `  ${temp('uwsgi_temp_path')}`,
    `  ${temp('scgi_temp_path')}`,
    `  include ${join(dir, 'site.conf')};`,
    '}',
    '',
  ].join('\n');
  const confPath = join(dir, 'nginx.conf');
  writeFileSync(confPath, main);
  return confPath;
}

/** `nginx -t` on a config file: null when valid, nginx's message otherwise. */
export function nginxConfigTest(binary: string, dir: string, confPath: string): string | null {
  const r = spawnSync(binary, ['-t', '-p', dir, '-e', join(dir, 'error.log'), '-c', confPath], { encoding: 'utf8' });
  return r.status === 0 ? null : `${r.stderr}${r.stdout}`;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

async function waitForPort(port: number, timeoutMs: number, alive: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`process exited before port ${port} opened`);
    const open = await new Promise<boolean>((ok) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        ok(true);
      });
      socket.on('error', () => ok(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`port ${port} did not open within ${timeoutMs} ms`);
}

function onExit(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((ok) => child.once('exit', () => ok()));
}

export interface RunningNginx {
  port: number;
  dir: string;
  errorLog(): string;
  stop(): Promise<void>;
}

export async function startNginx(binary: string, opts: { upstreams: number[]; edge: EdgeSettings }): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-nginx-'));
  const port = await freePort();
  const confPath = writeNginxConfig(dir, { port, ...opts });
  const problem = nginxConfigTest(binary, dir, confPath);
  if (problem) throw new Error(`nginx -t failed: ${problem}`);
  const child = spawn(binary, ['-p', dir, '-e', join(dir, 'error.log'), '-c', confPath, '-g', 'daemon off;'], { stdio: 'ignore' });
  const exited = onExit(child);
  await waitForPort(port, 10_000, () => child.exitCode === null && child.signalCode === null);
  return {
    port,
    dir,
    errorLog: () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''),
    stop: async () => {
      // SIGTERM: nginx's fast shutdown (master and workers).
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Replica {
  id: string;
  port: number;
  /** stdout lines that matter here (listening, bootstrap key, migrations). */
  lines: string[];
  listening: Promise<void>;
  exited: Promise<void>;
  alive(): boolean;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Lines kept from a replica's stdout (request logs are dropped). */
const INTERESTING = /Bulwark listening|Bootstrap admin API key|Applied \d+ migration|"level":(40|50|60)/;

export async function startReplica(id: string, env: Record<string, string>): Promise<Replica> {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, APP_ENTRY], {
    cwd: REPO_ROOT,
    // Only what the config module reads, plus PATH: the test's own environment stays out.
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      PORT: String(port),
      HOST: '127.0.0.1',
      REPLICA_ID: id,
      LOG_LEVEL: 'info',
      EDGE_LIMITS: 'shadow',
      TRUSTED_PROXIES: '127.0.0.1',
      SCAN_WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  let pending = '';
  let resolveListening!: () => void;
  let rejectListening!: (err: Error) => void;
  const listening = new Promise<void>((ok, fail) => {
    resolveListening = ok;
    rejectListening = fail;
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (INTERESTING.test(line)) lines.push(line);
      if (line.startsWith('Bulwark listening')) resolveListening();
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = onExit(child);
  void exited.then(() => rejectListening(new Error(`replica ${id} exited (${child.exitCode ?? child.signalCode}): ${stderr}`)));
  listening.catch(() => undefined);
  return {
    id,
    port,
    lines,
    listening,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface SendOptions {
  method?: string;
  path: string;
  token?: string;
  /** Source address: any 127.x.y.z works on Linux loopback. */
  from?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/** One request on a fresh connection (no keep-alive: the balancer decides per connection too). */
export function send(port: number, opts: SendOptions): Promise<Reply> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body));
  return new Promise((ok, fail) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers, localAddress: opts.from, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${opts.method ?? 'GET'} ${opts.path}`)));
    req.end(opts.body);
  });
}

/** A loopback source address unlikely to be shared with another run (per-IP counters live in Redis). */
export function randomLoopback(): string {
  const octet = () => 1 + Math.floor(Math.random() * 254);
  return `127.${octet()}.${octet()}.${octet()}`;
}

/** The little of node-postgres used here (the package ships no types, and @types/pg is not installed). */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<{ rows: unknown[] }>;
  end(): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require('pg') as { Client: new (options: { connectionString: string }) => PgClient };

/** Runs one statement on `url` with a connection of its own. */
export async function pgQuery<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Creates an empty database next to `baseUrl`'s; returns its URL and a function that drops it. */
export async function createScratchDatabase(baseUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  await pgQuery(baseUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await pgQuery(baseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/**
 * Resident memory of the production server (`node dist/main.js`; docs/performance.md "Memory"), per database:
 *  - PGlite, the default a newcomer gets: a fresh data folder (first start runs initdb), then a
 *    restart on the same folder;
 *  - PostgreSQL (DATABASE_URL=postgres://…, with REDIS_URL when it answers).
 * For each: RSS once idle after start-up; then under load (`--scans` 4 KB scans and as many
 * inventory list and get calls, 4 at a time, on the demo inventory), its peak RSS (VmHWM) and the
 * RSS once idle again. RSS is read from /proc/<pid>/status, worker threads included.
 *
 *   npm run build && npm run bench -- memory
 *   npx ts-node --transpile-only bench/memory.bench.ts [--scans 200] [--settle-s 5]
 *
 * Writes bench/results/memory.json; the latest table is in docs/performance.md ("Memory").
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../src/config/node-runtime';
import { figure, runPart, type PartReport } from './support/bench-result';
import { multipartFile } from './support/multipart';
import { postgresUrl, redisAnswers } from './support/scratch-db';
import { arg, round } from './support/stats';

const ROOT = join(__dirname, '..');
const SERVER = join(ROOT, 'dist', 'main.js');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const TENANT = 'default';

interface Setup {
  id: string;
  label: string;
  env: Record<string, string>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** VmRSS and VmHWM of a process, in MB (Linux). */
function memoryOf(pid: number): { rss_mb: number; peak_mb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss_mb: round(kb('VmRSS') / 1024, 0), peak_mb: round(kb('VmHWM') / 1024, 0) };
}

function createKey(env: Record<string, string>): string {
  const r = spawnSync(process.execPath, [CLI, 'keys', 'create', '--tenant', TENANT, '--name', 'bench-memory', '--scopes', 'inventory:read,scan'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (r.status !== 0) throw new Error(`bulwark keys create failed (${r.status}): ${r.stderr}`);
  return r.stdout.trimEnd().split('\n').pop()!;
}

async function startServer(env: Record<string, string>, port: number): Promise<{ child: ChildProcess; startMs: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, SERVER, '--demo'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', LOG_FORMAT: 'json', EDGE_LIMITS: 'off' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${stderr}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, startMs: Date.now() - started };
    await sleep(500);
  }
  child.kill('SIGKILL');
  throw new Error(`the server was not ready within 300 s: ${stderr}`);
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(30_000).then(() => child.kill('SIGKILL'))]);
}

/** `count` scans of a 4 KB SKILL.md, `count` list pages and `count` gets, `concurrency` at a time. */
async function load(port: number, token: string, count: number, concurrency: number): Promise<Record<string, number>> {
  const base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${token}` };
  const skill = `---\nname: memory-bench\ndescription: Summarises the repository.\n---\n# Notes\n${'Read the files and summarise the changes for review.\n'.repeat(80)}`;
  const upload = multipartFile('SKILL.md', Buffer.from(skill), 'text/markdown');
  const page = (await (await fetch(`${base}/api/applications?limit=50`, { headers: auth })).json()) as { items?: { id: number }[] };
  const ids = (page.items ?? []).map((a) => a.id);
  const statuses: Record<string, number> = {};
  const calls: (() => Promise<Response>)[] = [];
  for (let i = 0; i < count; i++) {
    calls.push(() => fetch(`${base}/api/agent_files/scan`, { method: 'POST', headers: { ...auth, 'content-type': upload.contentType }, body: upload.body }));
    calls.push(() =>
      fetch(`${base}/api/applications?limit=100&page=0`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' }),
    );
    if (ids.length) calls.push(() => fetch(`${base}/api/applications/${ids[i % ids.length]}`, { headers: auth }));
  }
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < calls.length) {
      const res = await calls[next++]!();
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return statuses;
}

/** Starts the server, reads its idle RSS, optionally loads it and reads RSS again, stops it. */
async function measure(
  report: PartReport,
  setup: Setup,
  run: { tag: string; what: string; token?: string },
  opts: { scans: number; settleMs: number },
): Promise<void> {
  const port = await freePort();
  const { child, startMs } = await startServer(setup.env, port);
  try {
    await sleep(opts.settleMs);
    const idle = memoryOf(child.pid!);
    report.add(
      figure(
        `memory.${setup.id}${run.tag}.idle_rss`,
        `${setup.label}${run.what}: idle RSS`,
        idle.rss_mb,
        'MB',
        undefined,
        `start-up ${round(startMs / 1000, 1)} s, peak ${idle.peak_mb} MB`,
      ),
    );
    if (!run.token) return;
    const statuses = await load(port, run.token, opts.scans, 4);
    await sleep(opts.settleMs);
    const after = memoryOf(child.pid!);
    const seen = Object.entries(statuses)
      .map(([c, n]) => `${n}×${c}`)
      .join(', ');
    report.add(
      figure(
        `memory.${setup.id}.load_peak_rss`,
        `${setup.label}: peak RSS under load (${opts.scans} scans + inventory calls)`,
        after.peak_mb,
        'MB',
        undefined,
        seen,
      ),
    );
    report.add(figure(`memory.${setup.id}.after_load_rss`, `${setup.label}: RSS idle after the load`, after.rss_mb, 'MB'));
    report.details[`${setup.id}_statuses`] = statuses;
  } finally {
    await stopServer(child);
  }
}

runPart('memory', async (report) => {
  if (!existsSync(SERVER) || !existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` first');
  const scans = arg('scans', 200);
  const settleMs = arg('settle-s', 5) * 1000;
  const folder = mkdtempSync(join(tmpdir(), 'bulwark-bench-memory-'));
  try {
    const opts = { scans, settleMs };
    // A newcomer's first `npm start` opens a folder that does not exist yet; the key is made after it.
    const pglite: Setup = { id: 'pglite', label: 'PGlite (default, file)', env: { DATABASE_URL: `pglite://${join(folder, 'pglite')}`, REDIS_URL: '' } };
    await measure(report, pglite, { tag: '.fresh', what: ', first start (new data folder)' }, opts);
    await measure(report, pglite, { tag: '.restart', what: ', restart', token: createKey(pglite.env) }, opts);
    const pg = postgresUrl();
    const redis = (await redisAnswers(process.env.REDIS_URL)) ? process.env.REDIS_URL! : '';
    if (pg) {
      const postgres: Setup = { id: 'postgres', label: `PostgreSQL${redis ? ' + Redis' : ''}`, env: { DATABASE_URL: pg, REDIS_URL: redis } };
      await measure(report, postgres, { tag: '', what: '', token: createKey(postgres.env) }, opts);
    } else {
      report.skip('memory.postgres.idle_rss', 'PostgreSQL: idle RSS', 'MB', 'skipped (no PostgreSQL: set DATABASE_URL=postgres://…)');
    }
    Object.assign(report.details, { scans, settle_s: settleMs / 1000, node: process.version });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

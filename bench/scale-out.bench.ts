/**
 * Requests per second through nginx (deploy/nginx's template) in front of one and of two
 * `node dist/main.js` replicas sharing PostgreSQL and Redis, on loopback.
 *
 *   npm run build
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 \
 *     npx ts-node --transpile-only bench/scale-out.bench.ts [--seconds 8] [--rounds 3] [--connections 64]
 *
 * DATABASE_URL names a server where a scratch database may be created (it is dropped at the end).
 * Two routes: GET /health/live (no database, no auth: proxy + framework cost) and
 * GET /api/admin/api-keys (API-key auth, the Redis budget, one PostgreSQL query). Setups are
 * interleaved over rounds and the median is reported. autocannon runs in its own process, but on
 * the same 2 shared cores as nginx, both replicas, PostgreSQL and Redis: the second replica can
 * only add what the cores have left. Writes bench/results/scale-out.json (bench/support/bench-result.ts
 * shape); without PostgreSQL, Redis, nginx or a build the part reports itself skipped.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ENTRY, createScratchDatabase, nginxBinary, send, startNginx, startReplica, type RunningNginx, type Replica } from '../test/e2e/scale-out.harness';
import { figure, runPart, type PartReport } from './support/bench-result';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

interface Load {
  rps: number;
  p99_ms: number;
  non2xx: number;
  errors: number;
}

function load(url: string, seconds: number, connections: number, token?: string): Promise<Load> {
  const bin = join(__dirname, '..', 'node_modules', '.bin', 'autocannon');
  const args = ['-j', '-c', String(connections), '-d', String(seconds)];
  if (token) args.push('-H', `Authorization=Bearer ${token}`);
  return new Promise((resolve, reject) => {
    execFile(bin, [...args, url], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
      if (err) return reject(err);
      const r = JSON.parse(stdout) as { requests: { average: number }; latency: { p99: number }; non2xx: number; errors: number };
      resolve({ rps: Math.round(r.requests.average), p99_ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors });
    });
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** No edge limiting during the benchmark: one client address sends everything. */
const UNLIMITED_EDGE = { EDGE_API_RATE: '6000000r/m', EDGE_API_BURST: '1000000', EDGE_SCAN_RATE: '6000000r/m', EDGE_SCAN_BURST: '1000000' };

async function main(report: PartReport): Promise<void> {
  const seconds = arg('seconds', 8);
  const rounds = arg('rounds', 3);
  const connections = arg('connections', 64);
  const databaseUrl = process.env.DATABASE_URL ?? '';
  const redisUrl = process.env.REDIS_URL ?? '';
  const nginx = nginxBinary();
  if (!databaseUrl.startsWith('postgres')) return report.skipPart('skipped (no PostgreSQL)');
  if (!redisUrl) return report.skipPart('skipped (no Redis)');
  if (!nginx) return report.skipPart('skipped (no nginx: apt-get install -y nginx)');
  if (!existsSync(APP_ENTRY)) return report.skipPart('skipped (no dist/main.js: npm run build)');

  const db = await createScratchDatabase(databaseUrl, 'bulwark_bench_scaleout');
  const replicas: Replica[] = [];
  const proxies: RunningNginx[] = [];
  try {
    const env = { DATABASE_URL: db.url, REDIS_URL: redisUrl, LOG_LEVEL: 'warn' };
    // Start one first so it alone migrates and prints the bootstrap key (LOG_LEVEL=warn hides neither).
    replicas.push(await startReplica('replica-a', env));
    await replicas[0]!.listening;
    replicas.push(await startReplica('replica-b', env));
    await replicas[1]!.listening;
    const bootstrap = replicas[0]!.lines.find((l) => l.startsWith('Bootstrap admin API key: '));
    if (!bootstrap) throw new Error('no bootstrap key printed');
    const admin = bootstrap.slice('Bootstrap admin API key: '.length).trim();
    const created = await send(replicas[0]!.port, {
      method: 'POST',
      path: '/api/admin/api-keys',
      token: admin,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', scopes: ['admin'], rate_limit_per_minute: 10_000_000 }),
    });
    if (created.status !== 200) throw new Error(`key creation: ${created.status} ${created.body}`);
    const token = (JSON.parse(created.body) as { token: string }).token;

    const one = await startNginx(nginx, { upstreams: [replicas[0]!.port], edge: UNLIMITED_EDGE });
    proxies.push(one);
    const two = await startNginx(nginx, { upstreams: replicas.map((r) => r.port), edge: UNLIMITED_EDGE });
    proxies.push(two);

    const setups = { nginx_1_replica: one.port, nginx_2_replicas: two.port };
    const routes = { health_live: { path: '/health/live', token: undefined }, api_keys_list: { path: '/api/admin/api-keys', token } };
    const samples: Record<string, Record<string, Load[]>> = {};
    for (const route of Object.keys(routes)) samples[route] = Object.fromEntries(Object.keys(setups).map((s) => [s, [] as Load[]]));

    for (const [route, { path, token: auth }] of Object.entries(routes)) {
      // Warm-up: JIT, connection pools, auth cache.
      for (const port of Object.values(setups)) await load(`http://127.0.0.1:${port}${path}`, 2, connections, auth);
      for (let round = 0; round < rounds; round++) {
        for (const [setup, port] of Object.entries(setups)) {
          samples[route]![setup]!.push(await load(`http://127.0.0.1:${port}${path}`, seconds, connections, auth));
        }
      }
    }

    const summary = Object.fromEntries(
      Object.entries(samples).map(([route, bySetup]) => {
        const rps = Object.fromEntries(Object.entries(bySetup).map(([setup, runs]) => [setup, median(runs.map((r) => r.rps))]));
        return [
          route,
          {
            rps,
            p99_ms: Object.fromEntries(Object.entries(bySetup).map(([setup, runs]) => [setup, median(runs.map((r) => r.p99_ms))])),
            non2xx: Object.fromEntries(Object.entries(bySetup).map(([setup, runs]) => [setup, runs.reduce((n, r) => n + r.non2xx + r.errors, 0)])),
            speedup_2_vs_1: Math.round((rps.nginx_2_replicas! / rps.nginx_1_replica!) * 100) / 100,
          },
        ];
      }),
    );
    for (const [route, r] of Object.entries(summary) as [string, { rps: Record<string, number>; p99_ms: Record<string, number>; speedup_2_vs_1: number }][]) {
      report.add(
        figure(
          `scale_out.${route}.speedup`,
          `${route === 'health_live' ? 'GET /health/live' : 'GET /api/admin/api-keys'} through nginx: 2 replicas vs 1 (req/s ratio)`,
          r.speedup_2_vs_1,
          '×',
          undefined,
          `${r.rps.nginx_1_replica} → ${r.rps.nginx_2_replicas} req/s on 2 shared cores`,
        ),
      );
    }
    Object.assign(report.details, {
      // Other work on the machine skews everything here: the load average says how busy it was.
      settings: { seconds, rounds, connections, log_level: 'warn', scan_workers_per_replica: 1 },
      routes: summary,
    });
  } finally {
    await Promise.allSettled(proxies.map((p) => p.stop()));
    await Promise.allSettled(replicas.map((r) => r.kill('SIGTERM')));
    await db.drop();
  }
}

runPart('scale-out', main);

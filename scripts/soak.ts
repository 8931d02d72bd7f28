/**
 * Soak run (docs/security.md "Reproducing"): two app instances (the built dist/main.js, REPLICA_ID a and b) sharing one
 * PostgreSQL and one Redis, mixed traffic at the per-key budget, then a report of status counts,
 * latency percentiles, RSS of both processes over time (with its trend) and a final consistency
 * check on the database.
 *
 *   npm run build && npm run soak                       # 5 minutes, keys at the 2,000/min budget
 *   npm run soak -- --seconds 30 --budget 600           # the short setting .ci/run uses
 *
 * Options: --seconds N (traffic duration), --budget N (per-key requests/minute, set on the soak's
 * keys), --keys N (keys paced at 95 % of the budget), --greedy X (one more key sending X × the
 * budget, to check the two replicas enforce ONE shared budget), --json FILE (default
 * bench/results/soak.json). PostgreSQL and Redis are private throwaway instances (initdb /
 * redis-server) when the binaries exist, else DATABASE_URL and REDIS_URL. The edge limiter is off:
 * every request comes from 127.0.0.1, which would otherwise be one edge client.
 *
 * Exit code 1 when: a 5xx other than the scanner's documented 502/503 (or any 503 outside the
 * scan endpoint), a 429 for an at-budget key, the greedy key admitted past the shared budget, an
 * inconsistent final state, or RSS growing (slope > 20 MB/min after warm-up, beyond 48 MB of noise).
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { SERVICE_NODE_FLAGS } from '../src/config/node-runtime';
import { ApiKeysRepository } from '../src/auth/persistence/api-keys.repository';
import { buildDataSourceOptions, createDataSource } from '../src/database/data-source-options';
import { openSql, postgresBinDir, PrivatePostgres, PrivateRedis, redisServerAvailable } from '../test/reliability/private-services';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const argText = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};

const SECONDS = arg('seconds', 300);
const BUDGET = arg('budget', 2000);
const KEYS = arg('keys', 2);
const GREEDY = arg('greedy', 3);
const JSON_OUT = resolve(argText('json', resolve(__dirname, '../bench/results/soak.json')));
const MAIN = resolve(argText('main', resolve(__dirname, '../dist/main.js')));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Instance {
  name: string;
  proc: ChildProcess;
  base: string;
  rss: { t: number; mb: number }[];
}

function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const proc = spawn(process.execPath, [...SERVICE_NODE_FLAGS, MAIN], {
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', REPLICA_ID: name, LOG_LEVEL: 'warn', EDGE_LIMITS: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolvePromise, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`instance ${name} did not start: ${out.slice(-2000)}`)), 120_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on http:\/\/localhost:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolvePromise({ name, proc, base: `http://127.0.0.1:${m[1]}`, rss: [] });
      }
    });
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    proc.once('exit', (code) => reject(new Error(`instance ${name} exited (${code}): ${out.slice(-2000)}`)));
  });
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 102.4) / 10 : NaN;
}

/** Least-squares slope of y over x (x in minutes). */
function slopePerMinute(points: { t: number; mb: number }[]): number {
  if (points.length < 3) return 0;
  const xs = points.map((p) => p.t / 60_000);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = points.reduce((a, p) => a + p.mb, 0) / points.length;
  let num = 0;
  let den = 0;
  points.forEach((p, i) => {
    num += (xs[i]! - mx) * (p.mb - my);
    den += (xs[i]! - mx) ** 2;
  });
  return den === 0 ? 0 : num / den;
}

const percentile = (sorted: number[], p: number): number => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN);

interface Sample {
  route: string;
  status: number;
  ms: number;
  key: string;
  replica: string;
}

async function main(): Promise<void> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} missing: run \`npm run build\` first`);
  let pg: PrivatePostgres | null = null;
  let redis: PrivateRedis | null = null;
  let databaseUrl = process.env.DATABASE_URL ?? '';
  let redisUrl = process.env.REDIS_URL ?? '';
  if (postgresBinDir() && redisServerAvailable()) {
    [pg, redis] = await Promise.all([PrivatePostgres.create(), PrivateRedis.create()]);
    databaseUrl = pg.url();
    redisUrl = redis.url;
  } else if (!databaseUrl.startsWith('postgres') || !redisUrl) {
    throw new Error('soak needs PostgreSQL and Redis: install postgresql + redis-server, or set DATABASE_URL and REDIS_URL');
  }
  const instances: Instance[] = [];
  try {
    // The first instance runs the migrations; the second starts on the migrated database.
    instances.push(await startInstance('a', { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl }));
    instances.push(await startInstance('b', { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl }));
    await run(instances, databaseUrl);
  } finally {
    for (const i of instances) {
      if (i.proc.exitCode === null) {
        const exited = new Promise((r) => i.proc.once('exit', r));
        i.proc.kill('SIGTERM');
        await exited;
      }
    }
    await Promise.all([pg?.destroy(), redis?.stop()]);
  }
}

async function run(instances: Instance[], databaseUrl: string): Promise<void> {
  // Keys and seed data, through the same code paths as the CLI.
  const ds = await createDataSource(buildDataSourceOptions({ database: { kind: 'postgres', url: databaseUrl } })).initialize();
  const repo = new ApiKeysRepository(ds);
  const tenant = await repo.findOrCreateTenant(`soak-${Date.now()}`);
  const keys = new ApiKeysService(repo, 0);
  const mint = async (name: string) => (await keys.create({ tenantId: tenant.id, name, scopes: ['admin'], expiresAt: null, rateLimitPerMinute: BUDGET })).token;
  const paced = await Promise.all(Array.from({ length: KEYS }, (_, i) => mint(`soak-${i}`)));
  const greedy = await mint('soak-greedy');
  const setup = await mint('soak-setup');
  await ds.destroy();

  const call = async (instance: Instance, token: string, method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(`${instance.base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  const services = Array.from({ length: 20 }, (_, i) => i + 1);
  const seed = await call(instances[0]!, setup, 'POST', '/api/internal/inventory/import', {
    services: services.map((id) => ({ id, name: `svc-${id}` })),
    resources: services.map((id) => ({ platform_id: `res-${id}`, resource_type: 'aws_s3_bucket', service_ids: [id] })),
    packages: services.map((id) => ({ service_id: id, purl: `pkg:npm/dep-${id}@1.0.${id}`, name: `dep-${id}`, version: `1.0.${id}` })),
    finding_counts: services.map((id) => ({ service_id: id, severity: id % 3 ? 'LOW' : 'HIGH', urgent: id % 4, plan: 1, defer: 0 })),
    applications: Array.from({ length: 10 }, (_, i) => ({ name: `soak-app-${i}`, service_ids: [i + 1, i + 2] })),
  });
  if (seed.status !== 200) throw new Error(`seed import failed: ${seed.status} ${await seed.text()}`);
  const list = (await (await call(instances[0]!, setup, 'GET', '/api/applications?limit=100')).json()) as { items: { id: number; name: string }[] };
  const appIds = list.items.map((a) => a.id);
  const created: string[] = [];

  const samples: Sample[] = [];
  let n = 0;
  const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
  /** One request of the mix: reads dominate, writes and scans alongside (the shape of real use). */
  const mixed = async (token: string, keyName: string): Promise<void> => {
    const instance = instances[n++ % instances.length]!;
    const id = pick(appIds);
    const r = Math.random();
    let route: string;
    let res: Response;
    const started = performance.now();
    try {
      if (r < 0.3) [route, res] = ['GET list', await call(instance, token, 'GET', `/api/applications?limit=20&orders=-service_count&search=soak`)];
      else if (r < 0.45) [route, res] = ['GET app', await call(instance, token, 'GET', `/api/applications/${id}`)];
      else if (r < 0.55) [route, res] = ['GET graph', await call(instance, token, 'GET', `/api/applications/${id}/graph`)];
      else if (r < 0.6) [route, res] = ['GET graph_resources', await call(instance, token, 'GET', `/api/applications/${id}/graph_resources?limit=10`)];
      else if (r < 0.66) {
        const name = `soak-new-${keyName}-${n}`;
        [route, res] = ['POST create', await call(instance, token, 'POST', '/api/applications/', { name, service_ids: [pick(services)] })];
        if (res.status === 200) created.push(name);
      } else if (r < 0.74) [route, res] = ['POST assign', await call(instance, token, 'POST', `/api/applications/${id}/service`, [pick(services)])];
      else if (r < 0.8) [route, res] = ['DELETE service', await call(instance, token, 'DELETE', `/api/applications/${id}/service/${pick(services)}`)];
      else if (r < 0.85) [route, res] = ['PUT graph', await call(instance, token, 'PUT', `/api/applications/${id}/graph`, [])];
      else if (r < 0.9)
        [route, res] = ['POST sbom', await call(instance, token, 'POST', `/api/applications/${id}/sbom`, { environment: null, coderoots: null })];
      else if (r < 0.95) [route, res] = ['GET terms', await call(instance, token, 'GET', '/api/applications/_terms')];
      else {
        const form = new FormData();
        form.append('file', new Blob([`---\nname: soak\n---\n# Skill ${n}\nRun \`npm test\` before committing.\n`]), 'SKILL.md');
        route = 'POST scan';
        res = await fetch(`${instance.base}/api/agent_files/scan`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}` },
          body: form,
          signal: AbortSignal.timeout(30_000),
        });
      }
      await res.arrayBuffer();
      samples.push({ route, status: res.status, ms: performance.now() - started, key: keyName, replica: res.headers.get('x-bulwark-replica') ?? '?' });
    } catch (err) {
      samples.push({ route: 'transport error', status: 0, ms: performance.now() - started, key: keyName, replica: instance.name });
      process.stderr.write(`transport error: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  };

  /** Open-loop pacing at `perMinute`, at most 16 requests of this key in flight. */
  const pace = async (token: string, keyName: string, perMinute: number, until: number): Promise<void> => {
    const interval = 60_000 / perMinute;
    const inFlight = new Set<Promise<void>>();
    let next = performance.now();
    while (performance.now() < until) {
      if (inFlight.size < 16) {
        const p = mixed(token, keyName).finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      next += interval;
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
    }
    await Promise.all(inFlight);
  };

  const t0 = performance.now();
  const until = t0 + SECONDS * 1000;
  const sampler = setInterval(
    () => {
      for (const i of instances) if (i.proc.pid) i.rss.push({ t: performance.now() - t0, mb: rssMb(i.proc.pid) });
    },
    Math.max(1000, (SECONDS * 1000) / 120),
  );
  for (const i of instances) i.rss.push({ t: 0, mb: rssMb(i.proc.pid!) });
  await Promise.all([
    ...paced.map((token, i) => pace(token, `key${i}`, BUDGET * 0.95, until)),
    GREEDY > 0 ? pace(greedy, 'greedy', BUDGET * GREEDY, until) : Promise.resolve(),
  ]);
  clearInterval(sampler);
  const elapsedS = (performance.now() - t0) / 1000;

  // Final consistency, straight from the database.
  const sql = await openSql(databaseUrl);
  const failures: string[] = [];
  try {
    const q = async <T>(text: string, params: unknown[] = [tenant.id]) => (await sql.query(text, params)) as T[];
    const orphanMembers = await q<{ c: number }>(
      'SELECT count(*)::int AS c FROM application_services m WHERE m.tenant_id = $1 AND (NOT EXISTS (SELECT 1 FROM applications a WHERE a.id = m.application_id AND a.tenant_id = m.tenant_id) OR NOT EXISTS (SELECT 1 FROM inventory_services s WHERE s.id = m.service_id AND s.tenant_id = m.tenant_id))',
    );
    if (orphanMembers[0]!.c) failures.push(`${orphanMembers[0]!.c} memberships reference missing rows`);
    const storedNames = new Set((await q<{ name: string }>('SELECT name FROM applications WHERE tenant_id = $1')).map((r) => r.name));
    const lost = created.filter((name) => !storedNames.has(name));
    if (lost.length) failures.push(`${lost.length} created applications missing: ${lost.slice(0, 5).join(', ')}`);
    const counts = new Map(
      (
        await q<{ id: number; c: number }>(
          'SELECT a.id, count(m.service_id)::int AS c FROM applications a LEFT JOIN application_services m ON m.application_id = a.id WHERE a.tenant_id = $1 GROUP BY a.id',
        )
      ).map((r) => [r.id, r.c]),
    );
    const api = (await (await call(instances[1]!, setup, 'GET', '/api/applications?limit=1000')).json()) as {
      total: number;
      items: { id: number; service_count: number; services: number[] }[];
    };
    if (api.total !== counts.size) failures.push(`list total ${api.total} != ${counts.size} rows`);
    for (const item of api.items) {
      if (counts.get(item.id) !== item.service_count || item.services.length !== item.service_count)
        failures.push(`application ${item.id}: service_count ${item.service_count}, rows ${counts.get(item.id)}`);
    }
  } finally {
    await sql.destroy();
  }

  // Figures.
  const statusCounts: Record<string, number> = {};
  for (const s of samples) statusCounts[s.status] = (statusCounts[s.status] ?? 0) + 1;
  const byRoute: Record<string, { count: number; p50: number; p95: number; p99: number; statuses: Record<string, number> }> = {};
  for (const route of [...new Set(samples.map((s) => s.route))].sort()) {
    const rs = samples.filter((s) => s.route === route);
    const ms = rs
      .filter((s) => s.status !== 429)
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    const statuses: Record<string, number> = {};
    for (const s of rs) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
    byRoute[route] = {
      count: rs.length,
      p50: +percentile(ms, 50).toFixed(1),
      p95: +percentile(ms, 95).toFixed(1),
      p99: +percentile(ms, 99).toFixed(1),
      statuses,
    };
  }
  const served = samples
    .filter((s) => s.status !== 429 && s.status !== 0)
    .map((s) => s.ms)
    .sort((a, b) => a - b);
  const replicas: Record<string, number> = {};
  for (const s of samples) replicas[s.replica] = (replicas[s.replica] ?? 0) + 1;
  const rss = instances.map((i) => {
    const warm = i.rss.filter((p) => p.t >= (SECONDS * 1000) / 4);
    const firstQuarterMedian = warm
      .slice(0, Math.max(1, Math.floor(warm.length / 4)))
      .map((p) => p.mb)
      .sort((a, b) => a - b);
    const lastQuarterMedian = warm
      .slice(-Math.max(1, Math.floor(warm.length / 4)))
      .map((p) => p.mb)
      .sort((a, b) => a - b);
    const growth = percentile(lastQuarterMedian, 50) - percentile(firstQuarterMedian, 50);
    return {
      instance: i.name,
      start_mb: i.rss[0]!.mb,
      max_mb: Math.max(...i.rss.map((p) => p.mb)),
      end_mb: i.rss.at(-1)!.mb,
      slope_mb_per_min_after_warmup: +slopePerMinute(warm).toFixed(2),
      growth_mb_after_warmup: +growth.toFixed(1),
      samples: i.rss.map((p) => [+(p.t / 1000).toFixed(1), p.mb]),
    };
  });

  // Verdicts.
  const bad5xx = samples.filter((s) => s.status >= 500 && !(s.route === 'POST scan' && (s.status === 502 || s.status === 503)));
  if (bad5xx.length) failures.push(`${bad5xx.length} unexpected 5xx (${[...new Set(bad5xx.map((s) => `${s.route} ${s.status}`))].join(', ')})`);
  const transport = samples.filter((s) => s.status === 0).length;
  if (transport) failures.push(`${transport} transport errors`);
  const paced429 = samples.filter((s) => s.key !== 'greedy' && s.status === 429).length;
  if (paced429) failures.push(`${paced429} 429s for keys paced under the budget`);
  const greedyAdmitted = samples.filter((s) => s.key === 'greedy' && s.status !== 429).length;
  // A window opens at the key's first request (after t0) and lasts 60 s: the run touches at most this many.
  const windows = Math.max(1, Math.ceil(elapsedS / 60));
  if (GREEDY > 0 && greedyAdmitted > BUDGET * windows)
    failures.push(`greedy key admitted ${greedyAdmitted} > ${BUDGET} × ${windows} windows: the replicas do not share one budget`);
  if (Object.keys(replicas).filter((r) => r !== '?').length < 2) failures.push(`traffic did not reach both replicas: ${JSON.stringify(replicas)}`);
  for (const r of rss) {
    if (r.slope_mb_per_min_after_warmup > 20 && r.growth_mb_after_warmup > 48)
      failures.push(`instance ${r.instance}: RSS grows ${r.slope_mb_per_min_after_warmup} MB/min (+${r.growth_mb_after_warmup} MB after warm-up)`);
  }

  const report = {
    when: new Date().toISOString(),
    machine: { cpus: cpus().length, loadavg_1m_at_end: +loadavg()[0]!.toFixed(2) },
    settings: { seconds: SECONDS, budget_per_key_per_min: BUDGET, paced_keys: KEYS, paced_at: 0.95, greedy_multiple: GREEDY, instances: instances.length },
    elapsed_s: +elapsedS.toFixed(1),
    requests: samples.length,
    throughput_rps: +(samples.length / elapsedS).toFixed(1),
    statuses: statusCounts,
    replicas,
    latency_ms_served: {
      p50: +percentile(served, 50).toFixed(1),
      p95: +percentile(served, 95).toFixed(1),
      p99: +percentile(served, 99).toFixed(1),
      max: +(served.at(-1) ?? NaN).toFixed(1),
    },
    greedy: { admitted: greedyAdmitted, rejected_429: samples.filter((s) => s.key === 'greedy' && s.status === 429).length, allowed_at_most: BUDGET * windows },
    routes: byRoute,
    rss,
    consistency: { created_applications: created.length, ok: failures.every((f) => !/missing|reference|total|service_count/.test(f)) },
    failures,
  };
  mkdirSync(dirname(JSON_OUT), { recursive: true });
  writeFileSync(JSON_OUT, `${JSON.stringify(report, null, 2)}\n`);

  const line = (s: string) => process.stdout.write(`${s}\n`);
  line(
    `soak: ${report.requests} requests in ${report.elapsed_s} s (${report.throughput_rps} req/s) over 2 instances ${JSON.stringify(replicas)}, load ${report.machine.loadavg_1m_at_end}`,
  );
  line(
    `statuses: ${JSON.stringify(statusCounts)}; latency (served) p50 ${report.latency_ms_served.p50} ms, p95 ${report.latency_ms_served.p95} ms, p99 ${report.latency_ms_served.p99} ms`,
  );
  line(`greedy key at ${GREEDY}× budget: ${greedyAdmitted} admitted (≤ ${BUDGET * windows} allowed), ${report.greedy.rejected_429} × 429`);
  for (const [route, r] of Object.entries(byRoute))
    line(
      `  ${route.padEnd(22)} n=${String(r.count).padStart(6)}  p50 ${String(r.p50).padStart(7)}  p95 ${String(r.p95).padStart(7)}  p99 ${String(r.p99).padStart(7)}  ${JSON.stringify(r.statuses)}`,
    );
  for (const r of rss)
    line(
      `RSS ${r.instance}: start ${r.start_mb} MB, max ${r.max_mb} MB, end ${r.end_mb} MB, slope after warm-up ${r.slope_mb_per_min_after_warmup} MB/min (${r.growth_mb_after_warmup >= 0 ? '+' : ''}${r.growth_mb_after_warmup} MB)`,
    );
  line(`consistency: ${created.length} created applications all stored, memberships and counts agree: ${report.consistency.ok ? 'yes' : 'NO'}`);
  line(`report: ${JSON_OUT}`);
  if (failures.length) {
    for (const f of failures) process.stderr.write(`SOAK FAILED: ${f}\n`);
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

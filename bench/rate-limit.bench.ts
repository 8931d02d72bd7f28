/**
 * Rate limiter cost (DESIGN.md §10; targets from issue 8 / 11):
 *  1. ns per check: memory store at limits 60 and 200,000 (target ≤ 2 µs both), through the store
 *     interface (`await store.evaluate`), plus the raw synchronous core and the full RateLimiter
 *     decision; the limiter's whole code per request (middleware + guard, in process); Redis per
 *     check, sequential (one round trip each) and with 64 in flight.
 *  2. Throughput of a trivial authenticated endpoint with the limiter off vs on (memory, Redis):
 *     a minimal Nest app (bearer check → [edge + per-endpoint middleware → rate-limit guard] →
 *     handler), loaded by autocannon in its own process, modes interleaved over several rounds so
 *     the noise of a shared machine spreads evenly. Targets: loss ≤ 5% memory, ≤ 15% Redis.
 *     Reported three ways: paired requests/s loss, loss from server CPU per request, and the
 *     limiter's share of server CPU in a V8 profile (the steadiest of the three under load).
 *     A second limiter-off server runs in the same rotation as an A/A control: its paired "loss"
 *     against the first is the run's noise floor, printed beside the real losses.
 *
 *   npx ts-node --transpile-only bench/rate-limit.bench.ts [--seconds 5] [--rounds 6] [--connections 32]
 *
 * REDIS_URL (default redis://127.0.0.1:6379) is used when it answers; Redis parts are skipped
 * otherwise. Writes bench/results/rate-limit.json (bench/support/bench-result.ts shape); bench/run.ts runs it.
 */
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import inspector from 'node:inspector';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { CanActivate, Controller, ExecutionContext, Get, Injectable, Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_GUARD, NestFactory, Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request } from 'express';
import Redis from 'ioredis';
import type { Principal } from '../src/auth/principal';
import { ClockModule } from '../src/common/clock/clock.module';
import { SystemClock } from '../src/common/clock/system-clock';
import { createHttpAdapter } from '../src/create-app';
import { REDIS_CLIENT_OPTIONS } from '../src/database/redis.module';
import { TrustedProxies } from '../src/rate-limit/client-address';
import { RateLimitGuard } from '../src/rate-limit/rate-limit.guard';
import { RateLimitMiddleware } from '../src/rate-limit/rate-limit.middleware';
import { installRateLimiting, RateLimitModule } from '../src/rate-limit/rate-limit.module';
import { RATE_LIMIT_POLICY, type RateLimitPolicy } from '../src/rate-limit/rate-limit.policy';
import { RateLimiter } from '../src/rate-limit/rate-limiter';
import { EdgeCounter } from '../src/rate-limit/store/edge-counter';
import { MemoryRateLimitStore } from '../src/rate-limit/store/memory-rate-limit.store';
import type { BucketCheck, RateLimitStore } from '../src/rate-limit/store/rate-limit-store';
import { RedisRateLimitStore } from '../src/rate-limit/store/redis-rate-limit.store';
import { atMost, figure, runPart, type PartReport } from './support/bench-result';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const round = (n: number, d = 1): number => Math.round(n * 10 ** d) / 10 ** d;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// ---- 1. cost per check ---------------------------------------------------------------------------

const KEYS = 10_000;
const keyNames = Array.from({ length: KEYS }, (_, i) => `app:key:${i.toString(36)}-${randomUUID().slice(0, 8)}`);

/** Requests spread over 10,000 buckets, 1 µs apart: at limit 60 ~40% are rejections, at 200,000 none. */
async function nsPerCheck(kind: 'sync' | 'store' | 'limiter', limit: number, iterations: number): Promise<number> {
  const store = new MemoryRateLimitStore();
  const checks: BucketCheck[][] = keyNames.map((key) => [{ key, limit, windowMs: 60_000 }]);
  let now = 1_700_000_000_000;
  const clock = { now: () => now };
  const limiter = new RateLimiter(store, clock, { policy: RATE_LIMIT_POLICY });
  const limiterChecks = keyNames.map((key) => [{ key, limit, windowMs: 60_000, layer: 'app' as const, reason: 'bench' }]);
  const run = async (n: number) => {
    if (kind === 'sync') for (let i = 0; i < n; i++) store.evaluateSync(checks[i % KEYS]!, (now += 0.001));
    else if (kind === 'store') for (let i = 0; i < n; i++) await store.evaluate(checks[i % KEYS]!, (now += 0.001));
    else for (let i = 0; i < n; i++) { now += 0.001; await limiter.evaluate(limiterChecks[i % KEYS]!); }
  };
  await run(Math.min(iterations, 200_000)); // warm-up (JIT)
  const samples: number[] = [];
  for (let s = 0; s < 3; s++) {
    const t0 = process.hrtime.bigint();
    await run(iterations);
    samples.push(Number(process.hrtime.bigint() - t0) / iterations);
  }
  return round(median(samples));
}

/**
 * The limiter's own code per request, in process: the raw middleware (edge + per-endpoint match)
 * and the guard (app budget, headers) on a memory store, for one API key from one address — what
 * the throughput test's server runs per request, without HTTP, Express or Nest around it.
 */
function nsPerLimitedRequest(iterations: number): { with_limiter: number; without: number; limiter: number } {
  class Probe {
    handle(): void {}
  }
  const clock = new SystemClock();
  const limiter = new RateLimiter(new MemoryRateLimitStore(), clock, { policy: BENCH_POLICY });
  const trusted = new TrustedProxies([]);
  const middleware = new RateLimitMiddleware(limiter, new EdgeCounter(null, clock), trusted, { redis: null, edgeLimits: 'on', trustedProxies: [], policy: BENCH_POLICY });
  const guard = new RateLimitGuard(new Reflector(), limiter, trusted);
  const socket = { remoteAddress: '127.0.0.1' };
  const res = { setHeader: () => undefined, set: () => undefined, once: () => undefined };
  const next = () => undefined;
  // The request and the execution context are built either way, so the difference is the limiter.
  let admitted = 0;
  const one = (limited: boolean) => {
    const req = { method: 'GET', url: '/api/bench/ping', originalUrl: '/api/bench/ping', headers: {}, params: {}, socket } as unknown as Request;
    if (limited) middleware.handle(req as never, res as never, next);
    req.principal = PRINCIPAL;
    const ctx = new ExecutionContextHost([req, res, next], Probe as Type, Probe.prototype.handle);
    // On the memory store the guard answers synchronously: count it, so the call cannot be elided.
    if (limited ? guard.canActivate(ctx) === true : ctx.getType() === 'http') admitted++;
  };
  const time = (limited: boolean) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) one(limited);
    return Number(process.hrtime.bigint() - t0) / iterations;
  };
  time(true);
  time(false); // warm-up (JIT)
  const on: number[] = [];
  const off: number[] = [];
  for (let s = 0; s < 5; s++) {
    on.push(time(true));
    off.push(time(false));
  }
  middleware.onModuleDestroy();
  if (admitted !== iterations * 12) throw new Error(`request path: ${admitted} of ${iterations * 12} requests admitted synchronously`);
  const withLimiter = median(on);
  const without = median(off);
  return { with_limiter: round(withLimiter), without: round(without), limiter: round(withLimiter - without) };
}

async function redisNsPerCheck(redis: Redis, prefix: string, limit: number, inFlight: number, iterations: number): Promise<number> {
  const store: RateLimitStore = new RedisRateLimitStore(redis, { keyPrefix: prefix });
  let now = Date.now();
  let i = 0;
  const worker = async (n: number) => {
    for (let k = 0; k < n; k++) await store.evaluate([{ key: keyNames[i++ % KEYS]!, limit, windowMs: 60_000 }], (now += 0.001));
  };
  await Promise.all(Array.from({ length: inFlight }, () => worker(200))); // warm-up, script load
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: inFlight }, () => worker(Math.ceil(iterations / inFlight))));
  return round(Number(process.hrtime.bigint() - t0) / (Math.ceil(iterations / inFlight) * inFlight), 0);
}

// ---- 2. throughput on vs off ---------------------------------------------------------------------

const TOKEN = `bwk_${'b'.repeat(40)}`;
const PRINCIPAL: Principal = { kind: 'api_key', tenantId: 'bench', apiKeyId: 'bench-key', scopes: ['scan'], rateLimitPerMinute: 1_000_000_000 };

/** Stand-in for the real auth guard (whose cost is not the limiter's): bearer check, then principal. */
@Injectable()
class BenchAuthGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<Request>();
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return false;
    req.principal = PRINCIPAL;
    return true;
  }
}

@Controller('api/bench')
class BenchController {
  @Get('ping')
  ping() {
    return { ok: true };
  }
}

@Module({ controllers: [BenchController], providers: [{ provide: APP_GUARD, useClass: BenchAuthGuard }] })
class BenchAuthModule {}

/** The edge allowance raised so the load (all from 127.0.0.1) is counted but never blocked. */
const BENCH_POLICY: RateLimitPolicy = {
  ...RATE_LIMIT_POLICY,
  edge: { ...RATE_LIMIT_POLICY.edge, api: { ...RATE_LIMIT_POLICY.edge.api, limit: 1_000_000_000 } },
};

type Mode = 'off' | 'off-control' | 'memory' | 'redis';

async function startApp(mode: Exclude<Mode, 'off-control'>, redis: Redis | null, prefix: string): Promise<{ app: NestExpressApplication; url: string }> {
  const imports: DynamicModule['imports'] = [BenchAuthModule];
  if (mode !== 'off') {
    imports.push(ClockModule.forRoot({ clock: new SystemClock() }));
    imports.push(RateLimitModule.forRoot({ redis: mode === 'redis' ? redis : null, keyPrefix: prefix, edgeLimits: 'on', trustedProxies: [], policy: BENCH_POLICY }));
  }
  @Module({ imports })
  class BenchAppModule {}
  const app = await NestFactory.create<NestExpressApplication>(BenchAppModule, createHttpAdapter(), { logger: false, bodyParser: false });
  if (mode !== 'off') installRateLimiting(app);
  app.useBodyParser('json');
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}/api/bench/ping` };
}

interface LoadResult {
  rps: number;
  p99_ms: number;
  non2xx: number;
  /** Server CPU (this process: user + system) per request served, in µs. */
  cpu_us_per_req: number;
}

/** autocannon in a child process, so the load generator does not share this event loop. */
function load(url: string, seconds: number, connections: number): Promise<LoadResult> {
  const bin = join(__dirname, '..', 'node_modules', '.bin', 'autocannon');
  const cpu0 = process.cpuUsage();
  return new Promise((resolve, reject) => {
    execFile(bin, ['-j', '-c', String(connections), '-d', String(seconds), '-H', `Authorization=Bearer ${TOKEN}`, url], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
      if (err) return reject(err);
      const cpu = process.cpuUsage(cpu0);
      const r = JSON.parse(stdout) as { requests: { average: number; total: number }; latency: { p99: number }; non2xx: number };
      resolve({ rps: round(r.requests.average), p99_ms: r.latency.p99, non2xx: r.non2xx, cpu_us_per_req: round((cpu.user + cpu.system) / Math.max(1, r.requests.total)) });
    });
  });
}

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const LIMITER_CODE = /src\/rate-limit\/|src\/common\/clock\/|src\/auth\/principal|node_modules\/(ioredis|redis-parser|denque|standard-as-callback)\//;
const OTHER_CODE = /node_modules\/|bench\//;

/**
 * Share of the server's busy CPU spent in limiter code, from a V8 CPU profile of one load run.
 * Each sample is walked from the leaf up: the first frame of our limiter (or its Redis client)
 * claims it, the first frame of other code (Express, Nest, the handler) does not. Runtime frames
 * in between (Map, Promise, Date) go to whoever called them. A ratio inside one run, so it holds
 * up on a machine shared with other work far better than requests/s.
 */
async function limiterCpuShare(url: string, seconds: number, connections: number): Promise<{ share_pct: number; busy_ms: number }> {
  const session = new inspector.Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  await load(url, seconds, connections);
  const { profile } = await post<{ profile: CpuProfile }>('Profiler.stop');
  session.disconnect();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let busy = 0;
  let limiter = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    if (byId.get(id)!.callFrame.functionName === '(idle)') return;
    busy += dt;
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
      const u = byId.get(x)!.callFrame.url;
      if (LIMITER_CODE.test(u)) {
        limiter += dt;
        break;
      }
      if (OTHER_CODE.test(u)) break;
    }
  });
  return { share_pct: round((limiter / Math.max(1, busy)) * 100, 2), busy_ms: Math.round(busy / 1000) };
}

async function redisAvailable(url: string): Promise<Redis | null> {
  // The app's client options (auto-pipelining above all), so the Redis figures are what runs;
  // only the probe's connection is lazy and gives up at once when nothing answers.
  const redis = new Redis(url, { ...REDIS_CLIENT_OPTIONS, lazyConnect: true, connectTimeout: 1000, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch {
    redis.disconnect();
    return null;
  }
}

async function cleanup(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
}

async function main(report: PartReport): Promise<void> {
  const seconds = arg('seconds', 5);
  const rounds = arg('rounds', 6);
  const connections = arg('connections', 32);
  const iterations = arg('iterations', 1_000_000);
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis = await redisAvailable(redisUrl);
  const prefix = `bulwark-bench:${randomUUID()}:`;

  const perCheck: Record<string, unknown> = {
    memory_store_ns: { limit_60: await nsPerCheck('store', 60, iterations), limit_200000: await nsPerCheck('store', 200_000, iterations) },
    memory_sync_core_ns: { limit_60: await nsPerCheck('sync', 60, iterations), limit_200000: await nsPerCheck('sync', 200_000, iterations) },
    memory_limiter_decision_ns: { limit_60: await nsPerCheck('limiter', 60, iterations), limit_200000: await nsPerCheck('limiter', 200_000, iterations) },
    memory_request_path_ns: nsPerLimitedRequest(iterations),
    target_memory_ns: 2000,
  };
  if (redis) {
    perCheck.redis_ns = {
      sequential: { limit_60: await redisNsPerCheck(redis, prefix, 60, 1, 20_000), limit_200000: await redisNsPerCheck(redis, prefix, 200_000, 1, 20_000) },
      in_flight_64: { limit_60: await redisNsPerCheck(redis, prefix, 60, 64, 50_000), limit_200000: await redisNsPerCheck(redis, prefix, 200_000, 64, 50_000) },
    };
  }

  // 'off-control' is a second, identical limiter-off server: its "loss" against 'off' is this
  // machine's noise floor for the run (an A/A test), printed beside the real losses.
  const modes: Mode[] = redis ? ['off', 'off-control', 'memory', 'redis'] : ['off', 'off-control', 'memory'];
  const apps = await Promise.all(modes.map((m) => startApp(m === 'off-control' ? 'off' : m, redis, prefix)));
  const samples: Record<string, LoadResult[]> = Object.fromEntries(modes.map((m) => [m, []]));
  for (const app of apps) await load(app.url, 1, connections); // warm-up (JIT, Redis script load)
  for (let r = 0; r < rounds; r++) {
    // Rotate the order each round so no mode always runs first (or right after a heavier one).
    for (let k = 0; k < modes.length; k++) {
      const i = (k + r) % modes.length;
      samples[modes[i]!]!.push(await load(apps[i]!.url, seconds, connections));
    }
  }
  const profileShare: Record<string, unknown> = {};
  for (const [i, m] of modes.entries()) if (m === 'memory' || m === 'redis') profileShare[m] = await limiterCpuShare(apps[i]!.url, seconds, connections);
  for (const a of apps) await a.app.close();
  const rps = (m: string) => median(samples[m]!.map((s) => s.rps));
  // Loss per round against the same round's "off" sample, then the median over rounds: paired
  // ratios cancel the slow drifts of a machine shared with other work better than medians of rps.
  const lossPerRound = (m: string) => samples[m]!.map((s, r) => (1 - s.rps / samples.off![r]!.rps) * 100);
  const pairedLoss = (m: string) => round(median(lossPerRound(m)));
  // Server CPU per request is far less sensitive to other processes than wall-clock throughput;
  // for a CPU-bound server, throughput loss = 1 - cpu(off) / cpu(mode).
  const cpu = (m: string) => median(samples[m]!.map((s) => s.cpu_us_per_req));
  const cpuLoss = (m: string) => round((1 - cpu('off') / cpu(m)) * 100);
  const throughput: Record<string, unknown> = {
    endpoint: 'GET /api/bench/ping (bearer check → principal; limiter: edge + per-endpoint middleware + app-budget guard)',
    connections,
    seconds_per_sample: seconds,
    rounds,
    load_average_1m: round(loadavg()[0]!, 2),
    median_rps: Object.fromEntries(modes.map((m) => [m, rps(m)])),
    samples,
    median_server_cpu_us_per_req: Object.fromEntries(modes.map((m) => [m, cpu(m)])),
    limiter_share_of_server_cpu_from_profile: profileShare,
    noise_floor_pct: { paired: pairedLoss('off-control'), from_cpu: cpuLoss('off-control'), per_round: lossPerRound('off-control').map((x) => round(x)) },
    loss_memory_pct: pairedLoss('memory'),
    loss_memory_pct_from_cpu: cpuLoss('memory'),
    target_loss_memory_pct: 5,
  };
  if (redis) {
    throughput.loss_redis_pct = pairedLoss('redis');
    throughput.loss_redis_pct_from_cpu = cpuLoss('redis');
    throughput.target_loss_redis_pct = 15;
  }
  if (redis) {
    await cleanup(redis, prefix);
    redis.disconnect();
  }

  Object.assign(report.details, { redis: redis ? redisUrl : null, per_check: perCheck, throughput });
  const ns = perCheck.memory_store_ns as { limit_60: number; limit_200000: number };
  report.add(figure('rate_limit.memory.ns_limit_60', 'rate limiter memory store, per check at limit 60', ns.limit_60, 'ns', atMost(2000)));
  report.add(figure('rate_limit.memory.ns_limit_200000', 'rate limiter memory store, per check at limit 200,000', ns.limit_200000, 'ns', atMost(2000)));
  if (perCheck.redis_ns) {
    const r = perCheck.redis_ns as { sequential: { limit_60: number }; in_flight_64: { limit_60: number } };
    report.add(figure('rate_limit.redis.us_in_flight_64', 'rate limiter Redis store, per check with 64 in flight', round(r.in_flight_64.limit_60 / 1000), 'µs', undefined, `sequential ${round(r.sequential.limit_60 / 1000)} µs (one round trip)`));
  }
  const path = perCheck.memory_request_path_ns as { limiter: number };
  const offCpuNs = (throughput.median_server_cpu_us_per_req as Record<string, number>).off! * 1000;
  report.add(
    figure('rate_limit.memory.ns_per_request', "limiter's own code per request, memory store (middleware + guard, in process)", path.limiter, 'ns', undefined,
      `${round((path.limiter / offCpuNs) * 100, 2)}% of the server CPU per request with the limiter off (${round(offCpuNs / 1000)} µs)`),
  );
  const share = (m: string) => (profileShare[m] as { share_pct: number } | undefined)?.share_pct;
  const noise = throughput.noise_floor_pct as { paired: number; from_cpu: number; per_round: number[] };
  report.add(
    figure('rate_limit.noise_floor_pct', `A/A control: a second limiter-off server vs the first (paired req/s, ${connections} conn)`, noise.paired, '%', undefined,
      `from server CPU/req ${noise.from_cpu}%; per round ${noise.per_round.join(', ')}: a loss within this spread is not resolved by this run`),
  );
  report.add(figure('rate_limit.memory.loss_pct', `throughput loss, limiter on (memory) vs off (paired req/s, ${connections} conn)`, throughput.loss_memory_pct as number, '%', atMost(5), `from server CPU/req ${throughput.loss_memory_pct_from_cpu as number}%; limiter share of server CPU in a V8 profile ${share('memory')}%`));
  if (redis) {
    report.add(figure('rate_limit.redis.loss_pct', `throughput loss, limiter on (Redis) vs off (paired req/s, ${connections} conn)`, throughput.loss_redis_pct as number, '%', atMost(15), `from server CPU/req ${throughput.loss_redis_pct_from_cpu as number}%; limiter share of server CPU in a V8 profile ${share('redis')}%`));
  } else {
    report.skip('rate_limit.redis.loss_pct', 'throughput loss, limiter on (Redis) vs off', '%', 'skipped (no Redis)', atMost(15));
  }
}

runPart('rate-limit', main);

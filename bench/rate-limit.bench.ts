/**
 * Rate limiter cost (docs/decisions/0023-rate-limiting-model.md; targets in docs/performance.md):
 *  1. ns per check: memory store at limits 60 and 200,000 (target ≤ 2 µs both), through the store
 *     interface (`await store.evaluate`), plus the raw synchronous core and the full RateLimiter
 *     decision; the limiter's whole code per request (middleware + guard, in process); Redis per
 *     check, sequential (one round trip each) and with 64 in flight.
 *  2. Throughput of a trivial authenticated endpoint with the limiter off vs on (memory, Redis),
 *     judged (targets: loss ≤ 5% memory, ≤ 15% Redis) on the whole service (`service`: the app
 *     with PGlite and its own trivial authenticated endpoint, GET /api/internal/application/features:
 *     API-key auth, request logging, every middleware, no database read; limiter off = pass-throughs
 *     in its place), the endpoint a user of the service meets. Each mode runs in its own server
 *     process, loaded by autocannon in its own process. Each mode has its own limiter-off partner,
 *     and each sample loads the two AT THE SAME TIME, the servers pinned to one CPU and the load
 *     generators to the other (see pairedSample), so both see the same machine; rounds rotate the
 *     modes, and the samples come from several generations of fresh processes (see
 *     throughputOnVsOff). Reported three ways: paired requests/s loss, loss from server CPU per
 *     request, and the limiter's share of server CPU in a V8 profile. A limiter-off server is
 *     paired the same way as an A/A control: its "loss" is the run's noise floor, printed beside
 *     the real losses.
 *     The same pairs first run on a bare probe (`probe`, bench/support/limiter-probe-app.ts: a
 *     minimal Nest app, a string-compare stand-in for auth → [edge + per-endpoint middleware →
 *     rate-limit guard] → handler), where the limiter's share shows at its largest: diagnostics,
 *     untargeted, with two yardsticks beside them: a `headers-only` server (no limiter, the contract's
 *     three X-RateLimit-* headers set per request: the part of the loss the contract itself costs)
 *     and a `minimal` one (an edge and an app-budget counter in plain Maps plus the headers, no
 *     route rules: the floor under any limiter with these layers, a yardstick for ours).
 *
 *   npx ts-node --transpile-only bench/rate-limit.bench.ts [--seconds 5] [--processes 3] [--rounds 2] [--warmup 20] [--connections 32]
 *
 * REDIS_URL (default redis://127.0.0.1:6379) is used when it answers; Redis parts are skipped
 * otherwise. Writes bench/results/rate-limit.json (bench/support/bench-result.ts shape); bench/run.ts runs it.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { Request } from 'express';
import Redis from 'ioredis';
import { SystemClock } from '../src/common/clock/system-clock';
import { REDIS_CLIENT_OPTIONS } from '../src/database/redis.module';
import { TrustedProxies } from '../src/rate-limit/client-address';
import { RateLimitGuard } from '../src/rate-limit/rate-limit.guard';
import { RateLimitMiddleware } from '../src/rate-limit/rate-limit.middleware';
import { RATE_LIMIT_POLICY } from '../src/rate-limit/rate-limit.policy';
import { RateLimiter } from '../src/rate-limit/rate-limiter';
import { EdgeCounter } from '../src/rate-limit/store/edge-counter';
import { MemoryRateLimitStore } from '../src/rate-limit/store/memory-rate-limit.store';
import type { BucketCheck, RateLimitStore } from '../src/rate-limit/store/rate-limit-store';
import { RedisRateLimitStore } from '../src/rate-limit/store/redis-rate-limit.store';
import { atMost, figure, runPart, type PartReport } from './support/bench-result';
import { CAN_PIN_CPUS, pinProcess } from './support/cpu-pinning';
import type { CpuShare } from './support/cpu-profile-share';
import { LIMITER_CODE, OTHER_CODE, PROBE_PATH, PROBE_POLICY, PROBE_PRINCIPAL, PROBE_TOKEN, type LimiterMode } from './support/limiter-probe-app';
import { YARDSTICK_CODE } from './support/limiter-yardsticks';
import { SERVICE_PATH } from './support/service-limiter';
import { assertClean, runLoad, type LoadOptions } from './support/load';
import type { ServerSpec } from './support/bench-server';
import { startServer, type RunningServer, type ServerEnv } from './support/server-process';
import { arg, median, round } from './support/stats';

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
    else
      for (let i = 0; i < n; i++) {
        now += 0.001;
        await limiter.evaluate(limiterChecks[i % KEYS]!);
      }
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
  const limiter = new RateLimiter(new MemoryRateLimitStore(), clock, { policy: PROBE_POLICY });
  const trusted = new TrustedProxies([]);
  const edge = new EdgeCounter(null, clock);
  const middleware = new RateLimitMiddleware(limiter, edge, trusted, { redis: null, edgeLimits: 'on', trustedProxies: [], policy: PROBE_POLICY });
  const guard = new RateLimitGuard(new Reflector(), limiter, trusted, edge);
  const socket = { remoteAddress: '127.0.0.1' };
  const setHeader = () => undefined;
  const next = () => undefined;
  // The request, the response (with Express's per-request `locals`, where the middleware leaves its
  // state for the guard) and the execution context are built either way, so the difference is the limiter.
  let admitted = 0;
  const one = (limited: boolean) => {
    const req = { method: 'GET', url: PROBE_PATH, originalUrl: PROBE_PATH, headers: {}, params: {}, socket } as unknown as Request;
    const res = { setHeader, locals: Object.create(null) as object };
    if (limited) middleware.handle(req as never, res as never, next);
    req.principal = PROBE_PRINCIPAL;
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

/** The servers share this CPU; the load generators run on the other. */
const SERVER_CPU = '0';
const LOAD_CPU = '1';

type Mode = LimiterMode | 'off-control';

interface PairedSample {
  /** Requests/s of the limiter-off server and of the other, loaded at the same time. */
  off_rps: number;
  rps: number;
  /** Server CPU (user + system) per request served, in µs. */
  off_cpu_us_per_req: number;
  cpu_us_per_req: number;
}

/**
 * What a throughput section loads. `service`: the whole Bulwark app (createTestApp, PGlite) and its
 * own trivial authenticated endpoint, GET /api/internal/application/features (API-key auth, no
 * database read), with its limiter or pass-throughs in its place (bench-server.ts,
 * ServerSpec.limiter): the targets are judged there. `probe`: the bare endpoint of
 * limiter-probe-app.ts (about half the service's CPU per request and no real auth, so the
 * limiter's share shows at its largest), with the yardsticks: diagnostics.
 */
interface Subject {
  name: 'probe' | 'service';
  /** Whether the loss targets are judged on this subject (the service's endpoint) or it is a diagnostic. */
  targeted: boolean;
  endpoint: string;
  modes: Mode[];
  profiled: ProfiledMode[];
  /** Callers' code in a profile of this server: the walk up from a sample stops there (see cpuShareOf). */
  otherCode: RegExp;
  /** Starts a server with the limiter `limiter` for the pair of mode `pair` (its partner is `off`). */
  start(limiter: LimiterMode, pair: Mode): Promise<RunningServer>;
  load(server: RunningServer, connections: number, duration: number): LoadOptions;
}

function probeSubject(redisUrl: string | null, prefix: string): Subject {
  return {
    name: 'probe',
    targeted: false,
    endpoint: `GET ${PROBE_PATH} (bearer check → principal; limiter: edge + per-endpoint middleware + app-budget guard)`,
    // 'off-control' is a limiter-off server like its partner: its "loss" is this machine's noise
    // floor for the run (an A/A test), printed beside the real losses. 'headers-only' sends
    // the contract's three X-RateLimit-* headers without a limiter: the part of the loss that comes with
    // the contract rather than with this implementation; 'minimal' what the least limiter with the
    // same layers costs on this machine.
    modes: ['off-control', 'headers-only', 'minimal', 'memory', ...(redisUrl ? (['redis'] as const) : [])],
    profiled: ['headers-only', 'minimal', 'memory', ...(redisUrl ? (['redis'] as const) : [])],
    otherCode: OTHER_CODE,
    start: (limiter) =>
      pinnedServer({ kind: 'limiter-probe', limiter, keyPrefix: prefix }, limiter === 'redis' && redisUrl ? { REDIS_URL: redisUrl } : undefined),
    load: (server, connections, duration) => ({
      url: `${server.url}${PROBE_PATH}`,
      connections,
      duration,
      headers: { authorization: `Bearer ${PROBE_TOKEN}` },
    }),
  };
}

function serviceSubject(redisUrl: string | null): Subject {
  return {
    name: 'service',
    targeted: true,
    endpoint: `GET ${SERVICE_PATH} on the whole app (PGlite; API-key auth, logging, every middleware), limiter off = pass-throughs`,
    modes: ['off-control', 'memory', ...(redisUrl ? (['redis'] as const) : [])],
    profiled: ['memory', ...(redisUrl ? (['redis'] as const) : [])],
    // The app's other code (auth, logging, the handler) runs inside the limiter middleware's next().
    otherCode: /node_modules\/|bench\/|\/src\//,
    // Both servers of the Redis pair get REDIS_URL, so only the limiter differs between them.
    // serviceLimiter refuses the probe's yardsticks.
    start: (limiter, pair) => pinnedServer({ kind: 'app', limiter }, pair === 'redis' && redisUrl ? { REDIS_URL: redisUrl } : undefined),
    load: (server, connections, duration) => ({
      url: `${server.url}${SERVICE_PATH}`,
      connections,
      duration,
      headers: { authorization: `Bearer ${server.token}` },
    }),
  };
}

async function pinnedServer(spec: ServerSpec, env: ServerEnv | undefined): Promise<RunningServer> {
  const server = await startServer(spec, env);
  if (CAN_PIN_CPUS) await pinProcess(server.pid, SERVER_CPU);
  return server;
}

const cpuMs = (s: { cpu_user_ms: number; cpu_system_ms: number }): number => s.cpu_user_ms + s.cpu_system_ms;

/**
 * One paired sample: a limiter-off server and another loaded at the same time, both servers
 * pinned to one CPU (the load generators to the other). The scheduler gives each half the core, so
 * each serves in proportion to 1 / its CPU per request, and whatever else slows the machine in that
 * window slows both alike. Sequential samples on this shared 2-core VM drifted ±10 % between
 * neighbouring 5 s windows (the A/A control showed it); simultaneous ones mostly agree within ±3 %.
 */
async function pairedSample(subject: Subject, off: RunningServer, other: RunningServer, connections: number, seconds: number): Promise<PairedSample> {
  const before = await Promise.all([off.stats(), other.stats()]);
  const [a, b] = await Promise.all([runLoad(subject.load(off, connections, seconds), LOAD_CPU), runLoad(subject.load(other, connections, seconds), LOAD_CPU)]);
  const after = await Promise.all([off.stats(), other.stats()]);
  assertClean('limiter off', a);
  assertClean('limiter probe', b);
  return {
    off_rps: round(a.rps),
    rps: round(b.rps),
    off_cpu_us_per_req: round(((cpuMs(after[0]) - cpuMs(before[0])) * 1000) / a.total),
    cpu_us_per_req: round(((cpuMs(after[1]) - cpuMs(before[1])) * 1000) / b.total),
  };
}

type ProfiledMode = 'headers-only' | 'minimal' | 'memory' | 'redis';

/**
 * The share of the server's busy CPU in a V8 profile of one load run (the server loaded alone)
 * spent in the limiter's code, or the yardstick's in its place, with the Node internals they call
 * (the headers' `setHeader` above all). A ratio inside one process: steadier than requests/s, so it
 * compares our limiter with the minimal one more finely than the paired losses can.
 */
async function limiterCpuShare(subject: Subject, mode: ProfiledMode, server: RunningServer, connections: number, seconds: number): Promise<CpuShare> {
  await server.startProfile();
  assertClean('profiled run', await runLoad(subject.load(server, connections, seconds), LOAD_CPU));
  return server.stopProfile(mode === 'memory' || mode === 'redis' ? LIMITER_CODE : YARDSTICK_CODE, subject.otherCode);
}

/** A mode against its limiter-off partner: medians over samples of the paired figures, and the samples (generation by generation). */
interface Loss {
  /** From requests/s. */
  pct: number;
  /** From server CPU per request (1 - off / this). */
  from_cpu_pct: number;
  per_round: number[];
}

interface ThroughputResult {
  subject: Subject['name'];
  endpoint: string;
  method: string;
  cpu_pinning: string;
  connections: number;
  seconds_per_sample: number;
  warmup_s: number;
  processes: number;
  rounds: number;
  load_average_1m: number;
  samples: Partial<Record<Mode, PairedSample[]>>;
  median_server_cpu_us_per_req: Partial<Record<Mode, number>>;
  limiter_share_of_server_cpu_from_profile: Partial<Record<ProfiledMode, CpuShare>>;
  /**
   * Each mode against its limiter-off partner. `off-control` is the A/A control (a limiter-off
   * server against its identical partner); `headers-only` the contract's three headers alone, no
   * limiter; `minimal` the floor: edge and app-budget counters in plain Maps plus the headers
   * (limiter-yardsticks.ts); `memory` and `redis` the limiter.
   */
  loss: Partial<Record<Mode, Loss>>;
  /** Null on the probe: its losses are diagnostics (see Subject.targeted). */
  targets_pct: { memory: number; redis: number } | null;
}

interface ThroughputOptions {
  seconds: number;
  /** Samples per mode from each generation of processes. */
  rounds: number;
  /** Generations of fresh server processes. */
  processes: number;
  warmup: number;
  connections: number;
}

/** Section 2: the subject's modes, each paired with its own limiter-off server, in fresh processes `processes` times. */
async function throughputOnVsOff(subject: Subject, { seconds, rounds, processes, warmup, connections }: ThroughputOptions): Promise<ThroughputResult> {
  const compared = subject.modes;
  const samples = Object.fromEntries(compared.map((m) => [m, [] as PairedSample[]])) as Record<Mode, PairedSample[]>;
  const profileShare: ThroughputResult['limiter_share_of_server_cpu_from_profile'] = {};
  // Each process starts with its own offset: identical limiter-off servers differed by up to ±6 %
  // over a whole run, steady across its rounds (docs/performance.md, "Rate limiter cost"). A run's samples
  // therefore come from `processes` generations of servers, so a generation's offsets are spread
  // that the median absorbs instead of a bias that it keeps.
  for (let generation = 0; generation < processes; generation++) {
    // Every mode has its own limiter-off partner, started, warmed, loaded and left idle together
    // with it, so the two servers of a pair share one history.
    const started: RunningServer[] = [];
    try {
      const pairs = new Map<Mode, { off: RunningServer; other: RunningServer }>();
      await Promise.all(
        compared.map(async (m) => {
          // The A/A control's "other" is a limiter-off server like its partner.
          const [off, other] = await Promise.all([subject.start('off', m), subject.start(m === 'off-control' ? 'off' : m, m)]);
          started.push(off, other);
          pairs.set(m, { off, other });
        }),
      );
      const pair = (m: Mode) => pairs.get(m)!;
      // Warm-up, all at once (JIT tiers up over thousands of requests; Redis script load).
      await Promise.all(started.map((s) => runLoad(subject.load(s, connections, warmup), LOAD_CPU)));
      for (let r = 0; r < rounds; r++) {
        // Rotate the order each round so no mode always runs first.
        const turn = generation * rounds + r;
        for (let k = 0; k < compared.length; k++) {
          const m = compared[(k + turn) % compared.length]!;
          samples[m].push(await pairedSample(subject, pair(m).off, pair(m).other, connections, seconds));
        }
      }
      if (generation === processes - 1) {
        for (const m of subject.profiled) profileShare[m] = await limiterCpuShare(subject, m, pair(m).other, connections, seconds);
      }
    } finally {
      await Promise.all(started.map((s) => s.close()));
    }
  }

  // Per sample against the mode's limiter-off partner, loaded at the same time; then the median over samples.
  const loss = (m: Mode): Loss => {
    const perRound = samples[m].map((s) => (1 - s.rps / s.off_rps) * 100);
    return {
      pct: round(median(perRound)),
      from_cpu_pct: round(median(samples[m].map((s) => (1 - s.off_cpu_us_per_req / s.cpu_us_per_req) * 100))),
      per_round: perRound.map((x) => round(x)),
    };
  };
  // Every pair has a limiter-off server.
  const offCpu = round(median(compared.flatMap((m) => samples[m].map((s) => s.off_cpu_us_per_req))));
  return {
    subject: subject.name,
    endpoint: subject.endpoint,
    method: `paired: each mode and its own limiter-off partner (same history) loaded at the same time, each in its own process; ${processes} generations of fresh processes × ${rounds} rounds`,
    cpu_pinning: CAN_PIN_CPUS
      ? `servers on CPU ${SERVER_CPU}, load generators on CPU ${LOAD_CPU}`
      : 'none (taskset unavailable or one CPU): the throughput ratios are unreliable, the CPU ones still hold',
    connections,
    seconds_per_sample: seconds,
    warmup_s: warmup,
    processes,
    rounds,
    load_average_1m: round(loadavg()[0]!, 2),
    samples,
    median_server_cpu_us_per_req: Object.fromEntries([['off', offCpu], ...compared.map((m) => [m, round(median(samples[m].map((s) => s.cpu_us_per_req)))])]),
    limiter_share_of_server_cpu_from_profile: profileShare,
    loss: Object.fromEntries(compared.map((m) => [m, loss(m)])),
    targets_pct: subject.targeted ? { memory: 5, redis: 15 } : null,
  };
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
  const rounds = arg('rounds', 2);
  const processes = arg('processes', 3);
  const connections = arg('connections', 32);
  const iterations = arg('iterations', 1_000_000);
  const warmup = arg('warmup', 20);
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

  const probe = await throughputOnVsOff(probeSubject(redis ? redisUrl : null, prefix), { seconds, rounds, processes, warmup, connections });
  const service = await throughputOnVsOff(serviceSubject(redis ? redisUrl : null), { seconds, rounds, processes, warmup, connections });
  if (redis) {
    await cleanup(redis, prefix);
    redis.disconnect();
  }

  Object.assign(report.details, { redis: redis ? redisUrl : null, per_check: perCheck, service_throughput: service, probe_throughput: probe });
  const ns = perCheck.memory_store_ns as { limit_60: number; limit_200000: number };
  report.add(figure('rate_limit.memory.ns_limit_60', 'rate limiter memory store, per check at limit 60', ns.limit_60, 'ns', atMost(2000)));
  report.add(figure('rate_limit.memory.ns_limit_200000', 'rate limiter memory store, per check at limit 200,000', ns.limit_200000, 'ns', atMost(2000)));
  if (perCheck.redis_ns) {
    const r = perCheck.redis_ns as { sequential: { limit_60: number }; in_flight_64: { limit_60: number } };
    report.add(
      figure(
        'rate_limit.redis.us_in_flight_64',
        'rate limiter Redis store, per check with 64 in flight',
        round(r.in_flight_64.limit_60 / 1000),
        'µs',
        undefined,
        `sequential ${round(r.sequential.limit_60 / 1000)} µs (one round trip)`,
      ),
    );
  }
  const path = perCheck.memory_request_path_ns as { limiter: number };
  const probeOffCpuNs = probe.median_server_cpu_us_per_req.off! * 1000;
  const serviceOffCpuNs = service.median_server_cpu_us_per_req.off! * 1000;
  const shareOf = (offCpuNs: number) => `${round((path.limiter / offCpuNs) * 100, 2)}% (${round(offCpuNs / 1000)} µs)`;
  report.add(
    figure(
      'rate_limit.memory.ns_per_request',
      "limiter's own code per request, memory store (middleware + guard, in process)",
      path.limiter,
      'ns',
      undefined,
      `of the server CPU per request with the limiter off: service ${shareOf(serviceOffCpuNs)}, probe ${shareOf(probeOffCpuNs)}`,
    ),
  );
  for (const t of [service, probe]) addLossFigures(report, t, connections);
}

/** The subject's losses as report figures: the A/A control and the yardsticks untargeted, the limiter against its targets (the service's). */
function addLossFigures(report: PartReport, t: ThroughputResult, connections: number): void {
  // The targeted figures have the plain ids; the probe's diagnostics are prefixed.
  const id = (name: string) => `rate_limit.${t.subject === 'probe' ? 'probe.' : ''}${name}`;
  const on = t.subject === 'service' ? ` on the service (${SERVICE_PATH})` : ' on the bare probe (diagnostic)';
  const vs = `(simultaneous req/s, ${connections} conn each)`;
  const profiled = (m: ProfiledMode) => `share of server CPU in a V8 profile ${t.limiter_share_of_server_cpu_from_profile[m]?.share_pct}%`;
  const detail = (l: Loss) => `from server CPU/req ${l.from_cpu_pct}%; per round ${l.per_round.join(', ')}`;
  const noise = t.loss['off-control']!;
  report.add(
    figure(
      id('noise_floor_pct'),
      `A/A control${on}: a limiter-off server vs its limiter-off partner ${vs}`,
      noise.pct,
      '%',
      undefined,
      `${detail(noise)}: a loss within this spread is not resolved by this run`,
    ),
  );
  const headers = t.loss['headers-only'];
  if (headers) {
    report.add(
      figure(
        id('headers_only.loss_pct'),
        `the three X-RateLimit-* headers alone, no limiter, vs off ${vs}`,
        headers.pct,
        '%',
        undefined,
        `${detail(headers)}; ${profiled('headers-only')}: SPEC.md requires them on every evaluated request, so this part of the loss is the contract's`,
      ),
    );
  }
  const minimal = t.loss.minimal;
  if (minimal) {
    report.add(
      figure(
        id('minimal_limiter.loss_pct'),
        `a minimal limiter (edge + app-budget counters in Maps, the three headers, no route rules) vs off ${vs}`,
        minimal.pct,
        '%',
        undefined,
        `${detail(minimal)}; ${profiled('minimal')}: the floor under any limiter with these layers; the memory limiter's loss above it is this implementation's`,
      ),
    );
  }
  for (const [m, label] of [
    ['memory', 'memory'],
    ['redis', 'Redis'],
  ] as const) {
    const l = t.loss[m];
    const name = `throughput loss${on}, limiter on (${label}) vs off`;
    const target = t.targets_pct === null ? undefined : atMost(t.targets_pct[m]);
    if (l) report.add(figure(id(`${m}.loss_pct`), `${name} ${vs}`, l.pct, '%', target, `${detail(l)}; limiter ${profiled(m)}`));
    else report.skip(id(`${m}.loss_pct`), name, '%', 'skipped (no Redis)', target);
  }
}

runPart('rate-limit', main);

/**
 * The benchmark runner (docs/performance.md): `npm run bench` runs every part, `npm run bench -- <part…>` some.
 * Each part runs in its own process (ts-node, transpile only) and writes bench/results/<part>.json
 * in the shape of bench/support/bench-result.ts; its output goes to bench/results/<part>.log. The
 * runner prints one table (every figure, its target, pass/MISS) and writes bench/results/latest.json
 * (and latest.md, the same table in Markdown for docs/performance.md).
 *
 * With DATABASE_URL=postgres://… the runner creates one scratch database beside it for the whole
 * run (dropped at the end) and hands it to the parts; without it the PostgreSQL figures say
 * "skipped (no PostgreSQL)". REDIS_URL (e.g. redis://127.0.0.1:6379) enables the Redis figures.
 *
 *   npm run bench                       # everything (9-18 minutes on 2 cores, by how busy the VM is)
 *   npm run bench -- api peers          # some parts
 *   npm run bench -- throughput         # the scanner's throughput figures (PART_GROUPS)
 *   npm run bench -- --list             # the parts and what they measure
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../src/config/node-runtime';
import { RESULTS_DIR, resultFileOf, writePartResult, type PartResult } from './support/bench-result';
import { formatMarkdown, formatText, rowsOf, tally } from './support/report-table';
import { createScratchDatabase, postgresUrl, redisAnswers, type ScratchDatabase } from './support/scratch-db';

export interface PartSpec {
  name: string;
  file: string;
  args?: string[];
  what: string;
  /** Hard limit: the part is killed (and reported failed) past it. */
  timeoutS: number;
}

/** Order: cheap and self-contained first, so a late failure still leaves most of the table. */
export const PARTS: readonly PartSpec[] = [
  {
    name: 'scanner-static',
    file: 'scanner-static.bench.ts',
    what: 'static engine MB/s over both corpora (CPU, one core), p50/p99 per sample, peak RSS',
    timeoutS: 300,
  },
  {
    name: 'scanner-worst-case',
    file: 'scanner-worst-case.bench.ts',
    what: 'whole-scan CPU of every 250 KB worst-case input (generated and corpus-derived), growth 32→128 KB of every stage',
    timeoutS: 900,
  },
  {
    name: 'rate-limit',
    file: 'rate-limit.bench.ts',
    args: ['--seconds', '3', '--processes', '2', '--rounds', '2', '--warmup', '15'],
    what: 'ns per check (memory, Redis); throughput loss limiter on vs off (paired, simultaneous, 2 generations of processes), judged on the whole service, with the bare probe and its yardsticks as diagnostics',
    timeoutS: 720,
  },
  {
    name: 'sbom',
    file: 'sbom.bench.ts',
    args: ['--rounds', '2'],
    what: 'SBOM of 50 services / 10,000 packages: generation, validation, endpoint',
    timeoutS: 300,
  },
  {
    name: 'api',
    file: 'api.bench.ts',
    args: ['--seconds', '3', '--rounds', '3'],
    what: 'hello-world ceiling vs GET by id, list page, Redis store; PostgreSQL and PGlite',
    timeoutS: 420,
  },
  {
    name: 'scan-endpoint',
    file: 'scan-endpoint.bench.ts',
    what: 'POST /api/agent_files/scan p50/p99 (3×250 KB zip), req/s at 32 concurrent uploads, peak RSS',
    timeoutS: 240,
  },
  { name: 'peers', file: 'peers.bench.ts', what: 'ferret-scan, ecc-agentshield, agent-threat-rules vs bulwark scan --local over the corpus', timeoutS: 420 },
  { name: 'import', file: 'import.bench.ts', what: 'demo fixture and 100,000-resource import time and peak RSS', timeoutS: 300 },
  {
    name: 'inventory',
    file: 'inventory.bench.ts',
    args: ['--requests', '100', '--no-demo'],
    what: 'list/get latency over 10,000 applications (sequential), derived-field ordering',
    timeoutS: 240,
  },
  { name: 'mcp', file: 'mcp.bench.ts', args: ['--requests', '150'], what: 'MCP vs REST latency for the same read, tools/list, initialize', timeoutS: 180 },
  {
    name: 'memory',
    file: 'memory.bench.ts',
    what: 'RSS of `node dist/main.js` idle and under load (200 scans + inventory calls): PGlite (fresh folder, restart) and PostgreSQL (+ Redis)',
    timeoutS: 900,
  },
  {
    name: 'scale-out',
    file: 'scale-out.bench.ts',
    args: ['--seconds', '4', '--rounds', '2'],
    what: 'req/s through nginx with one and two replicas (PostgreSQL + Redis)',
    timeoutS: 240,
  },
];

/**
 * Names that stand for several parts. `throughput`: every figure of the scanner's throughput
 * targets in one run (MB/s and p50/p99 per sample over both corpora, the 250 KB worst case, the
 * endpoint's zip latency and concurrent scans/s, the peers' time per sample on the same samples).
 */
export const PART_GROUPS: Readonly<Record<string, readonly string[]>> = {
  throughput: ['scanner-static', 'scanner-worst-case', 'scan-endpoint', 'peers'],
};

export function selectParts(argv: readonly string[], parts: readonly PartSpec[] = PARTS): PartSpec[] {
  const names = argv.filter((a) => !a.startsWith('--')).flatMap((n) => PART_GROUPS[n] ?? [n]);
  if (names.length === 0) return [...parts];
  const unknown = names.filter((n) => !parts.some((p) => p.name === n));
  if (unknown.length)
    throw new Error(`unknown part(s): ${unknown.join(', ')}; known: ${parts.map((p) => p.name).join(', ')}, or ${Object.keys(PART_GROUPS).join(', ')}`);
  return parts.filter((p) => names.includes(p.name));
}

function failedResult(part: PartSpec, reason: string, durationS: number): PartResult {
  return {
    bench: part.name,
    status: 'failed',
    reason,
    when: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    load_average_1m: { start: NaN, end: Math.round(loadavg()[0]! * 100) / 100 },
    duration_s: durationS,
    figures: [],
    details: {},
  };
}

function runOne(part: PartSpec, env: NodeJS.ProcessEnv): Promise<PartResult> {
  const started = Date.now();
  const logPath = join(RESULTS_DIR, `${part.name}.log`);
  const log = createWriteStream(logPath);
  // Parts measure the engine and the server as they are deployed: with the service's V8 options.
  const child = spawn(
    process.execPath,
    [...SERVICE_NODE_FLAGS, '--require', 'ts-node/register/transpile-only', join(__dirname, part.file), ...(part.args ?? [])],
    {
      cwd: join(__dirname, '..'),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // own process group: a timeout kills the part's servers and load clients too
    },
  );
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }, part.timeoutS * 1000);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearTimeout(timer);
      // Anything the part left behind in its group (a server that ignored `close`) goes with it.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* none left */
      }
      log.end();
      const durationS = Math.round((Date.now() - started) / 100) / 10;
      const file = resultFileOf(part.name);
      const fresh = existsSync(file) && statSync(file).mtimeMs >= started;
      if (timedOut)
        return resolve(
          withFigures(failedResult(part, `timed out after ${part.timeoutS} s (see ${relative(process.cwd(), logPath)})`, durationS), fresh ? file : null),
        );
      if (!fresh) return resolve(failedResult(part, `exit ${code} without a result (see ${relative(process.cwd(), logPath)})`, durationS));
      resolve(JSON.parse(readFileSync(file, 'utf8')) as PartResult);
    });
  });
}

/** A part killed on timeout may still have written partial figures: keep them. */
function withFigures(r: PartResult, file: string | null): PartResult {
  if (!file) return r;
  const partial = JSON.parse(readFileSync(file, 'utf8')) as PartResult;
  return { ...r, figures: partial.figures, details: partial.details };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--list')) {
    for (const p of PARTS) process.stdout.write(`${p.name.padEnd(16)} ${p.what}\n`);
    for (const [group, names] of Object.entries(PART_GROUPS)) process.stdout.write(`${group.padEnd(16)} the parts ${names.join(', ')}\n`);
    return;
  }
  const parts = selectParts(argv);
  const started = Date.now();
  const load0 = loadavg()[0]!;
  const env: NodeJS.ProcessEnv = { ...process.env };
  const pg = postgresUrl();
  const redis = await redisAnswers(process.env.REDIS_URL);
  if (!redis) delete env.REDIS_URL;
  let scratch: ScratchDatabase | null = null;
  if (pg) {
    scratch = await createScratchDatabase(pg, 'bulwark_bench');
    env.DATABASE_URL = scratch.url;
  } else {
    delete env.DATABASE_URL;
  }
  process.stdout.write(
    `bench: ${parts.map((p) => p.name).join(', ')}\n` +
      `  PostgreSQL: ${pg ? 'scratch database for this run' : 'skipped (no PostgreSQL: set DATABASE_URL=postgres://…)'}; Redis: ${redis ? 'yes' : 'skipped (no REDIS_URL answering)'}\n` +
      `  ${cpus().length} CPUs, load average ${load0.toFixed(1)}: figures of a shared machine are noisy; ratios are measured in the same run.\n`,
  );
  // bench/results holds only ignored outputs, so a fresh clone has no such folder.
  mkdirSync(RESULTS_DIR, { recursive: true });
  const results: PartResult[] = [];
  try {
    for (const part of parts) {
      process.stdout.write(`- ${part.name} … `);
      const r = await runOne(part, env);
      if (r.status === 'failed') writePartResult(r);
      results.push(r);
      const t = tally(rowsOf([r]));
      process.stdout.write(`${r.status} in ${r.duration_s} s (${t.pass} pass, ${t.miss} miss, ${t.skipped} skipped)\n`);
    }
  } finally {
    await scratch?.drop().catch(() => undefined);
  }
  const rows = rowsOf(results);
  const t = tally(rows);
  const durationS = Math.round((Date.now() - started) / 1000);
  const command = `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`;
  const summary = `${t.pass} pass, ${t.miss} miss, ${t.skipped} skipped, ${t.failed} failed; ${Math.floor(durationS / 60)} min ${durationS % 60} s; load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`;
  process.stdout.write(`\n${formatText(rows)}\n\n${summary}\n`);
  const latest = {
    when: new Date().toISOString(),
    command,
    node: process.version,
    cpus: cpus().length,
    postgresql: Boolean(pg),
    redis,
    duration_s: durationS,
    load_average_1m: { start: load0, end: loadavg()[0] },
    summary: t,
    parts: Object.fromEntries(results.map((r) => [r.bench, r])),
  };
  writeFileSync(join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(latest, null, 2)}\n`);
  writeFileSync(
    join(RESULTS_DIR, 'latest.md'),
    `Command: \`${command}\` — ${latest.when}, Node ${process.version}, ${cpus().length} CPUs.\n\n${formatMarkdown(rows)}\n\n${summary}\n`,
  );
  process.stdout.write(`wrote ${relative(process.cwd(), join(RESULTS_DIR, 'latest.json'))} and latest.md\n`);
  if (t.failed > 0) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}

/**
 * Starts bench/support/bench-server.ts in a child process (TypeScript through ts-node, transpile
 * only, like the parts themselves) and waits for its `ready` message.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { ParentMessage, ServerMessage, ServerSpec } from './bench-server';
import type { CpuShare } from './cpu-profile-share';

export interface ServerEnv {
  /** postgres://… or pglite://memory (app servers). */
  DATABASE_URL?: string;
  /** Unset = in-process rate-limit counters. */
  REDIS_URL?: string;
}

export interface RunningServer {
  port: number;
  url: string;
  token?: string;
  tenantId?: string;
  ids: number[];
  seedMs?: number;
  database?: string;
  /** The server's process id (e.g. to pin it to a CPU). */
  pid: number;
  stats(): Promise<Extract<ServerMessage, { type: 'stats' }>>;
  /** Starts a V8 CPU profile in the server (resolves once it runs). */
  startProfile(): Promise<void>;
  /** Stops it: the share of the server's busy CPU in scripts matching `own` (see cpuShareOf). */
  stopProfile(own: RegExp, other: RegExp): Promise<CpuShare>;
  close(): Promise<void>;
}

const SERVER = join(__dirname, 'bench-server.ts');

export function startServer(spec: ServerSpec, env?: ServerEnv, startTimeoutMs = 180_000): Promise<RunningServer> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  delete childEnv.DATABASE_URL;
  delete childEnv.REDIS_URL;
  if (env) Object.assign(childEnv, env);
  const child: ChildProcess = fork(SERVER, [JSON.stringify(spec)], {
    env: childEnv,
    // BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there on exit (open in Chrome DevTools).
    execArgv: [
      '--require',
      'ts-node/register/transpile-only',
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []),
    ],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server ${spec.kind} did not start within ${startTimeoutMs} ms`));
    }, startTimeoutMs);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`server ${spec.kind} exited with ${code} before it was ready`));
    };
    child.once('exit', onExit);
    child.on('message', function onMessage(m: ServerMessage) {
      if (m.type === 'error') {
        clearTimeout(timer);
        child.off('exit', onExit);
        reject(new Error(`server ${spec.kind}: ${m.message}`));
      } else if (m.type === 'ready') {
        clearTimeout(timer);
        child.off('exit', onExit);
        child.off('message', onMessage);
        resolve(handle(child, m));
      }
    });
  });
}

function handle(child: ChildProcess, m: Extract<ServerMessage, { type: 'ready' }>): RunningServer {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    port: m.port,
    url: `http://127.0.0.1:${m.port}`,
    token: m.token,
    tenantId: m.tenantId,
    ids: m.ids ?? [],
    seedMs: m.seed_ms,
    database: m.database,
    pid: child.pid!,
    stats: () => ask(child, { type: 'stats' }, 'stats'),
    startProfile: async () => {
      await ask(child, { type: 'profile-start' }, 'profile-started');
    },
    stopProfile: async (own, other) => {
      const { share_pct, busy_ms } = await ask(child, { type: 'profile-stop', own: own.source, other: other.source }, 'profile');
      return { share_pct, busy_ms };
    },
    close: async () => {
      if (child.exitCode !== null) return;
      child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** One request to the server and its reply of the given type. */
function ask<T extends ServerMessage['type']>(
  child: ChildProcess,
  message: ParentMessage,
  reply: T,
  timeoutMs = 30_000,
): Promise<Extract<ServerMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${reply} reply`)), timeoutMs);
    child.once('message', (m: ServerMessage) => {
      clearTimeout(timer);
      if (m.type === reply) resolve(m as Extract<ServerMessage, { type: T }>);
      else reject(new Error(m.type === 'error' ? `server: ${m.message}` : `expected ${reply}, got ${m.type}`));
    });
    child.send(message);
  });
}

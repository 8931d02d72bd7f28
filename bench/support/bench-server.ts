/**
 * A server under test, in its own process (forked by bench/support/server-process.ts):
 *  - `hello`: bare Express on this Node, `GET /hello` → `{"hello":"world"}` (the ceiling);
 *  - `app`: the whole Bulwark app (createTestApp: same module and configureApp as production) on
 *    DATABASE_URL / REDIS_URL from this process's environment, optionally seeded, optionally with
 *    its rate limiter replaced by pass-throughs (bench:rate-limit's service pairs);
 *  - `limiter-probe`: bench:rate-limit's trivial authenticated endpoint, limiter off or on
 *    (bench/support/limiter-probe-app.ts).
 * Talks to the parent over IPC: `ready` with the port (and a token, ids), `stats` on request
 * (peak RSS, CPU), `profile-start` / `profile-stop` (share of this process's CPU in the code the
 * parent names), `close`.
 */
import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Scope } from '../../src/auth/principal';
import { InventoryImportService } from '../../src/inventory-import/inventory-import.service';
import { createTestApp, type TestApp } from '../../test/support/create-test-app';
import { cpuShareOf, CpuProfiler } from './cpu-profile-share';
import { largeInventory } from './fixtures';
import { startLimiterProbe, type LimiterMode } from './limiter-probe-app';
import { serviceLimiter } from './service-limiter';

export interface ServerSpec {
  kind: 'hello' | 'app' | 'limiter-probe';
  /**
   * limiter-probe: the limiter's store, or none. app: `off` replaces the app's rate-limit
   * middleware and guard with pass-throughs; `memory`/`redis` keep them (the store follows
   * REDIS_URL) with the edge allowance raised like the probe's, so the load is counted, never
   * blocked. Unset: the app as configured (EDGE_LIMITS=shadow unless `env` says otherwise).
   */
  limiter?: LimiterMode;
  /** limiter-probe: prefix of its Redis keys (the parent deletes them). */
  keyPrefix?: string;
  /** app: seed this many applications (largeInventory) into a fresh tenant. */
  seedApplications?: number;
  /** app: reuse an existing tenant (e.g. seeded by another server on the same PostgreSQL). */
  tenantId?: string;
  scopes?: Scope[];
  /** app: extra config environment (EDGE_LIMITS, SCAN_WORKERS, ...). */
  env?: Record<string, string>;
}

export type ServerMessage =
  | { type: 'ready'; port: number; token?: string; tenantId?: string; ids?: number[]; seed_ms?: number; database?: string; redis?: boolean }
  | { type: 'stats'; max_rss_mb: number; rss_mb: number; cpu_user_ms: number; cpu_system_ms: number }
  | { type: 'profile-started' }
  | { type: 'profile'; share_pct: number; busy_ms: number }
  | { type: 'error'; message: string };

export type ParentMessage =
  | { type: 'stats' }
  | { type: 'profile-start' }
  /** Regex sources: the code whose share is reported, and the callers' code that stops the walk up. */
  | { type: 'profile-stop'; own: string; other: string }
  | { type: 'close' };

const send = (m: ServerMessage): void => {
  process.send?.(m);
};

async function startHello(): Promise<{ port: number; close: () => Promise<void> }> {
  const app = express();
  app.get('/hello', (_req, res) => {
    res.json({ hello: 'world' });
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((r) => server.close(() => r())) };
}

async function startApp(spec: ServerSpec): Promise<{ ready: ServerMessage; close: () => Promise<void> }> {
  const t: TestApp = await createTestApp({
    env: { EDGE_LIMITS: spec.limiter === undefined ? 'shadow' : 'on', ...(spec.env ?? {}) },
    override: spec.limiter === undefined ? undefined : serviceLimiter(spec.limiter),
  });
  let tenantId = spec.tenantId;
  let seedMs: number | undefined;
  if (!tenantId) {
    const tenant = await t.tenant();
    tenantId = tenant.id;
    if (spec.seedApplications) {
      const started = performance.now();
      await t.app.get(InventoryImportService).import(tenant.id, largeInventory(spec.seedApplications));
      seedMs = Math.round(performance.now() - started);
    }
  }
  const tenant = await t.tenant(await slugOf(t, tenantId));
  // Budget far above what the load can spend: the limiter evaluates every request, never answers 429.
  const token = await tenant.key(spec.scopes, { rateLimitPerMinute: 1_000_000_000 });
  const ids = ((await t.dataSource.query('SELECT id FROM applications WHERE tenant_id = $1 ORDER BY id', [tenantId])) as { id: number }[]).map((r) => r.id);
  await t.app.listen(0, '127.0.0.1');
  const port = (t.app.getHttpServer().address() as AddressInfo).port;
  return {
    ready: { type: 'ready', port, token, tenantId, ids, seed_ms: seedMs, database: t.config.database.kind, redis: Boolean(t.config.redisUrl) },
    close: () => t.close(),
  };
}

async function slugOf(t: TestApp, tenantId: string): Promise<string> {
  const rows = (await t.dataSource.query('SELECT slug FROM tenants WHERE id = $1', [tenantId])) as { slug: string }[];
  if (!rows[0]) throw new Error(`no tenant ${tenantId}`);
  return rows[0].slug;
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as ServerSpec;
  let close: () => Promise<void>;
  if (spec.kind === 'hello' || spec.kind === 'limiter-probe') {
    const s = spec.kind === 'hello' ? await startHello() : await startLimiterProbe(spec.limiter ?? 'off', process.env.REDIS_URL, spec.keyPrefix ?? 'bench:');
    close = s.close;
    send({ type: 'ready', port: s.port });
  } else {
    const s = await startApp(spec);
    close = s.close;
    send(s.ready);
  }
  let profiler: CpuProfiler | null = null;
  process.on('message', (m: ParentMessage) => {
    if (m.type === 'profile-start') {
      profiler = new CpuProfiler();
      void profiler.start().then(() => send({ type: 'profile-started' }));
    } else if (m.type === 'profile-stop') {
      if (!profiler) return send({ type: 'error', message: 'profile-stop without profile-start' });
      void profiler.stop().then((p) => send({ type: 'profile', ...cpuShareOf(p, new RegExp(m.own), new RegExp(m.other)) }));
      profiler = null;
    } else if (m.type === 'stats') {
      const u = process.resourceUsage();
      send({
        type: 'stats',
        max_rss_mb: Math.round(u.maxRSS / 1024),
        rss_mb: Math.round(process.memoryUsage.rss() / 1048576),
        cpu_user_ms: Math.round(u.userCPUTime / 1000),
        cpu_system_ms: Math.round(u.systemCPUTime / 1000),
      });
    } else if (m.type === 'close') {
      void close().finally(() => process.exit(0));
    }
  });
  // An orphaned server must not outlive its bench part.
  process.on('disconnect', () => process.exit(0));
}

main().catch((err: unknown) => {
  send({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});

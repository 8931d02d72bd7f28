/**
 * Inventory read path (docs/inventory.md "Performance"): p50/p99 of
 *  - list: POST /api/applications — a page of 100 out of 10,000 applications, with `search` and a
 *    filter body (tier in [TIER_1, TIER_2]), default order, and the same ordered by a derived field;
 *  - get: GET /api/applications/{id} of random applications;
 * over real HTTP on the whole app (DATABASE_URL: PostgreSQL; unset: in-memory PGlite), sequential
 * requests after a warm-up. Also times the demo fixture import on in-memory PGlite (--no-demo skips).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> npm run bench:inventory [-- --requests 300]
 *
 * Writes bench/results/inventory.json (bench/support/bench-result.ts shape, with the load average:
 * the machine is shared, so compare numbers taken under similar load). The requests come from
 * autocannon in its own process (bench/support/load-client.cjs), one at a time.
 */
import type { AddressInfo } from 'node:net';
import { generateDemoInventory } from '../src/inventory-import/demo-inventory.generator';
import { InventoryImportService } from '../src/inventory-import/inventory-import.service';
import { createTestApp } from '../test/support/create-test-app';
import { figure, runPart, type PartReport } from './support/bench-result';
import { largeInventory } from './support/fixtures';
import { assertClean, runLoad, type LoadOptions, type LoadResult } from './support/load';
import { arg } from './support/stats';

const round = (n: number): number => Math.round(n * 100) / 100;

/** Sequential requests from autocannon in its own process (never from the server's event loop). */
async function timeRequests(n: number, load: LoadOptions): Promise<LoadResult> {
  await runLoad({ ...load, amount: 20 }); // warm-up
  const r = await runLoad({ ...load, connections: 1, amount: n });
  assertClean(load.paths?.[0] ?? load.url, r);
  return r;
}
const stats = (r: LoadResult) => ({ n: r.total, p50_ms: r.p50_ms, p99_ms: r.p99_ms, mean_ms: round(r.mean_ms), max_ms: r.max_ms });

async function main(report: PartReport): Promise<void> {
  const requests = arg('requests', 300);
  const APPS = 10_000;
  const database = (process.env.DATABASE_URL ?? '').startsWith('postgres') ? 'postgresql' : 'pglite-memory';
  const t = await createTestApp();
  const tenant = await t.tenant();
  const token = await tenant.key(['inventory:read'], { rateLimitPerMinute: 10_000_000 });
  const seedStart = performance.now();
  await t.app.get(InventoryImportService).import(tenant.id, largeInventory(APPS));
  const seedMs = performance.now() - seedStart;
  const server = t.app.getHttpServer() as import('node:http').Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const filter = JSON.stringify({ tier: ['TIER_1', 'TIER_2'] });

  const probe = (await (await fetch(`${base}/api/applications?limit=100&page=2&search=pay`, { method: 'POST', headers, body: filter })).json()) as {
    total: number;
    items: unknown[];
  };
  const listLoad: LoadOptions = {
    url: base,
    method: 'POST',
    headers,
    body: filter,
    paths: [0, 1, 2, 3, 4].map((p) => `/api/applications?limit=100&page=${p}&search=pay`),
  };
  const list = await timeRequests(requests, listLoad);
  const listDerived = await timeRequests(requests, {
    ...listLoad,
    paths: [0, 1, 2, 3, 4].map((p) => `/api/applications?limit=100&page=${p}&search=pay&orders=-urgent,name`),
  });
  const ids = ((await t.dataSource.query('SELECT id FROM applications WHERE tenant_id = $1 ORDER BY id', [tenant.id])) as { id: number }[]).map((r) => r.id);
  const get = await timeRequests(requests, {
    url: base,
    headers,
    paths: Array.from({ length: 200 }, (_, i) => `/api/applications/${ids[(i * 7919) % ids.length]}`),
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.close();

  let demo: Record<string, unknown> = { skipped: true };
  if (!process.argv.includes('--no-demo')) {
    const p = await createTestApp({ env: { DATABASE_URL: 'pglite://memory' } });
    const doc = generateDemoInventory();
    const demoTenant = await p.tenant();
    const start = performance.now();
    const result = await p.app.get(InventoryImportService).import(demoTenant.id, doc);
    demo = { database: 'pglite-memory', import_ms: Math.round(performance.now() - start), counts: result.counts };
    await p.close();
  }

  const db = database === 'postgresql' ? 'PostgreSQL' : 'PGlite';
  report.add(
    figure(
      'inventory.list.p99',
      `list 100 of ${APPS.toLocaleString('en-US')} + search + filter (${db}, sequential) p99`,
      list.p99_ms,
      'ms',
      undefined,
      `p50 ${list.p50_ms} ms; ${probe.total} match; target judged in the api part`,
    ),
  );
  report.add(
    figure(
      'inventory.list_derived.p99',
      `same, ordered by a derived field (-urgent,name) p99 (${db})`,
      listDerived.p99_ms,
      'ms',
      undefined,
      `p50 ${listDerived.p50_ms} ms`,
    ),
  );
  report.add(figure('inventory.get.p99', `GET /api/applications/{id} (${db}, sequential) p99`, get.p99_ms, 'ms', undefined, `p50 ${get.p50_ms} ms`));
  if (!demo.skipped) report.add(figure('inventory.demo_import', 'demo fixture import (PGlite in memory)', demo.import_ms as number, 'ms'));
  Object.assign(report.details, {
    database,
    applications: APPS,
    seed_ms: Math.round(seedMs),
    list: {
      request: 'POST /api/applications?limit=100&page=0..4&search=pay  body {"tier":["TIER_1","TIER_2"]}',
      matching: probe.total,
      page_items: probe.items.length,
      ...stats(list),
    },
    list_ordered_by_derived_field: { request: 'same, orders=-urgent,name', ...stats(listDerived) },
    get: { request: 'GET /api/applications/{id}', ...stats(get) },
    demo_import: demo,
  });
}

runPart('inventory', main);

/**
 * MCP overhead (docs/performance.md): p50/p99 of the same read through REST and through /mcp (a fresh MCP
 * server + transport per request, docs/mcp.md "Transport"), over real HTTP on the whole app, sequential
 * requests after a warm-up, API-key auth (budget raised so the limiter never answers 429):
 *  - rest_get_application:  GET /api/applications/{id}
 *  - mcp_get_application:   tools/call get_application
 *  - mcp_tools_list:        tools/list (7 tools, schemas serialised per request)
 *  - mcp_initialize:        initialize
 *
 *   npx ts-node --transpile-only bench/mcp.bench.ts [-- --requests 300]
 *
 * Writes bench/results/mcp.json (bench/support/bench-result.ts shape). The requests come from
 * autocannon in its own process (bench/support/load-client.cjs), one at a time.
 */
import type { AddressInfo } from 'node:net';
import { createTestApp } from '../test/support/create-test-app';
import { figure, runPart, type PartReport } from './support/bench-result';
import { assertClean, runLoad, type LoadOptions } from './support/load';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const round = (n: number): number => Math.round(n * 100) / 100;
/** Sequential requests from autocannon in its own process (never from the server's event loop). */
async function time(n: number, warmup: number, load: LoadOptions) {
  await runLoad({ ...load, amount: warmup });
  const r = await runLoad({ ...load, connections: 1, amount: n });
  assertClean(load.body ?? load.url, r);
  return { n: r.total, p50_ms: r.p50_ms, p99_ms: r.p99_ms, mean_ms: round(r.mean_ms) };
}

async function main(report: PartReport): Promise<void> {
  const requests = arg('requests', 300);
  const t = await createTestApp();
  try {
    await t.app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const key = await (await t.tenant()).key(['admin'], { rateLimitPerMinute: 10_000_000 });
    const auth = { Authorization: `Bearer ${key}` };
    const app = (await (
      await fetch(`${base}/api/applications/`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'bench' }),
      })
    ).json()) as { id: number };
    const mcp = (body: unknown): LoadOptions => ({
      url: `${base}/mcp`,
      method: 'POST',
      headers: { ...auth, Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', 'MCP-Protocol-Version': '2025-06-18' },
      body: JSON.stringify(body),
    });
    const results = {
      rest_get_application: await time(requests, 30, { url: `${base}/api/applications/${app.id}`, headers: auth }),
      mcp_get_application: await time(
        requests,
        30,
        mcp({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_application', arguments: { application_id: app.id } } }),
      ),
      mcp_tools_list: await time(requests, 30, mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' })),
      mcp_initialize: await time(
        requests,
        30,
        mcp({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
        }),
      ),
    };
    report.add(
      figure(
        'mcp.rest_get.p50',
        'REST GET /api/applications/{id} p50 (sequential)',
        results.rest_get_application.p50_ms,
        'ms',
        undefined,
        `p99 ${results.rest_get_application.p99_ms} ms`,
      ),
    );
    report.add(
      figure(
        'mcp.get.p50',
        'MCP tools/call get_application p50 (sequential)',
        results.mcp_get_application.p50_ms,
        'ms',
        undefined,
        `p99 ${results.mcp_get_application.p99_ms} ms`,
      ),
    );
    report.add(figure('mcp.tools_list.p50', 'MCP tools/list p50', results.mcp_tools_list.p50_ms, 'ms', undefined, `p99 ${results.mcp_tools_list.p99_ms} ms`));
    report.add(figure('mcp.initialize.p50', 'MCP initialize p50', results.mcp_initialize.p50_ms, 'ms', undefined, `p99 ${results.mcp_initialize.p99_ms} ms`));
    Object.assign(report.details, { database: t.config.database.kind, requests, results });
  } finally {
    await t.close();
  }
}

runPart('mcp', main);

/**
 * POST /api/agent_files/scan over loopback HTTP through the real stack (auth, rate-limit guard,
 * multer, worker pool, rule engine, `none` judge, scoring; docs/performance.md):
 *  - p50/p99 of one 4 KB file and of a 3×250 KB zip, one client (target: zip p50 ≤ 60 ms, judge off);
 *  - scans per second under 32 concurrent uploads (one file and the zip), with the statuses seen;
 *  - peak RSS of the server process (worker threads included).
 * The server is this process; the uploads come from autocannon in its own process
 * (bench/support/load-client.cjs) replaying a prepared multipart body.
 *
 *   npx ts-node --transpile-only bench/scan-endpoint.bench.ts [--requests 60] [--seconds 8] [--concurrency 32]
 *
 * Writes bench/results/scan-endpoint.json. On a shared 2-core machine the client, the server and
 * its workers compete for the same cores: read the figures with the load average beside them.
 */
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipOf } from '../test/fixtures/zip/zip-writer';
import { createTestApp } from '../test/support/create-test-app';
import { atMost, figure, runPart } from './support/bench-result';
import { runLoad, type LoadResult } from './support/load';
import { multipartFile } from './support/multipart';
import { arg, peakRssMb, round } from './support/stats';

/** Deterministic prose-like text: realistic compression (~3:1) and realistic work for the rules. */
function prose(bytes: number, seed: number): string {
  const words = [
    'the',
    'agent',
    'should',
    'read',
    'repository',
    'files',
    'and',
    'summarise',
    'changes',
    'for',
    'review',
    'run',
    'tests',
    'before',
    'commit',
    'use',
    'the',
    'project',
    'style',
    'guide',
    'when',
    'editing',
    'markdown',
    'documents',
    'never',
    'push',
    'directly',
  ];
  let x = seed;
  const rand = (): number => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const out: string[] = ['---', 'name: bench-skill', 'description: Benchmark skill with ordinary instructions.', '---', '# Bench skill', ''];
  let size = out.join('\n').length;
  while (size < bytes) {
    const n = 6 + Math.floor(rand() * 14);
    const line = `${Array.from({ length: n }, () => words[Math.floor(rand() * words.length)]).join(' ')}.`;
    out.push(rand() < 0.1 ? `\n## Section ${Math.floor(rand() * 100)}\n` : line);
    size += line.length + 1;
  }
  return out.join('\n').slice(0, bytes);
}

runPart('scan-endpoint', async (report) => {
  const requests = arg('requests', 60);
  const seconds = arg('seconds', 8);
  const concurrency = arg('concurrency', 32);

  const t = await createTestApp({ env: { EDGE_LIMITS: 'off' } });
  try {
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/api/agent_files/scan`;
    const token = await (await t.tenant()).key(['scan'], { rateLimitPerMinute: 10_000_000 });

    const bodies = {
      one_file: multipartFile('SKILL.md', Buffer.from(prose(4 * 1024, 1)), 'text/markdown'),
      three_x_250kb: multipartFile(
        'bundle.zip',
        zipOf({ 'SKILL.md': prose(250 * 1024, 2), 'docs/guide.md': prose(250 * 1024, 3), 'docs/notes.md': prose(250 * 1024, 4) }),
        'application/zip',
      ),
    };
    const files: Record<string, string> = {};
    for (const [name, b] of Object.entries(bodies)) {
      files[name] = join(tmpdir(), `bulwark-bench-scan-${process.pid}-${name}.bin`);
      writeFileSync(files[name], b.body);
    }
    const load = (name: keyof typeof bodies, o: { connections: number; amount?: number; duration?: number; warmup?: number }): Promise<LoadResult> =>
      runLoad({
        url,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': bodies[name].contentType },
        bodyFile: files[name],
        timeout: 60,
        ...o,
      });

    // The scan workers start at the first scan (seconds here, where they load through ts-node):
    // one answered scan first, so the timed warm-up and the figures see warm workers only.
    const first = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': bodies.one_file.contentType },
      body: new Uint8Array(bodies.one_file.body),
    });
    if (first.status !== 200) throw new Error(`first scan answered ${first.status}: ${await first.text()}`);
    const latency = {
      one_file: await load('one_file', { connections: 1, amount: requests, warmup: 2 }),
      three_x_250kb: await load('three_x_250kb', { connections: 1, amount: Math.max(20, Math.round(requests / 2)), warmup: 2 }),
    };
    const throughput = {
      one_file: await load('one_file', { connections: concurrency, duration: seconds }),
      three_x_250kb: await load('three_x_250kb', { connections: concurrency, duration: seconds }),
    };
    const ok = (r: LoadResult) => round((r.statuses['200'] ?? 0) / r.duration_s, 1);
    const others = (r: LoadResult) =>
      Object.entries(r.statuses)
        .filter(([c]) => c !== '200')
        .map(([c, n]) => `${n}×${c}`)
        .join(', ') || 'all 200';

    report.add(
      figure(
        'scan.zip3x250.p50',
        'scan endpoint 3×250 KB zip p50 (1 client, judge off)',
        latency.three_x_250kb.p50_ms,
        'ms',
        atMost(60),
        others(latency.three_x_250kb),
      ),
    );
    report.add(figure('scan.zip3x250.p99', 'scan endpoint 3×250 KB zip p99 (1 client)', latency.three_x_250kb.p99_ms, 'ms'));
    report.add(
      figure('scan.one_file.p50', 'scan endpoint one 4 KB file p50 (1 client)', latency.one_file.p50_ms, 'ms', undefined, `p99 ${latency.one_file.p99_ms} ms`),
    );
    report.add(
      figure(
        'scan.one_file.rps_c32',
        `scans/s of 4 KB files, ${concurrency} concurrent uploads`,
        ok(throughput.one_file),
        'scans/s',
        undefined,
        `p99 ${throughput.one_file.p99_ms} ms; ${others(throughput.one_file)}`,
      ),
    );
    report.add(
      figure(
        'scan.zip3x250.rps_c32',
        `scans/s of 3×250 KB zips, ${concurrency} concurrent uploads`,
        ok(throughput.three_x_250kb),
        'scans/s',
        undefined,
        `${others(throughput.three_x_250kb)}`,
      ),
    );
    report.add(figure('scan.server.peak_rss', 'scan server peak RSS (app, PGlite, workers)', peakRssMb(), 'MB'));
    Object.assign(report.details, {
      scan_workers: t.config.scan.workers || cpus().length,
      judge: t.config.judge.provider,
      database: t.config.database.kind,
      payload_bytes: Object.fromEntries(Object.entries(bodies).map(([k, b]) => [k, b.body.length])),
      latency,
      throughput,
    });
  } finally {
    await t.close();
  }
});

'use strict';
/*
 * The load generator of the bench parts, run as its own process (never inside the server's):
 *   node bench/support/load-client.cjs '<json options>'
 * Options: url, connections, duration (s) or amount, method, headers, body (string),
 * bodyFile (path: binary body, e.g. a prepared multipart upload), paths (string[] cycled per
 * connection, e.g. different ids or pages), warmup (s, not measured), timeout (s).
 * Prints one JSON summary line. Plain JavaScript so it starts without a TypeScript loader.
 */
const { readFileSync } = require('node:fs');
const autocannon = require('autocannon');

function run(opts) {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

async function main() {
  const o = JSON.parse(process.argv[2]);
  const base = {
    url: o.url,
    connections: o.connections ?? 1,
    method: o.method ?? 'GET',
    headers: o.headers ?? {},
    body: o.bodyFile ? readFileSync(o.bodyFile) : o.body,
    timeout: o.timeout ?? 30,
  };
  if (o.paths && o.paths.length) base.requests = o.paths.map((path) => ({ path }));
  if (o.warmup) await run({ ...base, duration: o.warmup });
  const r = await run(o.amount ? { ...base, amount: o.amount } : { ...base, duration: o.duration ?? 5 });
  const statuses = {};
  for (const [code, v] of Object.entries(r.statusCodeStats ?? {})) statuses[code] = v.count;
  process.stdout.write(
    `${JSON.stringify({
      rps: r.requests.average,
      total: r.requests.total,
      duration_s: r.duration,
      p50_ms: r.latency.p50,
      p90_ms: r.latency.p90,
      p99_ms: r.latency.p99,
      mean_ms: r.latency.average,
      max_ms: r.latency.max,
      non2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
      statuses,
    })}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`${err && err.stack ? err.stack : String(err)}\n`);
  process.exit(1);
});

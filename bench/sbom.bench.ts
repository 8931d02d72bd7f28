/**
 * SBOM generation at scale (docs/sbom.md "Performance"): an application of 50 services and 10,000 distinct packages
 * (50,000 package observations: each service sees 400 packages in source, in production, and half of
 * them in a second environment; neighbouring services share packages).
 *
 *  1. builder + serializer (pure, in process): wall and CPU ms per document, median of --rounds;
 *  2. strict CycloneDX 1.6 schema validation of that document (test-time check, not on the request
 *     path; linear uniqueItems, see src/sbom/cyclonedx-validator.ts): schema compile once, then one validation;
 *  3. the endpoint: POST /api/applications/{id}/sbom over HTTP on the real app (PGlite in memory, or
 *     DATABASE_URL), selection "everything" and "production", median of --rounds. Skip with --no-http.
 *
 *   npm run bench:sbom [-- --rounds 5] [-- --no-http] [-- --no-validate]
 *
 * Writes bench/results/sbom.json (bench/support/bench-result.ts shape); bench/run.ts runs it. On a shared 2-core machine the load
 * average is recorded with the numbers: CPU ms is the steadier figure when other work is running.
 */
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { buildApplicationBom } from '../src/sbom/application-bom.builder';
import { serializeApplicationBom, validateCycloneDx16Json } from '../src/sbom/application-bom.serializer';
import { InventoryImportService } from '../src/inventory-import/inventory-import.service';
import { bomInput, largeBomInput } from '../test/factories/sbom-input.factory';
import { createTestApp } from '../test/support/create-test-app';
import { atMost, figure, runPart, type PartReport } from './support/bench-result';
import { assertClean, runLoad } from './support/load';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const flag = (name: string): boolean => process.argv.includes(`--${name}`);
const round = (n: number): number => Math.round(n * 10) / 10;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Wall and CPU (user + system, all threads: includes GC) milliseconds of one call. */
function measure<T>(fn: () => T): { value: T; wallMs: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = fn();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { value, wallMs, cpuMs: (used.user + used.system) / 1000 };
}

async function main(report: PartReport): Promise<void> {
  const rounds = arg('rounds', 5);
  const SERVICES = 50;
  const PACKAGES = 10_000;
  const input = largeBomInput(SERVICES, PACKAGES, 400);

  // 1. builder + serializer
  const build: number[] = [];
  const buildCpu: number[] = [];
  const serialize: number[] = [];
  const serializeCpu: number[] = [];
  let json = '';
  let components = 0;
  measure(() => serializeApplicationBom(buildApplicationBom(input))); // warm-up (JIT)
  for (let r = 0; r < rounds; r++) {
    const b = measure(() => buildApplicationBom(input));
    const s = measure(() => serializeApplicationBom(b.value));
    build.push(b.wallMs);
    buildCpu.push(b.cpuMs);
    serialize.push(s.wallMs);
    serializeCpu.push(s.cpuMs);
    json = s.value;
    components = b.value.components.size;
  }
  const total = build.map((b, i) => b + serialize[i]!);

  // 2. validation
  let validation: Record<string, unknown> = { skipped: true };
  if (!flag('no-validate')) {
    const compile = await measureAsync(() => validateCycloneDx16Json(serializeApplicationBom(buildApplicationBom(bomInput()))));
    const full = await measureAsync(() => validateCycloneDx16Json(json));
    validation = {
      schema_compile_ms: round(compile.wallMs),
      validate_ms: round(full.wallMs),
      valid: full.value === null,
      note: 'test-time check only: the library schema compiled as its strict validator does, uniqueItems checked with a hash set (src/sbom/cyclonedx-validator.ts)',
    };
  }

  // 3. the endpoint
  let endpoint: Record<string, unknown> = { skipped: true };
  if (!flag('no-http')) endpoint = await benchEndpoint(input, rounds);

  const result = {
    bench: 'sbom',
    when: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    load_average_1m: round(loadavg()[0]!),
    application: { services: SERVICES, packages: PACKAGES, observations: input.observations.length, components, json_bytes: json.length },
    generation: {
      rounds,
      build_ms_median: round(median(build)),
      build_cpu_ms_median: round(median(buildCpu)),
      serialize_ms_median: round(median(serialize)),
      serialize_cpu_ms_median: round(median(serializeCpu)),
      total_ms_median: round(median(total)),
      total_ms_min: round(Math.min(...total)),
    },
    validation,
    endpoint,
  };
  const totalMs = median(total) + (typeof validation.validate_ms === 'number' ? validation.validate_ms : NaN);
  report.add(
    figure(
      'sbom.generation_plus_validation',
      `SBOM ${SERVICES} services / ${PACKAGES.toLocaleString('en-US')} packages: generation + validation`,
      round(totalMs),
      'ms',
      atMost(1000),
      `build ${round(median(build))} + serialize ${round(median(serialize))} + validate ${validation.validate_ms as number} ms; build+serialize CPU ${round(median(buildCpu) + median(serializeCpu))} ms`,
    ),
  );
  report.add(
    figure(
      'sbom.generation',
      'SBOM generation alone (build + serialize, median)',
      round(median(total)),
      'ms',
      undefined,
      `min ${round(Math.min(...total))} ms`,
    ),
  );
  if (!endpoint.skipped) {
    const e = endpoint as { database: string; everything: { median_ms: number }; production: { median_ms: number } };
    report.add(
      figure(
        'sbom.endpoint.everything',
        `POST /api/applications/{id}/sbom, everything (${e.database}, median)`,
        e.everything.median_ms,
        'ms',
        undefined,
        `production only: ${e.production.median_ms} ms`,
      ),
    );
  }
  Object.assign(report.details, result);
}

async function measureAsync<T>(fn: () => Promise<T>): Promise<{ value: T; wallMs: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, wallMs: performance.now() - start };
}

async function benchEndpoint(input: ReturnType<typeof largeBomInput>, rounds: number): Promise<Record<string, unknown>> {
  const t = await createTestApp({ env: { EDGE_LIMITS: 'off' } });
  try {
    const tenant = await t.tenant();
    const token = await tenant.key(['admin'], { rateLimitPerMinute: 1_000_000 });
    const imported = await measureAsync(() =>
      t.app.get(InventoryImportService).import(tenant.id, {
        services: input.services.map((s) => ({ id: s.id, name: s.name, source_type: s.sourceType })),
        code_roots: input.codeRoots.map((c) => ({ id: c.id, service_id: c.serviceId, repository: c.id.split(':')[0], path: c.id.split(':')[1] })),
        packages: input.observations.map((o) => ({
          service_id: o.serviceId,
          coderoot_id: o.coderootId,
          environment: o.environment,
          purl: o.purl,
          name: o.name,
          group: o.group,
          version: o.version,
          type: o.type,
          scope: o.scope,
          direct: o.direct,
          hashes: o.hashes,
          licenses: o.licenses,
          depends_on: o.dependsOn,
        })),
      }),
    );
    const created = await t
      .http()
      .post('/api/applications/')
      .set('Authorization', `Bearer ${token}`)
      .send({ name: 'bench', service_ids: input.services.map((s) => s.id) });
    const id = created.body.id as number;
    await t.app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    // The requests come from autocannon in its own process, one at a time; the first warms up.
    const timeRequest = async (body: object) => {
      const load = {
        url: `${base}/api/applications/${id}/sbom`,
        method: 'POST',
        connections: 1,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        timeout: 120,
      };
      assertClean('sbom warm-up', await runLoad({ ...load, amount: 1 }));
      const r = await runLoad({ ...load, amount: rounds });
      assertClean('sbom', r);
      return { median_ms: r.p50_ms, max_ms: r.max_ms, requests: r.total };
    };
    return {
      database: t.config.databaseUrl.startsWith('postgres') ? 'postgresql' : 'pglite',
      import_ms: round(imported.wallMs),
      everything: await timeRequest({ environment: null, coderoots: null }),
      production: await timeRequest({ environment: 'production', coderoots: null }),
    };
  } finally {
    await t.close();
  }
}

runPart('sbom', main);

/**
 * Inventory import (docs/performance.md "Parts and targets"): the demo fixture (generateDemoInventory, what `--demo`
 * loads) and a 100,000-resource document (2,000 services, 99,999 relations), through
 * InventoryImportService.import on a fresh tenant: wall time and peak RSS. Each case runs in its own
 * process (peak RSS is per process), on in-memory PGlite and, with DATABASE_URL, on PostgreSQL.
 * The RSS of the booted app before the import is reported beside the peak (PGlite alone is ~700 MB).
 *
 *   npx ts-node --transpile-only bench/import.bench.ts [--resources 100000]
 */
import { fork } from 'node:child_process';
import { generateDemoInventory } from '../src/inventory-import/demo-inventory.generator';
import { InventoryImportService } from '../src/inventory-import/inventory-import.service';
import { createTestApp } from '../test/support/create-test-app';
import { figure, runPart } from './support/bench-result';
import { resourceInventory } from './support/fixtures';
import { postgresUrl } from './support/scratch-db';
import { arg, peakRssMb } from './support/stats';

interface CaseResult {
  fixture: string;
  database: string;
  import_ms: number;
  rss_before_mb: number;
  peak_rss_mb: number;
  counts?: unknown;
}

/** Child mode: one import, result as one JSON line on stdout. */
async function runCase(fixture: 'demo' | 'resources', resources: number): Promise<void> {
  const doc = fixture === 'demo' ? generateDemoInventory() : resourceInventory(resources);
  const t = await createTestApp();
  try {
    const tenant = await t.tenant();
    const before = peakRssMb();
    const started = performance.now();
    const result = await t.app.get(InventoryImportService).import(tenant.id, doc);
    const out: CaseResult = {
      fixture,
      database: t.config.database.kind,
      import_ms: Math.round(performance.now() - started),
      rss_before_mb: before,
      peak_rss_mb: peakRssMb(),
      counts: result.counts,
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    await t.close();
  }
}

function childCase(fixture: string, env: NodeJS.ProcessEnv, resources: number): Promise<CaseResult> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--case', fixture, '--resources', String(resources)], {
      env,
      execArgv: ['--require', 'ts-node/register/transpile-only'],
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`import case ${fixture} exited ${code}`));
      resolve(JSON.parse(line) as CaseResult);
    });
  });
}

const caseIndex = process.argv.indexOf('--case');
if (caseIndex > 0) {
  runCase(process.argv[caseIndex + 1] as 'demo' | 'resources', arg('resources', 100_000)).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
} else {
  runPart('import', async (report) => {
    const resources = arg('resources', 100_000);
    const pg = postgresUrl();
    const dbs: [string, NodeJS.ProcessEnv | null][] = [
      ['PGlite', { ...process.env, DATABASE_URL: 'pglite://memory' }],
      ['PostgreSQL', pg ? { ...process.env, DATABASE_URL: pg } : null],
    ];
    const cases: CaseResult[] = [];
    for (const [label, env] of dbs) {
      for (const fixture of ['demo', 'resources'] as const) {
        const name = fixture === 'demo' ? 'demo fixture' : `${resources.toLocaleString('en-US')} resources`;
        const id = `import.${label === 'PGlite' ? 'pglite' : 'pg'}.${fixture}`;
        if (!env) {
          report.skip(`${id}.ms`, `import ${name} on ${label}`, 's', 'skipped (no PostgreSQL)');
          continue;
        }
        const r = await childCase(fixture, env, resources);
        cases.push(r);
        report.add(figure(`${id}.s`, `import ${name} on ${label}`, Math.round(r.import_ms / 100) / 10, 's'));
        report.add(figure(`${id}.peak_rss`, `import ${name} on ${label}: peak RSS`, r.peak_rss_mb, 'MB', undefined, `${r.rss_before_mb} MB after boot`));
      }
    }
    Object.assign(report.details, { resources, cases });
  });
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * Memory of the embedded database (figures in docs/performance.md "Memory").
 *
 * PostgreSQL's default `shared_buffers` (128 MB) is allocated and touched inside PGlite's WASM
 * memory at start-up, and WASM memory never shrinks: it was most of an idle server's RSS. One
 * process with one connection over a small inventory needs far less; pages not in the buffers
 * are read back from the data directory through the OS page cache.
 */
export const PGLITE_SHARED_BUFFERS = '32MB';

/** PGlite's own start parameters plus ours (`-c` settings override the data directory's postgresql.conf). */
export function pgliteStartParams(defaults: readonly string[]): string[] {
  return [...defaults, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
}

/** A data directory PGlite has not initialised yet (no PG_VERSION). */
export const needsInitdb = (dataDir: string): boolean => !existsSync(join(dataDir, 'PG_VERSION'));

// Plain JavaScript run as an eval'd worker: opens (so initialises) the folder and closes it again.
const INITDB_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.pgliteModule);
(async () => {
  const db = new PGlite(workerData.dataDir, { startParams: workerData.startParams });
  await db.waitReady;
  await db.close();
})().then(() => parentPort.postMessage({ ok: true }), (err) => parentPort.postMessage({ ok: false, message: String((err && err.message) || err) }));
`;

/**
 * Initialises a fresh data directory in a worker thread that then exits. PGlite runs initdb in a
 * second WASM instance and keeps a tarball of the new cluster: ~450 MB that stays resident until a
 * garbage collection, which an idle server never triggers. A worker's heap goes when it exits.
 * The caller holds the data directory's lock (data-dir-lock.ts), so no other process races it.
 */
export async function initdbInWorker(dataDir: string, startParams: string[]): Promise<void> {
  const pgliteModule = require.resolve('@electric-sql/pglite');
  const worker = new Worker(INITDB_WORKER, { eval: true, workerData: { dataDir, startParams, pgliteModule } });
  const outcome = await new Promise<{ ok: boolean; message?: string }>((resolve) => {
    worker.once('message', resolve);
    worker.once('error', (err) => resolve({ ok: false, message: err.message }));
    worker.once('exit', (code) => resolve({ ok: false, message: `the worker exited with code ${code}` }));
  });
  await worker.terminate();
  if (!outcome.ok) throw new Error(`Could not initialise the embedded database in ${dataDir}: ${outcome.message}`);
}

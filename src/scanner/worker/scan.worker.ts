import { workerData } from 'node:worker_threads';
import { EXPIRED_IN_QUEUE, serializeError, type ScanEngineModule, type ScanTask, type ScanTaskResult, type ScanWorkerData } from './scan-task.types';

/**
 * Piscina task: the CPU-bound half of a scan (extract, decode, rule engine) off the event loop.
 * Runs as compiled JavaScript (dist/scanner/worker/scan.worker.js); under Jest the pool loads this
 * file through ts-node instead: worker threads load files with Node's loader, not Jest's transform
 * (docs/decisions/0024-dependency-pitfalls.md, 4). Nothing here logs: content must never reach logs.
 */
const data = (workerData ?? {}) as ScanWorkerData;

let engine: ScanEngineModule | null = null;
function loadEngine(): ScanEngineModule {
  // Lazy require so a test engine can replace the real one without loading the rule catalogue.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  engine ??= require(data.engineModule ?? './default-scan-engine') as ScanEngineModule;
  return engine;
}

/** Counts this worker in, then blocks it until all have counted themselves in (or the time is up). */
function awaitEveryWorker({ counter, workers, timeoutMs }: NonNullable<ScanTask['startBarrier']>): void {
  const until = Date.now() + timeoutMs;
  Atomics.add(counter, 0, 1);
  Atomics.notify(counter, 0);
  for (let seen = Atomics.load(counter, 0); seen < workers && Date.now() < until; seen = Atomics.load(counter, 0)) {
    Atomics.wait(counter, 0, seen, until - Date.now());
  }
}

export default async function runScanTask(task: ScanTask): Promise<ScanTaskResult> {
  try {
    if (task.ping) {
      await loadEngine().ready?.();
      if (task.startBarrier) awaitEveryWorker(task.startBarrier);
      return { ok: true, pong: true };
    }
    // Waited past its share of the deadline: refuse before doing any work (503, not a late 502).
    if (task.queuedAt !== undefined && task.maxQueueWaitMs !== undefined && Date.now() - task.queuedAt > task.maxQueueWaitMs) {
      return { ok: false, error: EXPIRED_IN_QUEUE };
    }
    const began = performance.now();
    const prepared = await loadEngine().prepare(task, { limits: data.limits });
    return { ok: true, prepared, runMs: performance.now() - began };
  } catch (err) {
    return { ok: false, error: serializeError(err) };
  }
}

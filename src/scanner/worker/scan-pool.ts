import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { Logger } from '@nestjs/common';
import { ScannerFailedError, ServiceUnavailableError } from '../../common/errors';
import type { ScanLimits } from '../archive/scan-limits';
import { looksLikeZip } from '../archive/upload-extractor';
import { mergeShards, type PreparedScan } from '../engine/scan-engine';
import { rehydrateError, type ScanTask, type ScanTaskResult, type ScanWorkerData } from './scan-task.types';

export interface ScanPoolOptions {
  /** Worker threads; 0 or undefined = the CPU count. */
  threads?: number;
  /** Scans allowed to wait for a worker; beyond it → 503 with Retry-After, nothing started. */
  maxQueue: number;
  /** Internal deadline of the CPU-bound phase (queue wait included) → 502. A scan that cannot
   *  start within half of it is refused with 503 + Retry-After instead (never processed). */
  timeoutMs: number;
  limits?: Partial<ScanLimits>;
  /** Absolute path of a test engine module (see ScanWorkerData.engineModule). */
  engineModule?: string;
  /** Old-generation heap cap per worker: a runaway scan kills its worker, not the process. */
  maxHeapMb?: number;
  /** Upper bound of the start-up probe. */
  startTimeoutMs?: number;
  /** Zips at least this large are shared between idle workers (default SHARD_MIN_BYTES; Infinity: never). */
  shardMinBytes?: number;
}

/** The task surface the service needs; tests may provide another implementation. */
export interface ScanExecutor {
  prepare(task: ScanTask): Promise<PreparedScan>;
  close(): Promise<void>;
}

const RESTART_BACKOFF_MS = 5000;
/**
 * A zip this large (compressed) is scanned by as many idle workers as it finds, each extracting it
 * and analysing its share of the files (engine/scan-engine.ts shardOwners): one large bundle is
 * answered in the time of its largest share. Under load no worker is idle and nothing changes.
 */
const SHARD_MIN_BYTES = 64 * 1024;
const QUEUE_FULL = new Set(['Task queue is at limit', 'No task queue available and all Workers are busy']);
const logger = new Logger('ScanPool');

/** The compiled worker when it exists (production, `node dist/...`); the TS source through ts-node otherwise (Jest). */
export function resolveWorkerFile(): { filename: string; execArgv?: string[] } {
  const js = join(__dirname, 'scan.worker.js');
  if (existsSync(js)) return { filename: js };
  return { filename: join(__dirname, 'scan.worker.ts'), execArgv: ['--require', 'ts-node/register/transpile-only'] };
}

/**
 * Scan capacity: a piscina pool sized from the CPU count with a bounded queue (docs/scanner-pipeline.md "Capacity, deadline and failures").
 * Created lazily on the first scan so apps and tests that never scan spawn no threads. Maps pool
 * outcomes to the endpoint's statuses: queue full → 503 + Retry-After; pool not available → 503
 * without; worker crash or deadline → 502 for that request only (piscina replaces the worker).
 */
export class PiscinaScanExecutor implements ScanExecutor {
  private pool: Piscina | null = null;
  private started: Promise<void> | null = null;
  /** Set when the pool could not start; a later scan retries after this instant. */
  private unavailableUntil = 0;
  private closed = false;
  private avgRunMs = 200;
  /** Scans admitted and not finished (running + waiting). Our own bound: piscina's queue limit
   *  does not count tasks parked in its skip queue, so it cannot be the admission rule. */
  private inFlight = 0;
  /** Workers taken by admitted scans: one each, or one per part of a shared zip. */
  private workersTaken = 0;
  readonly threads: number;

  constructor(private readonly options: ScanPoolOptions) {
    this.threads = options.threads && options.threads > 0 ? options.threads : Math.max(1, availableParallelism());
  }

  private start(): Promise<void> {
    this.started ??= (async () => {
      try {
        const worker = resolveWorkerFile();
        const workerData: ScanWorkerData = { limits: this.options.limits, engineModule: this.options.engineModule };
        const pool = new Piscina({
          filename: worker.filename,
          execArgv: worker.execArgv,
          minThreads: this.threads,
          maxThreads: this.threads,
          // Admission is decided in prepare(); piscina only needs room for what we admit.
          maxQueue: this.options.maxQueue + this.threads,
          workerData,
          resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? 512 },
        });
        // Without a listener an 'error' event would crash the process; the failing task already got its 502.
        pool.on('error', () => undefined);
        this.pool = pool;
        // One probe per worker, each held until all have loaded the engine: a worker left cold would
        // spend its first scan's deadline on start-up (seconds on a busy machine, a 502).
        const startTimeoutMs = this.options.startTimeoutMs ?? 60_000;
        const probe: ScanTask = {
          filename: null,
          bytes: new Uint8Array(0),
          ping: true,
          startBarrier: { counter: new Int32Array(new SharedArrayBuffer(4)), workers: this.threads, timeoutMs: startTimeoutMs },
        };
        const probes = (await Promise.all(
          Array.from({ length: this.threads }, () => pool.run(probe, { signal: AbortSignal.timeout(startTimeoutMs) })),
        )) as ScanTaskResult[];
        if (!probes.every((p) => p.ok)) throw new Error('scan worker probe failed');
      } catch (err) {
        logger.error(`Scan worker pool failed to start (${(err as Error).message}); scans answer 503 for ${RESTART_BACKOFF_MS} ms`);
        await this.pool?.destroy().catch(() => undefined);
        this.pool = null;
        // Down for a while, then a later scan tries to start the pool again.
        this.unavailableUntil = Date.now() + RESTART_BACKOFF_MS;
        this.started = null;
      }
    })();
    return this.started;
  }

  /** Time for the work ahead of a new scan to drain, from the running average scan time. */
  private retryAfterSeconds(): number {
    return Math.min(60, Math.max(1, Math.ceil((this.avgRunMs * this.inFlight) / this.threads / 1000)));
  }

  private notAvailable(): ServiceUnavailableError {
    return new ServiceUnavailableError('The scanner is temporarily unavailable.');
  }

  async prepare(task: ScanTask): Promise<PreparedScan> {
    if (this.closed || Date.now() < this.unavailableUntil) throw this.notAvailable();
    await this.start();
    const pool = this.pool;
    if (!pool || this.closed) throw this.notAvailable();

    // Admission: a hard bound on scans in flight, and no admission when the expected wait for a
    // worker would eat more than half the deadline (it would end as a 502 instead of a 503).
    const maxQueueWaitMs = this.options.timeoutMs / 2;
    const expectedWaitMs = this.workersTaken < this.threads ? 0 : (this.avgRunMs * (this.workersTaken - this.threads + 1)) / this.threads;
    if (this.inFlight >= this.threads + this.options.maxQueue || expectedWaitMs > maxQueueWaitMs) {
      throw new ServiceUnavailableError('Scan capacity is saturated; retry later.', this.retryAfterSeconds());
    }
    const parts = this.partsFor(task);
    this.inFlight++;
    this.workersTaken += parts;
    let results: PromiseSettledResult<unknown>[];
    try {
      const admitted: ScanTask = { ...task, queuedAt: Date.now(), maxQueueWaitMs };
      const signal = AbortSignal.timeout(this.options.timeoutMs);
      const tasks = parts === 1 ? [admitted] : Array.from({ length: parts }, (_, index): ScanTask => ({ ...admitted, shard: { index, count: parts } }));
      // Every part settles before the workers count as free again.
      results = await Promise.allSettled(tasks.map((t) => pool.run(t, { signal })));
    } finally {
      this.inFlight--;
      this.workersTaken -= parts;
    }
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw this.runFailure(failed.reason as Error);
    const answers = results.map((r) => (r as PromiseFulfilledResult<ScanTaskResult>).value);
    const prepared: PreparedScan[] = [];
    let runMs = 0;
    for (const result of answers) {
      if (!result.ok) throw rehydrateError(result.error, this.retryAfterSeconds());
      if (!('prepared' in result)) throw new ScannerFailedError('The scanner worker returned no result.');
      prepared.push(result.prepared);
      runMs += result.runMs;
    }
    // Worker time, so the expected wait of a queued scan stays right when scans are shared.
    this.avgRunMs = this.avgRunMs * 0.8 + runMs * 0.2;
    return parts === 1 ? prepared[0]! : mergeShards(prepared);
  }

  /** Workers a scan runs on: every idle one for a large zip (SHARD_MIN_BYTES), else one. */
  private partsFor(task: ScanTask): number {
    const idle = this.threads - this.workersTaken;
    const large = task.bytes.length >= (this.options.shardMinBytes ?? SHARD_MIN_BYTES);
    return idle >= 2 && large && looksLikeZip(Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength)) ? idle : 1;
  }

  /** The error a scan answers when a worker task of it did not return. */
  private runFailure(e: Error): Error {
    if (QUEUE_FULL.has(e.message)) {
      return new ServiceUnavailableError('Scan capacity is saturated; retry later.', this.retryAfterSeconds());
    }
    if (this.closed) return this.notAvailable();
    if (e.name === 'AbortError') {
      logger.warn(`Scan stopped at its internal deadline (${this.options.timeoutMs} ms); answered 502`);
      return new ScannerFailedError('The scan did not finish within its internal deadline.');
    }
    // The request line says only 502; the operator needs to see that a worker died (and why).
    logger.error(`Scan worker crashed (${e.message}); answered 502, the pool replaces the worker`);
    return new ScannerFailedError('The scanner worker failed before producing a result.');
  }

  /** Pool statistics for metrics and tests. */
  stats(): { started: boolean; available: boolean; threads: number; inFlight: number; capacity: number } {
    return {
      started: this.pool !== null,
      available: !this.closed && Date.now() >= this.unavailableUntil,
      threads: this.threads,
      inFlight: this.inFlight,
      capacity: this.threads + this.options.maxQueue,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy().catch(() => undefined);
  }
}

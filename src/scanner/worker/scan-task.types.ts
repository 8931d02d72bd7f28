import { BadRequestError, DomainError, PayloadTooLargeError, ScannerFailedError, ServiceUnavailableError } from '../../common/errors';
import type { ScanLimits } from '../archive/scan-limits';
import type { PreparedScan, ScanShard } from '../engine/scan-engine';

/** What the main thread sends a scan worker. Bytes are copied (structured clone), never shared. */
export interface ScanTask {
  filename: string | null;
  bytes: Uint8Array;
  /** Start-up probe: load the engine and wait until it is ready, scan nothing. */
  ping?: true;
  /**
   * Start-up probes only: a counter shared by one probe per worker. Each probe holds its worker
   * until every worker has counted itself in, so no worker takes two probes and none stays cold.
   */
  startBarrier?: { counter: Int32Array; workers: number; timeoutMs: number };
  /** Wall-clock ms when the scan was admitted, and the longest it may wait for a worker. */
  queuedAt?: number;
  maxQueueWaitMs?: number;
  /** One part of a zip shared between workers: analyse only this part's files (PreparedScan.shardFiles). */
  shard?: ScanShard;
}

/** Fixed for the life of a worker (piscina workerData). */
export interface ScanWorkerData {
  limits?: Partial<ScanLimits>;
  /** Absolute path of a module exporting `prepare` (default: the real engine). Tests inject slow/crashing engines here. */
  engineModule?: string;
}

/** A module the worker can run: the CPU-bound half of a scan. */
export interface ScanEngineModule {
  prepare(task: ScanTask, options: { limits?: Partial<ScanLimits> }): PreparedScan | Promise<PreparedScan>;
  /** Resolves once a scan needs no further start-up work (parsers loaded); awaited by the start-up probe. */
  ready?(): Promise<void>;
}

export interface SerializedDomainError {
  status: number;
  detail: string;
}

/**
 * Domain errors lose their class crossing a thread boundary, so the worker answers with a tagged
 * result and the pool rebuilds the error. Anything that is not a domain error is an internal failure.
 */
export type ScanTaskResult =
  | { ok: true; prepared: PreparedScan; /** Time the worker spent on it (for Retry-After and admission). */ runMs: number }
  | { ok: true; pong: true }
  | { ok: false; error: SerializedDomainError };

export function serializeError(err: unknown): SerializedDomainError {
  if (err instanceof DomainError && (err.status === 400 || err.status === 413 || err.status === 502)) {
    return { status: err.status, detail: err.detail };
  }
  return { status: 502, detail: 'The scanner failed while analysing the upload.' };
}

/** The worker's answer for a scan that waited too long to start: refused, never processed. */
export const EXPIRED_IN_QUEUE: SerializedDomainError = { status: 503, detail: 'Scan capacity is saturated; retry later.' };

export function rehydrateError(e: SerializedDomainError, retryAfterSeconds: number): DomainError {
  if (e.status === 400) return new BadRequestError(e.detail);
  if (e.status === 413) return new PayloadTooLargeError(e.detail);
  if (e.status === 503) return new ServiceUnavailableError(e.detail, retryAfterSeconds);
  return new ScannerFailedError(e.detail);
}

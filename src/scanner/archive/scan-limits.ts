/**
 * The scan endpoint's upload limits (KB = 1,024 bytes), plus our safety limits for archives
 * (docs/scanner-pipeline.md "Limits and inflation"). One object so tests and the CLI can pass smaller values.
 */
export interface ScanLimits {
  /** Regular files per upload (directories and OS metadata are not counted). */
  maxFiles: number;
  /** Uncompressed bytes per file. */
  maxFileBytes: number;
  /** Uncompressed bytes over the whole upload, every inflated entry included. */
  maxTotalBytes: number;
  /** Raw upload bytes (enforced by the HTTP layer while streaming; re-checked by the engine). */
  maxUploadBytes: number;
  /** Largest accepted uncompressed:compressed ratio of one entry. */
  maxCompressionRatio: number;
  /** Entries below this uncompressed size are exempt from the ratio rule (tiny files compress oddly). */
  ratioFloorBytes: number;
  /** Central-directory records of any type (files, directories, metadata) we are willing to parse. */
  maxEntries: number;
  /** Longest accepted entry name, in bytes. */
  maxNameBytes: number;
}

export const KB = 1024;
export const MB = 1024 * KB;

export const DEFAULT_SCAN_LIMITS: Readonly<ScanLimits> = Object.freeze({
  maxFiles: 3,
  maxFileBytes: 250 * KB,
  maxTotalBytes: 750 * KB,
  maxUploadBytes: 1 * MB,
  maxCompressionRatio: 100,
  ratioFloorBytes: 8 * KB,
  maxEntries: 64,
  maxNameBytes: 1024,
});

/**
 * `bulwark scan --local` (docs/decisions/0015-local-per-file-limit.md): no upload crosses a network,
 * so the per-file limit is the engine's, not the server's. Analysis is linear, and the CLI gives
 * each file the same time per byte as the server does. Archive safety limits stay as they are.
 */
export const LOCAL_SCAN_LIMITS: Readonly<ScanLimits> = Object.freeze({
  ...DEFAULT_SCAN_LIMITS,
  maxFileBytes: 4 * MB,
  maxTotalBytes: 12 * MB,
  maxUploadBytes: 16 * MB,
});

/** "250 KB" style rendering for error messages (limits are whole KB / MB). */
export function formatBytes(n: number): string {
  if (n >= MB && n % MB === 0) return `${n / MB} MB`;
  if (n >= KB && n % KB === 0) return `${n / KB} KB`;
  return `${n} bytes`;
}

/** Injection tokens of the scanner module (interface + same-named token, docs/decisions/0020-config-providers-and-migrations.md). */

/** `ScanExecutor`: runs the CPU-bound phase of a scan (default: the piscina worker pool). */
export const SCAN_EXECUTOR = Symbol('SCAN_EXECUTOR');

/** `ScanPoolOptions` for the default executor; tests override it to inject slow or crashing engines. */
export const SCAN_POOL_OPTIONS = Symbol('SCAN_POOL_OPTIONS');

/** Raw upload limit in bytes enforced while streaming (1 MB, docs/scanner-pipeline.md "Upload"). */
export const SCAN_UPLOAD_LIMIT_BYTES = Symbol('SCAN_UPLOAD_LIMIT_BYTES');

/**
 * One output shape for every benchmark part: a list of figures (value, unit, optional target and
 * pass/miss) plus free-form details, written to bench/results/<part>.json. The runner (bench/run.ts)
 * reads these files and prints one table; each part can also run alone.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

export type TargetOp = '<=' | '>=';

export interface Target {
  op: TargetOp;
  value: number;
}

export interface Figure {
  /** Stable key, e.g. `api.pg.get.rps_ratio`. */
  id: string;
  label: string;
  value: number | null;
  unit: string;
  target?: Target;
  /** true = meets the target, false = misses it, null = no target or not measured. */
  pass: boolean | null;
  note?: string;
}

export type PartStatus = 'ok' | 'skipped' | 'failed';

export interface PartResult {
  bench: string;
  status: PartStatus;
  /** Why the part (or some of its figures) did not run, or the error when it failed. */
  reason?: string;
  when: string;
  node: string;
  cpus: number;
  /** 1-minute load average at start and end: the machine is shared, so this says how noisy the run was. */
  load_average_1m: { start: number; end: number };
  duration_s: number;
  figures: Figure[];
  details: Record<string, unknown>;
}

export const RESULTS_DIR = join(__dirname, '..', 'results');

export function meets(value: number, target: Target): boolean {
  return target.op === '<=' ? value <= target.value : value >= target.value;
}

export function figure(id: string, label: string, value: number | null, unit: string, target?: Target, note?: string): Figure {
  const pass = target && value !== null && Number.isFinite(value) ? meets(value, target) : null;
  return { id, label, value: value !== null && Number.isFinite(value) ? value : null, unit, ...(target ? { target } : {}), pass, ...(note ? { note } : {}) };
}

export const atMost = (value: number): Target => ({ op: '<=', value });
export const atLeast = (value: number): Target => ({ op: '>=', value });

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Collects a part's figures; `runPart` writes the file whatever happens. */
export class PartReport {
  readonly figures: Figure[] = [];
  readonly details: Record<string, unknown> = {};
  status: PartStatus = 'ok';
  reason?: string;

  constructor(readonly name: string) {}

  add(f: Figure): Figure {
    this.figures.push(f);
    return f;
  }

  /** A figure that could not be measured in this run (no PostgreSQL, peer failed, ...). */
  skip(id: string, label: string, unit: string, reason: string, target?: Target): void {
    this.figures.push({ id, label, value: null, unit, ...(target ? { target } : {}), pass: null, note: reason });
  }

  skipPart(reason: string): void {
    this.status = 'skipped';
    this.reason = reason;
  }
}

export function resultFileOf(name: string): string {
  return join(RESULTS_DIR, `${name}.json`);
}

export function writePartResult(result: PartResult): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = resultFileOf(result.bench);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

/**
 * Runs one part as the main of its process: builds the report, writes bench/results/<name>.json and
 * prints it (JSON) to stdout; exit code 1 when the part threw (the file then says `failed`).
 */
export function runPart(name: string, body: (report: PartReport) => Promise<void>): void {
  const report = new PartReport(name);
  const started = performance.now();
  const loadStart = round2(loadavg()[0]!);
  const finish = (err?: unknown): void => {
    if (err !== undefined) {
      report.status = 'failed';
      report.reason = err instanceof Error ? err.message : String(err);
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    }
    const result: PartResult = {
      bench: name,
      status: report.status,
      ...(report.reason ? { reason: report.reason } : {}),
      when: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      load_average_1m: { start: loadStart, end: round2(loadavg()[0]!) },
      duration_s: Math.round((performance.now() - started) / 100) / 10,
      figures: report.figures,
      details: report.details,
    };
    writePartResult(result);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    // Servers, pools and clients a part forgot to close must not keep the runner waiting.
    process.exit(err === undefined ? 0 : 1);
  };
  body(report).then(
    () => finish(),
    (err: unknown) => finish(err ?? new Error('unknown failure')),
  );
}

/** Small statistics helpers shared by the bench parts. */

export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function median(xs: readonly number[]): number {
  return percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
}

export interface LatencySummary {
  n: number;
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
  max_ms: number;
}

export function summarize(samples: readonly number[]): LatencySummary {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  return {
    n: s.length,
    p50_ms: round(percentile(s, 50), 2),
    p99_ms: round(percentile(s, 99), 2),
    mean_ms: round(mean, 2),
    max_ms: round(s[s.length - 1] ?? NaN, 2),
  };
}

export const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
};

export const flag = (name: string): boolean => process.argv.includes(`--${name}`);

/** Peak resident set of this process so far, in MB (getrusage ru_maxrss). */
export const peakRssMb = (): number => round(process.resourceUsage().maxRSS / 1024, 0);

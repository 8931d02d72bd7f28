import { UsageError } from './cli-io';

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** Longest accepted `--expires-in`: ten years. */
const MAX_DURATION_MS = 3650 * 86_400_000;

/**
 * Parses `--expires-in` values such as `30d`, `12h`, `90m`, `2w` into milliseconds. Minutes are
 * the smallest unit: a key that expires within seconds is a mistake, not a use case.
 */
export function parseDuration(raw: string, flag = '--expires-in'): number {
  const m = /^(\d{1,6})([mhdw])$/.exec(raw.trim());
  if (!m) throw new UsageError(`${flag} must be a number followed by m, h, d or w (e.g. 90m, 12h, 30d); got "${raw}"`);
  const ms = Number(m[1]) * UNIT_MS[m[2]];
  if (ms <= 0) throw new UsageError(`${flag} must be greater than zero; got "${raw}"`);
  if (ms > MAX_DURATION_MS) throw new UsageError(`${flag} must be at most 3650d; got "${raw}"`);
  return ms;
}

import type { Clock } from '../../src/common/clock/clock';

/** A clock that only moves when the test says so. Starts at a fixed, realistic epoch. */
export class FakeClock implements Clock {
  constructor(private current = Date.UTC(2026, 0, 1, 12, 0, 0)) {}

  now(): number {
    return this.current;
  }

  /** Move forward by `ms` (negative values are refused: windows assume time does not run back). */
  advance(ms: number): void {
    if (ms < 0) throw new Error('FakeClock cannot move backwards');
    this.current += ms;
  }

  set(epochMs: number): void {
    this.current = epochMs;
  }
}

import type { Clock } from './clock';

/** The real wall clock. */
export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
}

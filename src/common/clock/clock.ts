/**
 * Injectable time source (DESIGN.md §2: pluggable provider = interface + same-named token).
 * Rate-limit windows read time only through this, so tests drive time with a fake clock and the
 * Redis store receives `now` from here instead of reading the Redis server's clock.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** Injection token for {@link Clock}. */
export const Clock = Symbol('Clock');

/**
 * Injectable time source (pluggable provider = interface + same-named token,
 * docs/decisions/0020-config-providers-and-migrations.md).
 * Rate-limit windows read time only through this, so tests drive time with a fake clock and the
 * Redis store receives `now` from here instead of reading the Redis server's clock.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** Injection token for {@link Clock}. */
export const Clock = Symbol('Clock');

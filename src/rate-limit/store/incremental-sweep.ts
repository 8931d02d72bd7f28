/**
 * Below this many entries the sweep rests: a handful of dead windows costs less memory than
 * restarting a Map iterator on every request would cost time (a pass over a tiny map ends, and a
 * new iterator is allocated, on nearly every call).
 */
export const SWEEP_REST_BELOW = 256;

/**
 * Drops dead entries of a Map a few at a time, so a store's memory stays bounded by its live
 * entries (plus at most {@link SWEEP_REST_BELOW}) without a timer or a full scan. Called with more
 * steps than the caller can insert per call, the cursor outpaces growth and every dead entry is
 * reached. Amortised O(1); Map iterators tolerate deletion.
 */
export class IncrementalSweep<K, V> {
  private cursor: Iterator<[K, V]> | null = null;

  constructor(
    private readonly map: Map<K, V>,
    /** Whether an entry can go at time `now`; `remove` then deletes it (default: from the map). */
    private readonly isDead: (value: V, now: number) => boolean,
    private readonly remove: (key: K, value: V) => void = (key) => this.map.delete(key),
  ) {}

  /** Visits up to `steps` entries, dropping those dead at `now`. */
  step(steps: number, now: number): void {
    if (this.map.size < SWEEP_REST_BELOW) return;
    for (let step = 0; step < steps; step++) {
      this.cursor ??= this.map.entries();
      const next = this.cursor.next();
      if (next.done) {
        this.cursor = null;
        return;
      }
      const [key, value] = next.value;
      if (this.isDead(value, now)) this.remove(key, value);
    }
  }
}

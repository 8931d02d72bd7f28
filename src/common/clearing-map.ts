/**
 * A Map for memos whose keys come from clients (source networks, request paths, tenant slugs):
 * adding a new key when it already holds `maxEntries` empties it first, so no spread of keys can
 * grow it without bound. Emptying at once costs one recompute per live key afterwards and nothing
 * per lookup (no LRU bookkeeping on hot paths); `get` is Map's own.
 */
export class ClearingMap<K, V> extends Map<K, V> {
  constructor(private readonly maxEntries: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.maxEntries && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}

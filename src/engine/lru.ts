export type LruOptions<V> = {
  maxEntries: number;
  /** With `weigh`: forget old entries while the weights add up to more than this. */
  maxWeight?: number;
  weigh?: (value: V) => number;
};

/**
 * A map that forgets its least recently used entries beyond a number of entries or a total
 * weight (bytes, list lengths). A `Map` keeps insertion order, so re-inserting on every hit is
 * enough to keep the oldest entry first.
 */
export class Lru<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #maxEntries: number;
  readonly #maxWeight: number;
  readonly #weigh: (value: V) => number;
  #weight = 0;
  /** The key last set or moved to the end: the most recently used. */
  #newest: K | undefined;

  constructor(options: LruOptions<V>) {
    this.#maxEntries = options.maxEntries;
    this.#maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY;
    this.#weigh = options.weigh ?? (() => 0);
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    // Moved to the end, unless it is there already (the same key asked for again and again).
    if (value !== undefined && key !== this.#newest) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
      this.#newest = key;
    }
    return value;
  }

  /** The value for `key`, made by `produce` and remembered when it is not there. */
  getOr(key: K, produce: () => V): V {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = produce();
    this.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    const previous = this.#entries.get(key);
    if (previous !== undefined) {
      this.#entries.delete(key);
      this.#weight -= this.#weigh(previous);
    }
    this.#entries.set(key, value);
    this.#newest = key;
    this.#weight += this.#weigh(value);
    while (this.#entries.size > this.#maxEntries || this.#weight > this.#maxWeight) {
      const oldest = this.#entries.entries().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value[0]);
      this.#weight -= this.#weigh(oldest.value[1]);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}

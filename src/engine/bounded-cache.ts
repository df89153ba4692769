export type BoundedCacheOptions<V> = {
  /** Forget the oldest entries while there are more than this (default: no bound). */
  maxEntries?: number;
  /** Forget the oldest entries while their costs add up to more than this (default: no bound). */
  maxCost?: number;
  /**
   * Leave an entry in place on a hit when it was used within the last `size / 2` uses: nearly
   * least-recently-used, and a hot entry costs one lookup. Otherwise every hit on an entry that is
   * not the newest moves it to the end.
   */
  looseOrder?: boolean;
  /** What a value costs when `set` is not told (default 0). */
  costOf?: (value: V) => number;
};

type Slot<K, V> = { key: K; value: V; cost: number; touched: number };

/**
 * A map that forgets its least recently used entries beyond a number of entries and/or a total
 * cost (bytes, list lengths), the cost of each entry given when it is set. A `Map` keeps insertion
 * order, so moving an entry to the end on a hit keeps the oldest entry first.
 */
export class BoundedCache<K, V> {
  readonly #slots = new Map<K, Slot<K, V>>();
  readonly #maxEntries: number;
  readonly #maxCost: number;
  readonly #loose: boolean;
  readonly #costOf: (value: V) => number;
  #cost = 0;
  /** Counts sets and hits; an entry stamped with the latest count is the newest. */
  #clock = 0;

  constructor(options: BoundedCacheOptions<V>) {
    this.#maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
    this.#maxCost = options.maxCost ?? Number.POSITIVE_INFINITY;
    this.#loose = options.looseOrder ?? false;
    this.#costOf = options.costOf ?? (() => 0);
  }

  get size(): number {
    return this.#slots.size;
  }

  /** What the entries cost together, within `maxCost` after every change. */
  get cost(): number {
    return this.#cost;
  }

  /** The value for `key`, made the most recently used. */
  get(key: K): V | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    this.#touch(key, slot);
    return slot.value;
  }

  /**
   * `get`, for a value that `matches` `probe` only: a key that stands for others (a hash) finds
   * the value it was set with, or undefined with the order left as it is.
   */
  getIf<P>(key: K, matches: (value: V, probe: P) => boolean, probe: P): V | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined || !matches(slot.value, probe)) return undefined;
    this.#touch(key, slot);
    return slot.value;
  }

  /** The value for `key`, its place in the order left as it is. */
  peek(key: K): V | undefined {
    return this.#slots.get(key)?.value;
  }

  /** The value for `key`, made by `produce` and remembered when it is not there. */
  getOr(key: K, produce: () => V): V {
    const slot = this.#slots.get(key);
    if (slot !== undefined) {
      this.#touch(key, slot);
      return slot.value;
    }
    const value = produce();
    this.set(key, value);
    return value;
  }

  /**
   * Keeps `value` as the newest entry, replacing any for `key`, then forgets the oldest entries
   * beyond the bounds: the new one too when it alone costs more than `maxCost`.
   */
  set(key: K, value: V, cost = this.#costOf(value)): void {
    const previous = this.#slots.get(key);
    if (previous !== undefined) {
      this.#slots.delete(key);
      this.#cost -= previous.cost;
    }
    this.#slots.set(key, { key, value, cost, touched: ++this.#clock });
    this.#cost += cost;
    this.#evict();
  }

  /** Counts the entry for `key` at a new cost, then forgets the oldest entries beyond the bounds. */
  recost(key: K, cost: number): void {
    const slot = this.#slots.get(key);
    if (slot === undefined) return;
    this.#cost += cost - slot.cost;
    slot.cost = cost;
    this.#evict();
  }

  delete(key: K): boolean {
    const slot = this.#slots.get(key);
    if (slot === undefined) return false;
    this.#slots.delete(key);
    this.#cost -= slot.cost;
    return true;
  }

  clear(): void {
    this.#slots.clear();
    this.#cost = 0;
  }

  #touch(key: K, slot: Slot<K, V>): void {
    const now = ++this.#clock;
    if (this.#loose) {
      if (now - slot.touched <= this.#slots.size / 2) return;
    } else if (slot.touched === now - 1) {
      // Stamped with the count just before this one: the newest already, and still.
      slot.touched = now;
      return;
    }
    this.#slots.delete(key);
    this.#slots.set(key, slot);
    slot.touched = now;
  }

  #evict(): void {
    if (this.#slots.size <= this.#maxEntries && this.#cost <= this.#maxCost) return;
    for (const slot of this.#slots.values()) {
      if (this.#slots.size <= this.#maxEntries && this.#cost <= this.#maxCost) break;
      this.#slots.delete(slot.key);
      this.#cost -= slot.cost;
    }
  }
}

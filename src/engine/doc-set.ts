import { sortedHas } from './int-lists.ts';

/** Above this share of the collection, a membership test reads a bitmap, not a binary search. */
const DENSE_SHARE = 1 / 32;

/**
 * A sorted list of doc indices, such as the docs that have one skill. Tests of membership in
 * large sets go through a bitmap, built the first time it is needed and kept with the set.
 */
export class DocSet {
  readonly ids: Int32Array;
  readonly #universe: number;
  #bits: Uint32Array | undefined;

  constructor(ids: Int32Array, universe: number) {
    this.ids = ids;
    this.#universe = universe;
  }

  get size(): number {
    return this.ids.length;
  }

  /** A test of membership: `has(i)` for any doc index `i`. */
  tester(): (index: number) => boolean {
    const ids = this.ids;
    if (ids.length < this.#universe * DENSE_SHARE) {
      return (index) => sortedHas(ids, 0, ids.length, index);
    }
    const bits = this.#bitmap();
    return (index) => ((bits[index >>> 5] as number) & (1 << (index & 31))) !== 0;
  }

  #bitmap(): Uint32Array {
    if (this.#bits === undefined) {
      const bits = new Uint32Array((this.#universe + 31) >>> 5);
      const ids = this.ids;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i] as number;
        bits[id >>> 5] = (bits[id >>> 5] as number) | (1 << (id & 31));
      }
      this.#bits = bits;
    }
    return this.#bits;
  }
}

/** The set no doc is in: a name nobody has. */
export const NO_DOCS = new DocSet(new Int32Array(0), 0);

const encoder = new TextEncoder();

/**
 * The JSON of recently served objects as UTF-8, so a page of 30 full profiles is a copy of bytes
 * rather than 30 regenerations and serializations. 100,000 profiles of ~5 KB each must not all
 * stay in memory, so the texts share one ring of `maxBytes`: each is written at the head, and the
 * oldest are overwritten. A text read from the older half of the ring is written again at the
 * head, so the texts in use stay while the others age out (close to least-recently-used).
 * One buffer instead of one allocation per text: replacing thousands of ~5 KB texts one by one
 * fragments the JS heap, or the allocator's, to several times what is alive in them.
 */
export class JsonCache {
  readonly #ring: Uint8Array;
  /** Bytes ever consumed, skipped ends of the ring included: the window is the last ring length. */
  #end = 0;
  /** Per object: where its text starts, counted like `#end`; NaN when it has none. */
  readonly #starts: Float64Array;
  readonly #lengths: Int32Array;

  constructor(count: number, maxBytes: number) {
    this.#ring = new Uint8Array(maxBytes);
    this.#starts = new Float64Array(count).fill(Number.NaN);
    this.#lengths = new Int32Array(count);
  }

  /**
   * The JSON of object `index` (from `produce` when not cached), valid until the next call: the
   * ring may overwrite it then, so copy it before asking for another.
   */
  get(index: number, produce: () => string): Uint8Array {
    const start = this.#starts[index] as number;
    const capacity = this.#ring.length;
    if (start >= this.#end - capacity) {
      const length = this.#lengths[index] as number;
      const text = this.#ring.subarray(start % capacity, (start % capacity) + length);
      if (start >= this.#end - capacity / 2) return text;
      return this.#write(index, text.slice());
    }
    return this.#write(index, encoder.encode(produce()));
  }

  #write(index: number, text: Uint8Array): Uint8Array {
    const capacity = this.#ring.length;
    if (text.length > capacity / 4) return text;
    let at = this.#end % capacity;
    if (at + text.length > capacity) {
      this.#end += capacity - at;
      at = 0;
    }
    this.#ring.set(text, at);
    this.#starts[index] = this.#end;
    this.#lengths[index] = text.length;
    this.#end += text.length;
    return this.#ring.subarray(at, at + text.length);
  }
}

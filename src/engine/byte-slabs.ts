/**
 * Keeps many short byte runs side by side in shared slabs, each run a view of its slab: one
 * allocation per slab instead of one per run (a typed array of more than 64 bytes has its memory
 * outside the JavaScript heap; a view of memory already made does not). A slab is freed when no
 * run in it is referenced any more, so whoever keeps a run for long keeps its whole slab: runs
 * that live long belong in slabs of their own kind.
 */
export class ByteSlabs {
  readonly #slabBytes: number;
  #slab = new Uint8Array(0);
  #at = 0;

  constructor(slabBytes: number) {
    this.#slabBytes = slabBytes;
  }

  /** A copy of `bytes` in the current slab (a copy of its own when it is large). */
  keep(bytes: Uint8Array): Uint8Array {
    const view = this.take(bytes.length);
    view.set(bytes);
    return view;
  }

  /** `size` bytes in the current slab (an array of their own past 1/16 of one). */
  take(size: number): Uint8Array {
    if (size > this.#slabBytes / 16) return new Uint8Array(size);
    if (this.#at + size > this.#slab.length) {
      this.#slab = new Uint8Array(this.#slabBytes);
      this.#at = 0;
    }
    const view = this.#slab.subarray(this.#at, this.#at + size);
    // Each run starts on 8 bytes, as the allocator would place it.
    this.#at += (size + 7) & ~7;
    return view;
  }
}

/**
 * Keeps many short byte runs side by side in shared slabs, each run a view of its slab: one
 * allocation per slab instead of one per run. A typed array of more than 64 bytes has its memory
 * outside the JavaScript heap and costs ~0.5 µs to make (a view of memory already made: ~0.1 µs);
 * zlib hands back each result as a view of a 16 KB buffer of its own (ten thousand kept parts of
 * ~1.5 KB held 160 MB that way, where slabs hold 15 MB). A slab is freed when no run in it is
 * referenced any more, so whoever keeps a run for long keeps its whole slab: runs that live long
 * belong in slabs of their own kind.
 */
export class ByteSlabs<Bytes extends Uint8Array = Uint8Array> {
  readonly #slabBytes: number;
  readonly #make: (size: number) => Bytes;
  #slab: Bytes;
  #at = 0;

  /** `make`: how a slab, or a run too large for one, is allocated (not zeroed, if it can). */
  constructor(slabBytes: number, make: (size: number) => Bytes) {
    this.#slabBytes = slabBytes;
    this.#make = make;
    this.#slab = make(0);
  }

  /** A copy of `bytes` in the current slab (a copy of its own when it is large). */
  keep(bytes: Uint8Array): Bytes {
    const view = this.take(bytes.length);
    view.set(bytes);
    return view;
  }

  /** `size` bytes, not zeroed, in the current slab (an array of their own past 1/16 of one). */
  take(size: number): Bytes {
    if (size > this.#slabBytes / 16) return this.#make(size);
    if (this.#at + size > this.#slab.length) {
      this.#slab = this.#make(this.#slabBytes);
      this.#at = 0;
    }
    const view = this.#slab.subarray(this.#at, this.#at + size) as Bytes;
    // Each run starts on 8 bytes, as the allocator would place it.
    this.#at += (size + 7) & ~7;
    return view;
  }
}

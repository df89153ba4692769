/** Where an answer's bytes are made: kept slabs, or buffers taken back once written. */
export type Allocator = { take(size: number): Buffer };

/** Sizes pooled, as powers of two: 4 KB (a short answer) to 1 MiB. */
const MIN_CLASS = 12;
const MAX_CLASS = 20;
/** Buffers kept free per size: more than the answers in flight on a busy server. */
const FREE_PER_CLASS = 64;

/**
 * Buffers for answers that are written once and dropped (no answer cache), each given back when
 * its response has finished and made again into the next answer: writing into memory used before
 * costs no page faults (docs/performance.md, "Shapes kept for speed").
 *
 * A buffer is given back only when nothing can read it any more: after the 'finish' of the
 * response that wrote it, which Node emits once the socket has taken every byte. A response that
 * never finishes (its client left) never gives its buffer back, and the garbage collector takes
 * it as it would any other.
 */
export class OutputPool implements Allocator {
  readonly #free: ArrayBuffer[][] = Array.from({ length: MAX_CLASS + 1 }, () => []);
  /** The memory handed out and not given back yet: nothing else is ever taken back. */
  readonly #taken = new WeakSet<ArrayBufferLike>();

  take(size: number): Buffer {
    const k = sizeClass(size);
    if (k > MAX_CLASS) return Buffer.allocUnsafeSlow(size);
    const memory = this.#free[k]?.pop() ?? new ArrayBuffer(2 ** k);
    this.#taken.add(memory);
    return Buffer.from(memory, 0, size);
  }

  /** Whether `buffer` is one `take` made and nobody gave back yet. */
  owns(buffer: Uint8Array): boolean {
    return this.#taken.has(buffer.buffer);
  }

  /** Gives back a buffer `take` made, once it is no longer read; anything else is ignored. */
  release(buffer: Buffer): void {
    const memory = buffer.buffer;
    if (!this.#taken.delete(memory)) return;
    const free = this.#free[sizeClass(memory.byteLength)] as ArrayBuffer[];
    if (free.length < FREE_PER_CLASS) free.push(memory as ArrayBuffer);
  }

  /** How many buffers are free, for tests. */
  get free(): number {
    return this.#free.reduce((sum, list) => sum + list.length, 0);
  }
}

function sizeClass(size: number): number {
  return Math.max(MIN_CLASS, Math.ceil(Math.log2(Math.max(size, 1))));
}

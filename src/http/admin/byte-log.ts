/** A piece too large for the log (over a quarter of it): kept on the heap by the caller. */
export const TOO_LARGE = -1;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Text and bytes written one after another into one preallocated buffer, round and round: a
 * piece stays readable until the writes after it have gone once round the buffer. Writing holds
 * no new object on the heap, so that what a server keeps per request never outlives the young
 * generation. Positions are absolute (bytes written since the start), safe to 2^53.
 */
export class ByteLog {
  readonly #bytes: Uint8Array;
  readonly #largest: number;
  #head = 0;
  /** The length in bytes of the last piece written. */
  length = 0;

  constructor(capacity: number) {
    this.#bytes = new Uint8Array(capacity);
    this.#largest = Math.floor(capacity / 4);
  }

  /** Writes text as UTF-8; its absolute position, or TOO_LARGE. */
  writeText(text: string): number {
    if (text.length > this.#largest) return TOO_LARGE;
    const at = this.#head % this.#bytes.length;
    const room = Math.min(this.#bytes.length - at, this.#largest);
    let done = encoder.encodeInto(text, this.#bytes.subarray(at, at + room));
    if (done.read < text.length) {
      // Not enough room before the end: from the buffer's start, unless it began there.
      if (at === 0) return TOO_LARGE;
      this.#head += this.#bytes.length - at;
      done = encoder.encodeInto(text, this.#bytes.subarray(0, this.#largest));
      if (done.read < text.length) return TOO_LARGE;
    }
    return this.#taken(done.written);
  }

  /** Copies bytes; their absolute position, or TOO_LARGE. */
  writeBytes(bytes: Uint8Array): number {
    if (bytes.length > this.#largest) return TOO_LARGE;
    let at = this.#head % this.#bytes.length;
    if (at + bytes.length > this.#bytes.length) {
      this.#head += this.#bytes.length - at;
      at = 0;
    }
    this.#bytes.set(bytes, at);
    return this.#taken(bytes.length);
  }

  /** Whether the piece written at `start` is still whole. */
  holds(start: number): boolean {
    return start >= 0 && start >= this.#head - this.#bytes.length;
  }

  /** The piece at `start` of `length` bytes, as UTF-8 text. */
  read(start: number, length: number): string {
    const at = start % this.#bytes.length;
    return decoder.decode(this.#bytes.subarray(at, at + length));
  }

  #taken(length: number): number {
    const start = this.#head;
    this.#head += length;
    this.length = length;
    return start;
  }
}

/** Bytes as UTF-8 text. */
export function textOf(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

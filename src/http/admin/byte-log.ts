const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Text and bytes written one after another into one buffer, round and round: a piece stays
 * readable until the writes after it have gone once round the buffer. Writing holds no new
 * object on the heap, so that what a server keeps per request never outlives the young
 * generation. Positions are absolute (bytes written since the start), safe to 2^53; a piece is
 * never split across the buffer's end. `grow` enlarges it, keeping what it holds.
 */
export class ByteLog {
  #bytes: Uint8Array;
  #head = 0;
  /** Pieces before this position were overwritten before the last `grow`. */
  #floor = 0;
  /** The length in bytes of the last piece written. */
  length = 0;
  /** How many characters of the last text written were written (fewer: it was cut). */
  charsWritten = 0;

  constructor(capacity: number) {
    this.#bytes = new Uint8Array(capacity);
  }

  get capacity(): number {
    return this.#bytes.length;
  }

  /** Where the next piece goes. */
  get head(): number {
    return this.#head;
  }

  /** Writes text as UTF-8, cut at `max` bytes (never inside a character); its position. */
  writeText(text: string, max: number): number {
    const capacity = this.#bytes.length;
    let at = this.#head % capacity;
    const limit = Math.min(max, capacity);
    let done = encoder.encodeInto(text, this.#bytes.subarray(at, at + limit));
    if (done.read < text.length && capacity - at < limit) {
      // Not enough room before the end: from the buffer's start.
      this.#head += capacity - at;
      at = 0;
      done = encoder.encodeInto(text, this.#bytes.subarray(0, limit));
    }
    this.charsWritten = done.read;
    return this.#taken(done.written);
  }

  /** Copies bytes (the caller cuts them to fit); their position. */
  writeBytes(bytes: Uint8Array): number {
    const capacity = this.#bytes.length;
    let at = this.#head % capacity;
    if (at + bytes.length > capacity) {
      this.#head += capacity - at;
      at = 0;
    }
    this.#bytes.set(bytes, at);
    this.charsWritten = bytes.length;
    return this.#taken(bytes.length);
  }

  /** Whether the piece written at `start` is still whole. */
  holds(start: number): boolean {
    return start >= this.#floor && start >= this.#head - this.#bytes.length;
  }

  /** The piece at `start` of `length` bytes, as UTF-8 text. */
  read(start: number, length: number): string {
    const at = start % this.#bytes.length;
    return decoder.decode(this.#bytes.subarray(at, at + length));
  }

  /**
   * A buffer `times` as large holding every piece this one holds, at the same positions (a
   * whole multiple keeps each piece away from the buffer's end).
   */
  grow(times: number): void {
    const old = this.#bytes;
    const capacity = old.length * times;
    const bytes = new Uint8Array(capacity);
    const start = Math.max(this.#floor, this.#head - old.length, 0);
    for (let p = start; p < this.#head; ) {
      const from = p % old.length;
      const to = p % capacity;
      const n = Math.min(this.#head - p, old.length - from, capacity - to);
      bytes.set(old.subarray(from, from + n), to);
      p += n;
    }
    this.#floor = start;
    this.#bytes = bytes;
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

/** How many bytes text takes as UTF-8, counted without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let k = 0; k < text.length; k++) {
    const code = text.charCodeAt(k);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00 && k + 1 < text.length) {
      bytes += 4;
      k++;
    } else bytes += 3;
  }
  return bytes;
}

/** The length of `bytes` cut to at most `max`, never inside a UTF-8 character. */
export function cutLength(bytes: Uint8Array, max: number): number {
  if (bytes.length <= max) return bytes.length;
  let cut = max;
  while (cut > 0 && ((bytes[cut] as number) & 0xc0) === 0x80) cut--;
  return cut;
}

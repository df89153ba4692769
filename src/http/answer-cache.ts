/** A whole answer, as written on the wire. */
export type CachedAnswer = {
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** The body gzipped, made once for clients that accept it. */
  gzip?: Buffer;
  /** Ready-made header lists for the plain and the gzipped body, made on first use. */
  wire?: { plain?: string[]; gzip?: string[] };
};

/**
 * Least-recently-used answers, bounded in bytes. The mock's data never change and its answers are
 * pure functions of the request, so an answer served once can be served again as bytes.
 */
export class AnswerCache {
  readonly #maxBytes: number;
  readonly #entries = new Map<string, { answer: CachedAnswer; touched: number }>();
  #bytes = 0;
  #clock = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): CachedAnswer | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    // Map keeps insertion order: moving an entry to the end makes the first one the oldest. An
    // entry moved recently is left where it is, so a hot answer costs one lookup and no more.
    const now = ++this.#clock;
    if (now - entry.touched > this.#entries.size / 2) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      entry.touched = now;
    }
    return entry.answer;
  }

  set(key: string, answer: CachedAnswer): void {
    const size = sizeOf(key, answer);
    if (size > this.#maxBytes / 8) return;
    const old = this.#entries.get(key);
    if (old !== undefined) {
      this.#entries.delete(key);
      this.#bytes -= sizeOf(key, old.answer);
    }
    this.#entries.set(key, { answer, touched: ++this.#clock });
    this.#bytes += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= sizeOf(oldest, entry.answer);
    }
  }
}

function sizeOf(key: string, answer: CachedAnswer): number {
  return key.length * 2 + answer.body.length + (answer.gzip?.length ?? 0) + 256;
}

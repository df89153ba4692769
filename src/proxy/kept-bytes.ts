/** A copy of a stream's bytes up to a limit, and how many bytes went by in all. */
export class Kept {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  size = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size <= this.#limit) this.#chunks.push(chunk);
    else this.#chunks.length = 0;
  }

  /** Whether `more` bytes would still be kept. */
  fits(more: number): boolean {
    return this.size + more <= this.#limit;
  }

  get over(): boolean {
    return this.size > this.#limit;
  }

  /** The bytes, or undefined when there were more than the limit. */
  bytes(): Buffer | undefined {
    if (this.over) return undefined;
    return this.#chunks.length === 1 ? this.#chunks[0] : Buffer.concat(this.#chunks);
  }

  /** The bytes as they were read, not joined; undefined when there were more than the limit. */
  pieces(): Buffer[] | undefined {
    return this.over ? undefined : this.#chunks;
  }
}

const encoder = new TextEncoder();

/**
 * Builds one UTF-8 text from pieces in a scratch buffer kept between uses (operations run one at
 * a time), so an answer of ~160 KB costs one copy of each piece and one copy of the result.
 */
export class JsonWriter {
  static #scratch = new Uint8Array(256 * 1024);
  #length = 0;

  /** Appends JSON text. */
  text(json: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.#reserve(json.length * 3);
    this.#length += encoder.encodeInto(json, JsonWriter.#scratch.subarray(this.#length)).written;
  }

  /** Appends JSON already encoded as UTF-8. */
  bytes(json: Uint8Array): void {
    this.#reserve(json.length);
    JsonWriter.#scratch.set(json, this.#length);
    this.#length += json.length;
  }

  /** The text written, in a buffer of its own. */
  finish(): Uint8Array {
    return JsonWriter.#scratch.slice(0, this.#length);
  }

  #reserve(more: number): void {
    const scratch = JsonWriter.#scratch;
    if (this.#length + more <= scratch.length) return;
    const grown = new Uint8Array(Math.max(scratch.length * 2, this.#length + more));
    grown.set(scratch.subarray(0, this.#length));
    JsonWriter.#scratch = grown;
  }
}

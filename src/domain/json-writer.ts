const encoder = new TextEncoder();
/** The comma between two objects of a list: one piece for all (a piece is never written to). */
const COMMA = Uint8Array.of(0x2c);
/** Texts up to this long are tried as ASCII first. */
const SHORT_TEXT = 64;

/** Where an object's JSON comes from: the same bytes for the same index, every time. */
export type JsonSource = { json(index: number): Uint8Array };

/**
 * A piece of an answer: glue text of its own (as UTF-8), or the JSON of object `index` of
 * `source`, read again from the source when the answer is written. A transport may keep work
 * done on a stored object's bytes (their compression) by source and index.
 */
export type Piece = Uint8Array | { source: JsonSource; index: number };

/**
 * Builds one JSON text from glue and stored objects without copying the objects: the text is a
 * list of pieces, put together once by whoever writes it, as plain bytes or as gzip made of
 * each object's compressed bytes. Glue is collected in a scratch buffer kept between uses
 * (operations run one at a time) and copied out once, at the end, into one buffer that every
 * glue piece is a view of: one allocation per answer, not one per run of glue.
 */
export class JsonWriter {
  static #scratch = new Uint8Array(16 * 1024);
  #length = 0;
  /** Where the glue not yet closed by an object starts in the scratch buffer. */
  #from = 0;
  /**
   * The pieces so far; a run of glue as the offset where it ends in the scratch buffer (it starts
   * where the run before it ended) until `finish`: a number, not a pair allocated per run.
   */
  readonly #pieces: (Piece | number)[] = [];

  /** Appends JSON text. */
  text(json: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.#reserve(json.length * 3);
    const scratch = JsonWriter.#scratch;
    const at = this.#length;
    if (json.length <= SHORT_TEXT) {
      // Glue is mostly a comma or a bracket: ASCII is copied here, without a call into C++
      // (a third of a microsecond each, dozens of times an answer); anything else is encoded.
      let i = 0;
      for (; i < json.length; i++) {
        const unit = json.charCodeAt(i);
        if (unit >= 0x80) break;
        scratch[at + i] = unit;
      }
      if (i === json.length) {
        this.#length = at + i;
        return;
      }
    }
    this.#length += encoder.encodeInto(json, scratch.subarray(at)).written;
  }

  /** Appends JSON already encoded as UTF-8 (copied). */
  bytes(json: Uint8Array): void {
    this.#reserve(json.length);
    JsonWriter.#scratch.set(json, this.#length);
    this.#length += json.length;
  }

  /**
   * Appends `,`: right after an object, as a piece shared by every answer (no run of glue of its
   * own, which would be a view made per comma); after glue, as glue.
   */
  comma(): void {
    if (this.#length === this.#from && this.#pieces.length > 0) {
      const last = this.#pieces[this.#pieces.length - 1];
      if (typeof last === 'object' && !(last instanceof Uint8Array)) {
        this.#pieces.push(COMMA);
        return;
      }
    }
    this.text(',');
  }

  /** Appends the JSON of object `index` of `source`, by reference. */
  object(source: JsonSource, index: number): void {
    this.#close();
    this.#pieces.push({ source, index });
  }

  /** The pieces written, the glue in views of one buffer of its own. */
  finish(): Piece[] {
    this.#close();
    const glue = JsonWriter.#scratch.slice(0, this.#length);
    this.#length = 0;
    this.#from = 0;
    // The list itself becomes the answer's, its glue ends turned into views in place.
    const pieces = this.#pieces;
    let start = 0;
    for (let k = 0; k < pieces.length; k++) {
      const piece = pieces[k];
      if (typeof piece !== 'number') continue;
      pieces[k] = glue.subarray(start, piece);
      start = piece;
    }
    return pieces as Piece[];
  }

  #close(): void {
    if (this.#length === this.#from) return;
    this.#pieces.push(this.#length);
    this.#from = this.#length;
  }

  #reserve(more: number): void {
    const scratch = JsonWriter.#scratch;
    if (this.#length + more <= scratch.length) return;
    const grown = new Uint8Array(Math.max(scratch.length * 2, this.#length + more));
    grown.set(scratch.subarray(0, this.#length));
    JsonWriter.#scratch = grown;
  }
}

/**
 * The pieces as one text, the objects' JSON read from their sources now, made in what `make`
 * gives (a new array unless told). A source may reuse its buffer on its next read, so each
 * object is read once for its length and again to be copied.
 */
export function joinPieces(
  pieces: readonly Piece[],
  make: (size: number) => Uint8Array = (size) => new Uint8Array(size),
): Uint8Array {
  let size = 0;
  for (const piece of pieces)
    size += piece instanceof Uint8Array ? piece.length : piece.source.json(piece.index).length;
  const out = make(size);
  let at = 0;
  for (const piece of pieces) {
    const bytes = piece instanceof Uint8Array ? piece : piece.source.json(piece.index);
    out.set(bytes, at);
    at += bytes.length;
  }
  return out;
}

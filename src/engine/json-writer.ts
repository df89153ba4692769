import { ByteSlabs } from './byte-slabs.ts';

const encoder = new TextEncoder();
/**
 * Where answers' glue is kept: slabs of 64 KB, not a `slice` each. An answer is written and
 * dropped, or copied out by whoever keeps it, so no glue keeps a slab for long.
 */
const GLUE = new ByteSlabs(64 * 1024);
/** The comma between two objects of a list: one piece for all (a piece is never written to). */
const COMMA = Uint8Array.of(0x2c);
/** Texts up to this long are tried as ASCII first. */
const SHORT_TEXT = 64;

/** Deeper values go to JSON.stringify whole (which also finds a cycle and throws). */
const MAX_DIRECT_DEPTH = 32;
/** Numbers from here on are written by `String`: their ten-thousandths may not be exact. */
const MAX_DIGITS_NUMBER = 2 ** 31;
/** The most bytes `writeNumber` writes: a sign, ten digits, a point and four decimals. */
const NUMBER_BYTES = 16;

/**
 * Writes a number as JSON.stringify does, at `start`, when it is whole or a fraction of
 * ten-thousandths (every score) under `MAX_DIGITS_NUMBER`: such a double's shortest round-trip
 * form is that decimal, trailing zeros dropped. Returns where it ends, or -1 for any other
 * number (`String` writes it).
 */
function writeNumber(out: Uint8Array, start: number, value: number): number {
  const magnitude = value < 0 ? -value : value;
  const units = Math.round(magnitude * 10_000);
  if (!(magnitude < MAX_DIGITS_NUMBER) || units / 10_000 !== magnitude) return -1;
  let at = start;
  if (value < 0) out[at++] = 0x2d;
  const whole = Math.floor(units / 10_000);
  let digits = 1;
  for (let rest = whole; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  let end = at + digits;
  for (let rest = whole, k = end - 1; k >= at; k--) {
    const next = Math.floor(rest / 10);
    out[k] = 0x30 + (rest - next * 10);
    rest = next;
  }
  let fraction = units - whole * 10_000;
  if (fraction > 0) {
    out[end++] = 0x2e;
    for (let unit = 1000; fraction > 0; unit /= 10) {
      const digit = Math.floor(fraction / unit);
      out[end++] = 0x30 + digit;
      fraction -= digit * unit;
    }
  }
  return end;
}

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
 * (operations run one at a time) and copied out once, at the end, into one run of the shared
 * glue slabs that every glue piece is a view of: no allocation per answer or per run of glue.
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

  /**
   * Appends `JSON.stringify(value)`. The values answers hold (null, booleans, numbers, strings,
   * arrays and plain objects of them) are written straight into the buffer, never through a
   * string encoded again. Anything else (a `toJSON`, a class instance, a
   * BigInt, nesting past `MAX_DIRECT_DEPTH`) is handed to JSON.stringify whole, so the bytes, and
   * the errors it throws, are always its own.
   */
  value(value: unknown): void {
    const start = this.#length;
    if (!this.#direct(value, 0)) {
      this.#length = start;
      this.text(JSON.stringify(value));
    }
  }

  /** Writes `value` as JSON; false, with a part of it written, for what only JSON.stringify does. */
  #direct(value: unknown, depth: number): boolean {
    if (typeof value === 'number') {
      this.#number(value);
      return true;
    }
    if (typeof value === 'string') {
      this.#string(value);
      return true;
    }
    if (value === null || typeof value === 'boolean') {
      this.#ascii(value === null ? 'null' : value ? 'true' : 'false');
      return true;
    }
    if (typeof value !== 'object' || depth >= MAX_DIRECT_DEPTH || 'toJSON' in value) return false;
    return Array.isArray(value) ? this.#array(value, depth) : this.#object(value, depth);
  }

  #array(items: readonly unknown[], depth: number): boolean {
    this.#reserve(1);
    JsonWriter.#scratch[this.#length++] = 0x5b;
    for (let i = 0; i < items.length; i++) {
      // Room for a comma and a number, or a null, written here without a call.
      this.#reserve(NUMBER_BYTES + 1);
      const scratch = JsonWriter.#scratch;
      if (i > 0) scratch[this.#length++] = 0x2c;
      const item: unknown = items[i];
      if (typeof item === 'number') {
        this.#number(item);
      } else if (item === null || item === undefined) {
        // As JSON.stringify writes what has no JSON form inside an array.
        const at = this.#length;
        scratch[at] = 0x6e;
        scratch[at + 1] = 0x75;
        scratch[at + 2] = 0x6c;
        scratch[at + 3] = 0x6c;
        this.#length = at + 4;
      } else if (!this.#direct(item, depth + 1)) {
        return false;
      }
    }
    this.#reserve(1);
    JsonWriter.#scratch[this.#length++] = 0x5d;
    return true;
  }

  #object(value: object, depth: number): boolean {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return false;
    this.#ascii('{');
    let first = true;
    for (const key of Object.keys(value)) {
      const member: unknown = (value as Record<string, unknown>)[key];
      if (member === undefined) continue;
      if (!first) this.#ascii(',');
      first = false;
      this.#string(key);
      this.#ascii(':');
      if (!this.#direct(member, depth + 1)) return false;
    }
    this.#ascii('}');
    return true;
  }

  #number(value: number): void {
    this.#reserve(NUMBER_BYTES);
    const at = writeNumber(JsonWriter.#scratch, this.#length, value);
    if (at >= 0) this.#length = at;
    else this.#ascii(Number.isFinite(value) ? String(value) : 'null');
  }

  /** A string as JSON: as it is when nothing in it needs escaping or encoding. */
  #string(value: string): void {
    this.#reserve(value.length + 2);
    const scratch = JsonWriter.#scratch;
    const start = this.#length;
    scratch[start] = 0x22;
    for (let i = 0; i < value.length; i++) {
      const unit = value.charCodeAt(i);
      if (unit < 0x20 || unit >= 0x7f || unit === 0x22 || unit === 0x5c) {
        this.#length = start;
        this.text(JSON.stringify(value));
        return;
      }
      scratch[start + 1 + i] = unit;
    }
    scratch[start + 1 + value.length] = 0x22;
    this.#length = start + value.length + 2;
  }

  /** Text known to be ASCII. */
  #ascii(text: string): void {
    this.#reserve(text.length);
    const scratch = JsonWriter.#scratch;
    const at = this.#length;
    for (let i = 0; i < text.length; i++) scratch[at + i] = text.charCodeAt(i);
    this.#length = at + text.length;
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
    const glue = GLUE.keep(JsonWriter.#scratch.subarray(0, this.#length));
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

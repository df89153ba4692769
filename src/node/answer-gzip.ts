import type { JsonSource, Piece } from '../engine/json-writer.ts';
import { deflatePart, GZIP_FRAME_BYTES, GzipWriter, storedSize } from './gzip-parts.ts';
import type { Allocator } from './output-pool.ts';

/** Compressed objects kept per source: ~20,000 profiles of ~1.6 KB each. */
const PARTS_PER_SOURCE_BYTES = 32 * 1024 * 1024;
/** Below this share of stored objects, the glue would go uncompressed and gzip gains little. */
const MIN_OBJECT_SHARE = 0.5;
const MIN_BYTES = 1024;
/** Kept parts are copied side by side into slabs of this size (larger ones get one each). */
const SLAB_BITS = 20;
const SLAB_BYTES = 2 ** SLAB_BITS;
/** Before its DEFLATE bytes, each part's four numbers: DEFLATE length, CRC, plain length, shift. */
const HEAD_BYTES = 16;

/**
 * One source's compressed objects: per object index where its part is, and each part in a slab
 * as its four numbers then its DEFLATE bytes. In the server each answer reads ~30 parts no recent
 * answer read, out of cache. As GzipPart objects in a Map, a part cost an entry, an object and a
 * typed array before its bytes; with its numbers in an array of their own, one miss there and
 * one at its bytes; with its numbers just before its bytes, the line they share is the one the
 * copy reads first anyway. A source is emptied, between answers, once its parts pass
 * `PARTS_PER_SOURCE_BYTES`.
 */
class KeptParts {
  /**
   * Per object index: (slab + 1) · 2^SLAB_BITS + offset of its part; 0 before it is made. Fits in
   * 32 bits below 4,095 slabs: the budget allows ~550 (32 MiB in parts over 64 KiB, or in 1 MiB
   * slabs), and one answer adds at most a part per object it holds (100) before the next is
   * checked against it.
   */
  #places = new Uint32Array(1024);
  /** Each slab as bytes and as 32-bit words (parts start on 4 bytes). */
  #slabs: Uint8Array[] = [];
  #words: Uint32Array[] = [];
  /** The slab short parts go into, and where its free bytes start. */
  #current = -1;
  #at = 0;
  #bytes = 0;
  /** The answer that last asked for parts: a source is emptied only before an answer's first. */
  answer = -1;

  get bytes(): number {
    return this.#bytes;
  }

  /** Where object `index`'s part is, compressed now if it was not yet. */
  placeOf(source: JsonSource, index: number): number {
    const place = index < this.#places.length ? (this.#places[index] as number) : 0;
    return place !== 0 ? place : this.#add(source, index);
  }

  deflatedLength(place: number): number {
    return (this.#words[(place >>> SLAB_BITS) - 1] as Uint32Array)[
      (place & (SLAB_BYTES - 1)) >>> 2
    ] as number;
  }

  plainLength(place: number): number {
    return (this.#words[(place >>> SLAB_BITS) - 1] as Uint32Array)[
      ((place & (SLAB_BYTES - 1)) >>> 2) + 2
    ] as number;
  }

  write(writer: GzipWriter, place: number): void {
    const slab = (place >>> SLAB_BITS) - 1;
    const offset = place & (SLAB_BYTES - 1);
    const words = this.#words[slab] as Uint32Array;
    const head = offset >>> 2;
    const start = offset + HEAD_BYTES;
    // A view made with its constructor: `subarray` looks up the species and cost ~10 ns more
    // a part (~0.3 µs an answer of 30).
    writer.deflated(
      new Uint8Array(words.buffer, start, words[head] as number),
      words[head + 1] as number,
      words[head + 2] as number,
      words[head + 3] as number,
    );
  }

  empty(): void {
    this.#places = new Uint32Array(this.#places.length);
    this.#slabs = [];
    this.#words = [];
    this.#current = -1;
    this.#at = 0;
    this.#bytes = 0;
  }

  #add(source: JsonSource, index: number): number {
    const part = deflatePart(source.json(index), 6);
    const size = HEAD_BYTES + part.deflated.length;
    let slab: number;
    let offset = 0;
    if (size > SLAB_BYTES / 16) {
      slab = this.#slab(size);
    } else {
      if (this.#current < 0 || this.#at + size > SLAB_BYTES) {
        this.#current = this.#slab(SLAB_BYTES);
        this.#at = 0;
      }
      slab = this.#current;
      offset = this.#at;
      this.#at += (size + 3) & ~3;
    }
    const words = this.#words[slab] as Uint32Array;
    words.set([part.deflated.length, part.crc, part.length, part.shift], offset >>> 2);
    (this.#slabs[slab] as Uint8Array).set(part.deflated, offset + HEAD_BYTES);
    const place = (slab + 1) * SLAB_BYTES + offset;
    if (index >= this.#places.length) {
      const places = new Uint32Array(Math.max(this.#places.length * 2, index + 1));
      places.set(this.#places);
      this.#places = places;
    }
    this.#places[index] = place;
    this.#bytes += size;
    return place;
  }

  /** A new slab of `size` bytes (rounded up to 4); its number. */
  #slab(size: number): number {
    const memory = new ArrayBuffer((size + 3) & ~3);
    this.#words.push(new Uint32Array(memory));
    return this.#slabs.push(new Uint8Array(memory)) - 1;
  }
}

const kept = new WeakMap<JsonSource, KeptParts>();
const writer = new GzipWriter();
/** Per piece of the answer being made (one at a time): the place of its part (0 for glue). */
let PLACES = new Uint32Array(256);
let answers = 0;

/**
 * The gzip of an answer made mostly of stored objects, from their compressed JSON (each
 * compressed once) and the glue between them as stored blocks: a copy and a CRC combine per
 * piece, not a compression of the whole answer, which is never assembled. Undefined when it
 * would not pay: a short answer, or one whose bytes are mostly glue (minimal grading items,
 * predictions). `into`: where to make it, for an answer that is written and dropped.
 */
export function gzipFromPieces(pieces: readonly Piece[], into?: Allocator): Buffer | undefined {
  const answer = ++answers;
  if (PLACES.length < pieces.length) PLACES = new Uint32Array(pieces.length * 2);
  const places = PLACES;
  let size = GZIP_FRAME_BYTES;
  let glue = 0;
  let objects = 0;
  // The pieces of an answer come from one source or few: its parts are looked up once a run.
  let source: JsonSource | undefined;
  let parts: KeptParts | undefined;
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k] as Piece;
    if (piece instanceof Uint8Array) {
      glue += piece.length;
      size += storedSize(piece.length);
      places[k] = 0;
      continue;
    }
    if (piece.source !== source || parts === undefined) {
      source = piece.source;
      parts = partsOf(source, answer);
    }
    const place = parts.placeOf(source, piece.index);
    places[k] = place;
    objects += parts.plainLength(place);
    size += parts.deflatedLength(place);
  }
  if (objects + glue < MIN_BYTES || objects < (objects + glue) * MIN_OBJECT_SHARE) return undefined;
  const out = into === undefined ? Buffer.allocUnsafe(size) : into.take(size);
  writer.begin(out);
  // The parts again, found as above: no list of them per answer (an array grown piece by piece).
  source = undefined;
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k] as Piece;
    if (piece instanceof Uint8Array) {
      writer.plain(piece);
      continue;
    }
    if (piece.source !== source || parts === undefined) {
      source = piece.source;
      parts = kept.get(source) as KeptParts;
    }
    parts.write(writer, places[k] as number);
  }
  writer.end();
  return out;
}

/** A source's kept parts, emptied first when over budget and not yet read by this answer. */
function partsOf(source: JsonSource, answer: number): KeptParts {
  let parts = kept.get(source);
  if (parts === undefined) {
    parts = new KeptParts();
    kept.set(source, parts);
  }
  if (parts.answer !== answer) {
    parts.answer = answer;
    if (parts.bytes > PARTS_PER_SOURCE_BYTES) parts.empty();
  }
  return parts;
}

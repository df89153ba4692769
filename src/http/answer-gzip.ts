import type { JsonSource, Piece } from '../domain/json-writer.ts';
import { deflatePart, GZIP_FRAME_BYTES, GzipWriter, storedSize } from './gzip-parts.ts';
import type { Allocator } from './output-pool.ts';

/** Compressed objects kept per source: ~20,000 profiles of ~1.6 KB each. */
const PARTS_PER_SOURCE_BYTES = 32 * 1024 * 1024;
/** Below this share of stored objects, the glue would go uncompressed and gzip gains little. */
const MIN_OBJECT_SHARE = 0.5;
const MIN_BYTES = 1024;
/** Kept parts are copied side by side into slabs of this size (larger ones get one each). */
const SLAB_BYTES = 1024 * 1024;
/** Numbers kept per part: slab, offset, DEFLATE length, CRC, plain length, CRC shift. */
const META = 6;

/**
 * One source's compressed objects, in flat arrays: per object index a slot, per slot six numbers,
 * the bytes in shared slabs. In the server each answer reads ~30 parts no recent answer read, out
 * of cache: looked up in a Map, each part cost an entry, an object and its typed array before its
 * bytes, three misses; here a slot and its numbers are two. A source is emptied, between
 * answers, once its parts pass `PARTS_PER_SOURCE_BYTES`.
 */
class KeptParts {
  /** Per object index, its slot plus one (0: not compressed yet). */
  #slots = new Int32Array(1024);
  #meta = new Uint32Array(1024 * META);
  #count = 0;
  /** Plain typed arrays: a view of one is made per part written, and Buffer's `subarray` costs more. */
  #slabs: Uint8Array[] = [];
  /** The slab short parts go into, and where its free bytes start. */
  #current = -1;
  #at = 0;
  #bytes = 0;
  /** The answer that last asked for parts: a source is emptied only before an answer's first. */
  answer = -1;

  get bytes(): number {
    return this.#bytes;
  }

  /** The slot of object `index`, compressed now if it was not yet. */
  slotOf(source: JsonSource, index: number): number {
    const slot = index < this.#slots.length ? (this.#slots[index] as number) - 1 : -1;
    return slot >= 0 ? slot : this.#add(source, index);
  }

  deflatedLength(slot: number): number {
    return this.#meta[slot * META + 2] as number;
  }

  plainLength(slot: number): number {
    return this.#meta[slot * META + 4] as number;
  }

  write(writer: GzipWriter, slot: number): void {
    const meta = this.#meta;
    const at = slot * META;
    const offset = meta[at + 1] as number;
    const slab = this.#slabs[meta[at] as number] as Uint8Array;
    writer.deflated(
      slab.subarray(offset, offset + (meta[at + 2] as number)),
      meta[at + 3] as number,
      meta[at + 4] as number,
      meta[at + 5] as number,
    );
  }

  empty(): void {
    this.#slots = new Int32Array(this.#slots.length);
    this.#count = 0;
    this.#slabs = [];
    this.#current = -1;
    this.#at = 0;
    this.#bytes = 0;
  }

  #add(source: JsonSource, index: number): number {
    const part = deflatePart(source.json(index), 6);
    const size = part.deflated.length;
    let slab: number;
    let offset = 0;
    if (size > SLAB_BYTES / 16) {
      slab = this.#slabs.push(new Uint8Array(part.deflated)) - 1;
    } else {
      if (this.#current < 0 || this.#at + size > SLAB_BYTES) {
        this.#current = this.#slabs.push(new Uint8Array(SLAB_BYTES)) - 1;
        this.#at = 0;
      }
      slab = this.#current;
      offset = this.#at;
      (this.#slabs[slab] as Uint8Array).set(part.deflated, offset);
      this.#at += size;
    }
    const slot = this.#count++;
    if ((slot + 1) * META > this.#meta.length) this.#meta = grown(this.#meta, (slot + 1) * META);
    this.#meta.set([slab, offset, size, part.crc, part.length, part.shift], slot * META);
    if (index >= this.#slots.length) this.#slots = grown(this.#slots, index + 1);
    this.#slots[index] = slot + 1;
    this.#bytes += size;
    return slot;
  }
}

function grown<T extends Int32Array | Uint32Array>(values: T, least: number): T {
  const bigger = new (values.constructor as new (n: number) => T)(
    Math.max(values.length * 2, least),
  );
  bigger.set(values);
  return bigger;
}

const kept = new WeakMap<JsonSource, KeptParts>();
const writer = new GzipWriter();
/** Per piece of the answer being made (one at a time): its source's parts and slot, or glue. */
const SOURCES: (KeptParts | undefined)[] = [];
let SLOTS = new Int32Array(256);
let answers = 0;

/**
 * The gzip of an answer made mostly of stored objects, from their compressed JSON (each
 * compressed once) and the glue between them as stored blocks: a copy and a CRC combine per
 * piece, not a compression of the whole answer, which is never assembled. Undefined when it
 * would not pay: a short answer, or one whose bytes are mostly glue (minimal grading items,
 * predictions). `into`: where to make it, for an answer that is written and dropped.
 */
export function gzipFromPieces(pieces: readonly Piece[], into?: Allocator): Buffer | undefined {
  try {
    return gzipOfPieces(pieces, into);
  } finally {
    // Emptied whatever happened: a throw must not leave its sources to the next answer.
    SOURCES.length = 0;
  }
}

function gzipOfPieces(pieces: readonly Piece[], into: Allocator | undefined): Buffer | undefined {
  const answer = ++answers;
  if (SLOTS.length < pieces.length) SLOTS = new Int32Array(pieces.length * 2);
  const slots = SLOTS;
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
      SOURCES.push(undefined);
      continue;
    }
    if (piece.source !== source || parts === undefined) {
      source = piece.source;
      parts = partsOf(source, answer);
    }
    const slot = parts.slotOf(source, piece.index);
    slots[k] = slot;
    SOURCES.push(parts);
    objects += parts.plainLength(slot);
    size += parts.deflatedLength(slot);
  }
  if (objects + glue < MIN_BYTES || objects < (objects + glue) * MIN_OBJECT_SHARE) return undefined;
  const out = into === undefined ? Buffer.allocUnsafe(size) : into.take(size);
  writer.begin(out);
  for (let k = 0; k < pieces.length; k++) {
    const from = SOURCES[k];
    if (from === undefined) writer.plain(pieces[k] as Uint8Array);
    else from.write(writer, slots[k] as number);
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

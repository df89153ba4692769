import { ByteSlabs } from '../domain/byte-slabs.ts';
import type { Piece } from '../domain/json-writer.ts';
import { deflatePart, type GzipPart, gzipOf } from './gzip-parts.ts';
import type { Allocator } from './output-pool.ts';

/** Compressed objects kept per source: ~20,000 profiles of ~1.5 KB each. */
const PARTS_PER_SOURCE_BYTES = 32 * 1024 * 1024;
/** Below this share of stored objects, the glue would go uncompressed and gzip gains little. */
const MIN_OBJECT_SHARE = 0.5;
const MIN_BYTES = 1024;

/** Per source, its objects' parts by index, and their bytes in all. */
type Kept = { parts: Map<number, GzipPart>; bytes: number };
const kept = new WeakMap<object, Kept>();
/** The kept parts' bytes: slabs of 1 MiB, each holding ~600 parts side by side. */
const slabs = new ByteSlabs(1024 * 1024, (size) => Buffer.allocUnsafeSlow(size));
/** The parts of the answer being made: one list for every answer (they are made one at a time). */
const PARTS: (GzipPart | Uint8Array)[] = [];

/**
 * The gzip of an answer made mostly of stored objects, from their compressed JSON (each
 * compressed once) and the glue between them as stored blocks: a copy and a CRC combine per
 * piece, not a compression of the whole answer, which is never assembled. Undefined when it
 * would not pay: a short answer, or one whose bytes are mostly glue (minimal grading items,
 * predictions). `into`: where to make it, for an answer that is written and dropped.
 */
export function gzipFromPieces(pieces: readonly Piece[], into?: Allocator): Buffer | undefined {
  try {
    return gzipOfPieces(pieces, PARTS, into);
  } finally {
    // Emptied whatever happened, or a throw would leave its parts in the next answer.
    PARTS.length = 0;
  }
}

function gzipOfPieces(
  pieces: readonly Piece[],
  parts: (GzipPart | Uint8Array)[],
  into: Allocator | undefined,
): Buffer | undefined {
  let glue = 0;
  let objects = 0;
  // The pieces of an answer come from one source or few: its parts are looked up once a run.
  let source: object | undefined;
  let sourceParts: Kept | undefined;
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k] as Piece;
    if (piece instanceof Uint8Array) {
      glue += piece.length;
      parts.push(piece);
      continue;
    }
    if (piece.source !== source || sourceParts === undefined) {
      source = piece.source;
      sourceParts = keptOf(piece.source);
    }
    const part = sourceParts.parts.get(piece.index) ?? partOf(sourceParts, piece);
    objects += part.length;
    parts.push(part);
  }
  if (objects + glue < MIN_BYTES || objects < (objects + glue) * MIN_OBJECT_SHARE) return undefined;
  return gzipOf(parts, into);
}

function keptOf(source: object): Kept {
  let found = kept.get(source);
  if (found === undefined) {
    found = { parts: new Map(), bytes: 0 };
    kept.set(source, found);
  }
  return found;
}

/** A stored object's part, compressed on first use; past the budget, the kept ones start over. */
function partOf(source: Kept, piece: Exclude<Piece, Uint8Array>): GzipPart {
  const part = deflatePart(piece.source.json(piece.index), 6, slabs);
  if (source.bytes + part.deflated.length > PARTS_PER_SOURCE_BYTES) {
    source.parts = new Map();
    source.bytes = 0;
  }
  source.parts.set(piece.index, part);
  source.bytes += part.deflated.length;
  return part;
}

import type { Piece } from '../domain/json-writer.ts';
import { Lru } from '../domain/lru.ts';
import { deflatePart, type GzipPart, gzipOf, storedPart } from './gzip-parts.ts';

/** Compressed objects kept per source: ~20,000 profiles of ~1.5 KB each. */
const PARTS_PER_SOURCE_BYTES = 32 * 1024 * 1024;
/** Below this share of stored objects, the glue would go uncompressed and gzip gains little. */
const MIN_OBJECT_SHARE = 0.5;
const MIN_BYTES = 1024;

const kept = new WeakMap<object, Lru<number, GzipPart>>();

/**
 * The gzip of an answer made mostly of stored objects, from their compressed JSON (each
 * compressed once) and the glue between them as stored blocks: a copy and a CRC combine per
 * piece, not a compression of the whole answer, which is never assembled. Undefined when it
 * would not pay: a short answer, or one whose bytes are mostly glue (minimal grading items,
 * predictions).
 */
export function gzipFromPieces(pieces: readonly Piece[]): Buffer | undefined {
  let glue = 0;
  let objects = 0;
  const parts: GzipPart[] = [];
  for (const piece of pieces) {
    if (piece instanceof Uint8Array) {
      glue += piece.length;
      continue;
    }
    const part = partOf(piece);
    objects += part.length;
    parts.push(part);
  }
  if (objects + glue < MIN_BYTES || objects < (objects + glue) * MIN_OBJECT_SHARE) return undefined;
  let next = 0;
  return gzipOf(
    pieces.map((piece) =>
      piece instanceof Uint8Array ? storedPart(piece) : (parts[next++] as GzipPart),
    ),
  );
}

function partOf(piece: Exclude<Piece, Uint8Array>): GzipPart {
  let parts = kept.get(piece.source);
  if (parts === undefined) {
    parts = new Lru({
      maxEntries: Number.POSITIVE_INFINITY,
      maxWeight: PARTS_PER_SOURCE_BYTES,
      weigh: (part) => part.deflated.length + 64,
    });
    kept.set(piece.source, parts);
  }
  return parts.getOr(piece.index, () => deflatePart(piece.source.json(piece.index)));
}

import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A gzip body assembled from pieces compressed once and kept: the JSON of an answer is mostly
 * the JSON of objects served again and again in other combinations, and compressing ~50 KB per
 * answer costs ten times the rest of the answer. Each piece is a run of DEFLATE blocks that ends
 * byte-aligned and not final (a sync flush), so any sequence of pieces is one DEFLATE stream;
 * the gzip trailer's CRC-32 is combined from the pieces' own, in the way zlib's
 * `crc32_combine` does, without reading the bytes again.
 */
export type GzipPart = {
  /** Raw DEFLATE blocks, none final, ending on a byte boundary. */
  readonly deflated: Uint8Array;
  /** CRC-32 of the uncompressed bytes. */
  readonly crc: number;
  /** Length of the uncompressed bytes. */
  readonly length: number;
  /** x^(8 * length) modulo the CRC polynomial: what shifts a CRC past these bytes. */
  readonly shift: number;
};

/**
 * Compresses `bytes` into a part of its own (no back-references outside it). Its bytes are as
 * zlib gives them, which may be a view of a larger buffer of zlib's: copy them to keep many.
 */
export function deflatePart(bytes: Uint8Array, level = 6): GzipPart {
  const deflated = deflateRawSync(bytes, { level, finishFlush: constants.Z_SYNC_FLUSH });
  return { deflated, crc: crc32(bytes), length: bytes.length, shift: shiftFor(bytes.length) };
}

const MAX_STORED = 0xffff;
/** CRC-32 (the reflected polynomial of gzip). */
const POLY = 0xedb88320;

/** The bytes `length` plain bytes take as stored DEFLATE blocks (`GzipWriter.plain`). */
export function storedSize(length: number): number {
  return length + 5 * Math.max(1, Math.ceil(length / MAX_STORED));
}

/** Writes `bytes` as stored blocks into `out` at `at`; returns where they end. */
function writeStored(bytes: Uint8Array, out: Uint8Array, start: number): number {
  let at = start;
  for (let from = 0; from < bytes.length || at === start; from += MAX_STORED) {
    const size = Math.min(MAX_STORED, bytes.length - from);
    // BFINAL 0, BTYPE 00 (stored), padded to the byte; then LEN and its complement, little-endian.
    out[at] = 0;
    out[at + 1] = size & 0xff;
    out[at + 2] = size >>> 8;
    out[at + 3] = ~size & 0xff;
    out[at + 4] = (~size >>> 8) & 0xff;
    at += 5;
    if (size <= SHORT) {
      // Most glue is a comma or a closing bracket: a loop, not a view and a native copy.
      for (let i = 0; i < size; i++) out[at + i] = bytes[from + i] as number;
    } else {
      out.set(from === 0 && size === bytes.length ? bytes : bytes.subarray(from, from + size), at);
    }
    at += size;
  }
  return at;
}

/** Up to this many bytes, copying and CRC-32 run in JavaScript: a native call costs more. */
const SHORT = 64;

/** CRC-32 of each byte value, for `crcOf` on short runs. */
const CRC_TABLE = new Int32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (POLY & -(c & 1));
  CRC_TABLE[n] = c;
}

/** `crc` continued over `bytes`, as zlib's `crc32(bytes, crc)`. */
export function crcOf(bytes: Uint8Array, crc: number): number {
  if (bytes.length > SHORT) return crc32(bytes, crc);
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) {
    c = (CRC_TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  }
  return ~c >>> 0;
}

const HEADER = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff);
/** An empty final block with fixed codes: BFINAL 1, BTYPE 01, end-of-block. */
const FINAL = Uint8Array.of(0x03, 0x00);

/** The bytes of a gzip file around its blocks: header, final empty block, CRC and length. */
export const GZIP_FRAME_BYTES = HEADER.length + FINAL.length + 8;

/**
 * Writes one gzip file into a buffer sized for it beforehand (`GZIP_FRAME_BYTES`, plus each
 * part's DEFLATE bytes or `storedSize` of plain bytes): `begin`, the parts in order, `end`. One
 * writer serves every file, made one at a time.
 */
export class GzipWriter {
  #out: Uint8Array = HEADER;
  #at = 0;
  #crc = 0;
  #length = 0;

  begin(out: Uint8Array): void {
    out.set(HEADER, 0);
    this.#out = out;
    this.#at = HEADER.length;
    this.#crc = 0;
    this.#length = 0;
  }

  /** Plain bytes (glue between objects, made for one answer), as stored blocks. */
  plain(bytes: Uint8Array): void {
    this.#at = writeStored(bytes, this.#out, this.#at);
    this.#crc = crcOf(bytes, this.#crc);
    this.#length += bytes.length;
  }

  /** A compressed part: its DEFLATE bytes, and the CRC, length and shift of what they hold. */
  deflated(bytes: Uint8Array, crc: number, length: number, shift: number): void {
    this.#out.set(bytes, this.#at);
    this.#at += bytes.length;
    this.#crc = (multiplyModP(shift, this.#crc) ^ crc) >>> 0;
    this.#length += length;
  }

  /** Closes the file; returns its size. */
  end(): number {
    const out = this.#out;
    let at = this.#at;
    out.set(FINAL, at);
    at += FINAL.length;
    for (const word of [this.#crc, this.#length >>> 0]) {
      out[at++] = word & 0xff;
      out[at++] = (word >>> 8) & 0xff;
      out[at++] = (word >>> 16) & 0xff;
      out[at++] = word >>> 24;
    }
    this.#out = HEADER;
    return at;
  }
}

/**
 * a * b modulo the CRC polynomial, both as reflected 32-bit polynomials (bit 31 is x^0). Without
 * branches on the bits: with two data-dependent branches a step, a random `a` mispredicted half of
 * them and the product cost ~6 times as much, once per object of every gzipped answer.
 */
function multiplyModP(a: number, b: number): number {
  let p = 0;
  let x = b | 0;
  // The bits of a, x^0 first, taken from the sign; done when none is left.
  for (let bits = a | 0; bits !== 0; bits <<= 1) {
    p ^= x & (bits >> 31);
    x = (x >>> 1) ^ (POLY & -(x & 1));
  }
  return p >>> 0;
}

/** x^(2^k) modulo P, for k from 0: squares of x, the steps of any power. */
const POWERS: number[] = [0x40000000];
for (let k = 1; k < 32; k++) {
  const previous = POWERS[k - 1] as number;
  POWERS.push(multiplyModP(previous, previous));
}

/** x^(8 * bytes) modulo P. */
function shiftFor(bytes: number): number {
  let p = 0x80000000;
  // 8 * bytes = bytes shifted by 3: start at the power x^(2^3).
  for (let n = bytes, k = 3; n > 0; n = Math.floor(n / 2), k++) {
    if (n % 2 === 1) p = multiplyModP(POWERS[k % 32] as number, p);
  }
  return p;
}

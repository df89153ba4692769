import { crc32, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  crcOf,
  deflatePart,
  GZIP_FRAME_BYTES,
  type GzipPart,
  GzipWriter,
  storedSize,
} from '../../src/node/gzip-parts.ts';

const encoder = new TextEncoder();

/** Deterministic bytes: JSON-like text, so that compression has something to find. */
function text(seed: number, length: number): Uint8Array {
  let x = seed || 1;
  let out = '';
  while (out.length < length) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out += `{"key":"${x.toString(16)}","name":"Léa ${x % 97}","value":${x % 1000}},`;
  }
  return encoder.encode(out.slice(0, length));
}

/** One gzip file of the parts in order: compressed parts, or plain bytes written as stored blocks. */
function gzipOf(parts: readonly (GzipPart | Uint8Array)[]): Buffer {
  let size = GZIP_FRAME_BYTES;
  for (const part of parts) {
    size += part instanceof Uint8Array ? storedSize(part.length) : part.deflated.length;
  }
  const out = Buffer.alloc(size);
  const writer = new GzipWriter();
  writer.begin(out);
  for (const part of parts) {
    if (part instanceof Uint8Array) writer.plain(part);
    else writer.deflated(part.deflated, part.crc, part.length, part.shift);
  }
  expect(writer.end()).toBe(size);
  return out;
}

/** A part of stored (uncompressed) blocks, as zlib makes them at level 0. */
function storedPart(bytes: Uint8Array): GzipPart {
  return deflatePart(bytes, 0);
}

function concat(chunks: Uint8Array[]): Buffer {
  return Buffer.concat(chunks.map((c) => Buffer.from(c)));
}

describe('gzip assembled from parts compressed once', () => {
  it('inflates to the parts’ bytes in order, CRC and length checked by gunzip', () => {
    const chunks = [text(1, 120), text(2, 5000), text(3, 3), text(4, 20000)];
    const parts = chunks.map((c, i) => (i % 2 === 0 ? storedPart(c) : deflatePart(c)));
    expect(gunzipSync(gzipOf(parts)).equals(concat(chunks))).toBe(true);
  });

  it('takes empty parts and no parts', () => {
    expect(gunzipSync(gzipOf([])).equals(Buffer.alloc(0))).toBe(true);
    const empty = [storedPart(new Uint8Array(0)), deflatePart(new Uint8Array(0))];
    expect(gunzipSync(gzipOf(empty)).equals(Buffer.alloc(0))).toBe(true);
  });

  it('splits stored parts longer than one block holds (65,535 bytes)', () => {
    const long = text(5, 200_000);
    expect(gunzipSync(gzipOf([storedPart(long)])).equals(Buffer.from(long))).toBe(true);
  });

  it('reuses one part many times in one body', () => {
    const part = deflatePart(text(6, 4000));
    const comma = storedPart(encoder.encode(','));
    const parts = Array.from({ length: 60 }, (_, i) => (i % 2 ? comma : part));
    const expected = concat(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? encoder.encode(',') : text(6, 4000))),
    );
    expect(gunzipSync(gzipOf(parts)).equals(expected)).toBe(true);
  });

  it('agrees with gunzip on many random splits of one text', () => {
    const whole = text(7, 30_000);
    let x = 99;
    for (let round = 0; round < 50; round++) {
      const cuts: number[] = [];
      for (let i = 0; i < 8; i++) {
        x = (x * 69069 + 1) >>> 0;
        cuts.push(x % whole.length);
      }
      const bounds = [0, ...cuts.sort((a, b) => a - b), whole.length];
      const parts = bounds.slice(1).map((end, i) => {
        const piece = whole.subarray(bounds[i] as number, end);
        // Stored parts, compressed parts and plain bytes (glue made for one answer), mixed.
        if (i % 3 === 0) return storedPart(piece);
        return i % 3 === 1 ? piece : deflatePart(piece, 1 + (i % 9));
      });
      expect(gunzipSync(gzipOf(parts)).equals(Buffer.from(whole))).toBe(true);
    }
  });

  it('takes plain bytes as parts: empty, short, and longer than one stored block', () => {
    const chunks = [new Uint8Array(0), encoder.encode(','), text(9, 70_000), text(10, 5000)];
    const parts = chunks.map((c, i) => (i === 3 ? deflatePart(c) : c));
    expect(gunzipSync(gzipOf(parts)).equals(concat(chunks))).toBe(true);
  });

  it('is smaller than the text for JSON-like parts', () => {
    const chunk = text(8, 50_000);
    expect(gzipOf([deflatePart(chunk)]).length).toBeLessThan(chunk.length / 3);
  });

  it('continues a CRC-32 as zlib does, short runs in JavaScript and long ones natively', () => {
    // zlib answers 0 for no bytes at all, whatever it continues; no bytes leave a CRC as it is.
    expect(crcOf(new Uint8Array(0), 0xdeadbeef)).toBe(0xdeadbeef);
    for (let length = 1; length <= 200; length += 1 + (length >> 4)) {
      const bytes = text(length + 11, length);
      for (const start of [0, 1, 0xdeadbeef, 0xffffffff]) {
        expect(crcOf(bytes, start)).toBe(crc32(bytes, start));
      }
    }
  });

  it('takes plain bytes either side of the short-run length (64), as one stream', () => {
    const chunks = [63, 64, 65, 1, 0, 200].map((length, i) => text(20 + i, length));
    const parts = chunks.flatMap((c, i) => [c, deflatePart(text(40 + i, 900))]);
    const expected = concat(chunks.flatMap((c, i) => [c, text(40 + i, 900)]));
    expect(gunzipSync(gzipOf(parts)).equals(expected)).toBe(true);
  });
});

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflatePart, gzipOf, storedPart } from '../../src/http/gzip-parts.ts';

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
});

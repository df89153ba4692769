import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipFromPieces } from '../../src/node/answer-gzip.ts';

const encoder = new TextEncoder();
const source = {
  json: (index: number) => encoder.encode(JSON.stringify({ index, pad: 'x'.repeat(900) })),
};
const pieces = [
  encoder.encode('['),
  { source, index: 1 },
  encoder.encode(','),
  { source, index: 2 },
  encoder.encode(']'),
];
const text = `[${JSON.stringify({ index: 1, pad: 'x'.repeat(900) })},${JSON.stringify({ index: 2, pad: 'x'.repeat(900) })}]`;

describe('gzipFromPieces', () => {
  it('gzips an answer of stored objects to its text', () => {
    expect(gunzipSync(gzipFromPieces(pieces) as Buffer).toString()).toBe(text);
  });

  it('leaves nothing of an answer that failed in the next one', () => {
    const failing = {
      take(): Buffer {
        throw new Error('out of memory');
      },
    };
    expect(() => gzipFromPieces(pieces, failing)).toThrow('out of memory');
    expect(gunzipSync(gzipFromPieces(pieces) as Buffer).toString()).toBe(text);
  });

  it('keeps the parts of several sources apart, in one answer and across slabs', () => {
    // ~1.5 KB compressed each: 1,200 objects of two sources fill several slabs of 1 MiB.
    const sourceOf = (name: string, length: number) => ({
      json: (index: number) =>
        encoder.encode(JSON.stringify({ name, index, noise: randomText(index, length) })),
    });
    const a = sourceOf('a', 2000);
    const b = sourceOf('b', 2000);
    // Past 1/16 of a slab once compressed: a slab of its own.
    const large = sourceOf('large', 200_000);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 1200; i += 3) {
        const chosen = [
          { source: a, index: i },
          { source: b, index: i },
          { source: a, index: 1200 - i - 1 },
          { source: large, index: i % 3 },
        ];
        const answer = chosen.flatMap((piece, k) =>
          k === 0 ? [piece] : [encoder.encode(','), piece],
        );
        const expected = chosen
          .map(({ source, index }) => decoder.decode(source.json(index)))
          .join(',');
        expect(gunzipSync(gzipFromPieces(answer) as Buffer).toString(), `${round} ${i}`).toBe(
          expected,
        );
      }
    }
  });

  it('starts a source over past its budget, between answers, every answer whole', () => {
    // ~75 KB compressed each: 32 MiB of parts after ~450 objects.
    const big = {
      json: (index: number) =>
        encoder.encode(JSON.stringify({ index, noise: randomText(index, 100_000) })),
    };
    for (let i = 0; i < 520; i++) {
      // Another source between two of the big one's: the big one is looked up twice an answer.
      const answer = [
        { source: big, index: i },
        encoder.encode(','),
        { source, index: 1 },
        encoder.encode(','),
        { source: big, index: i % 5 },
      ];
      const expected = [big.json(i), source.json(1), big.json(i % 5)]
        .map((bytes) => decoder.decode(bytes))
        .join(',');
      expect(gunzipSync(gzipFromPieces(answer) as Buffer).toString(), `${i}`).toBe(expected);
    }
  });
});

const decoder = new TextDecoder();

/** Base64 of pseudo-random bytes (xorshift): compresses to about three quarters. */
function randomText(seed: number, length: number): string {
  const bytes = Buffer.alloc((length * 3) / 4);
  let x = (seed + 1) * 2_654_435_761;
  for (let i = 0; i < bytes.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes.toString('base64');
}

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipFromPieces } from '../../src/http/answer-gzip.ts';

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
});

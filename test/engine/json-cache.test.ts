import { expect, it } from 'vitest';
import { JsonCache } from '../../src/engine/json-cache.ts';

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A cache whose `make(i)` records which objects had to be serialized. */
function counted(maxBytes: number) {
  const made: number[] = [];
  const cache = new JsonCache(10, maxBytes);
  const get = (index: number) =>
    decode(
      cache.get(index, () => {
        made.push(index);
        return `"${String(index).repeat(8)}"`;
      }),
    );
  return { made, get };
}

it('gives back exactly the JSON it was given, whatever the characters', () => {
  const cache = new JsonCache(2, 1 << 20);
  const json = JSON.stringify({ text: 'Łódź 🎉 \u2028 "q" \\ \ud800 lone', n: -0.1 });
  expect(decode(cache.get(1, () => json))).toBe(json);
  expect(decode(cache.get(1, () => 'not asked'))).toBe(json);
});

it('serializes an object once while its JSON fits in the ring', () => {
  const { made, get } = counted(1000);
  for (const index of [1, 2, 3, 1, 2, 3, 1])
    expect(get(index)).toBe(`"${String(index).repeat(8)}"`);
  expect(made).toEqual([1, 2, 3]);
});

it('forgets the oldest JSON beyond its bytes, and keeps what is read again', () => {
  // 10 bytes each, 40 bytes of ring: four fit; reading 1 from the older half moves it ahead.
  const { made, get } = counted(40);
  for (const index of [1, 2, 3, 1, 4, 5, 6, 1, 2]) get(index);
  expect(made).toEqual([1, 2, 3, 4, 5, 6, 2]);
});

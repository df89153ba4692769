import type { Randomizer } from '@faker-js/faker';

/**
 * A small-state randomizer (Chris Doty-Humphrey's SFC32) for Faker: fixtures reseed once per
 * object, and Faker's Mersenne Twister rebuilds 624 words of state on every `seed()`, where this
 * one costs a few hashes.
 * Integer arithmetic only, so every platform draws the same numbers.
 */
export function createSfc32Randomizer(initialSeed: number | number[] = 0): Randomizer {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;

  const nextU32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };

  const seed = (value: number | number[]): void => {
    const h = hashSeed(typeof value === 'number' ? [value] : value);
    a = h[0];
    b = h[1];
    c = h[2];
    d = 1;
    // The first outputs still echo the seed; discarding them decorrelates neighbouring seeds.
    for (let i = 0; i < 12; i++) nextU32();
  };

  seed(initialSeed);
  return {
    // 53 random bits, like Faker's default, so wide integer ranges reach every value.
    next: () => ((nextU32() >>> 5) * 67108864 + (nextU32() >>> 6)) / 9007199254740992,
    seed,
  };
}

const bits = new DataView(new ArrayBuffer(8));

/** Hashes every bit of every number (fractions and signs included) into three 32-bit words. */
function hashSeed(parts: readonly number[]): [number, number, number] {
  let h1 = 0x9e3779b9 ^ parts.length;
  let h2 = 0x85ebca6b;
  let h3 = 0xc2b2ae35;
  for (const part of parts) {
    bits.setFloat64(0, part, true);
    for (const word of [bits.getUint32(0, true), bits.getUint32(4, true)]) {
      h1 = mix(h1 ^ word);
      h2 = mix(h2 + h1);
      h3 = mix(h3 ^ h2);
    }
  }
  return [h1, h2, h3];
}

/** The 32-bit finaliser of MurmurHash3: every input bit reaches every output bit. */
function mix(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

import { createHash } from 'node:crypto';

/** A 40-hex key derived from a label: the same label, the same key. */
export const keyOf = (label: string): string => createHash('sha1').update(label).digest('hex');

/** A number in [0, 1) derived from a text: a hash, not a random draw. */
export const unitOf = (text: string): number =>
  Number.parseInt(createHash('sha1').update(text).digest('hex').slice(0, 8), 16) / 2 ** 32;

/** mulberry32: a tiny seeded PRNG, so the data is the same on every run. */
export const seeded = (seed: number) => {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const some = <T>(items: readonly T[], count: number): T[] => {
    const left = [...items];
    const chosen: T[] = [];
    while (chosen.length < count && left.length > 0) {
      chosen.push(left.splice(Math.floor(next() * left.length), 1)[0] as T);
    }
    return chosen;
  };
  return { next, int, pick, some };
};

export type Random = ReturnType<typeof seeded>;

import { describe, expect, it } from 'vitest';
import { DocSet } from '../../src/engine/doc-set.ts';
import { writeUnitVector } from '../../src/engine/geo.ts';
import { GeoGrid } from '../../src/engine/geo-grid.ts';
import { randomSource } from '../hr/support/random-queries.ts';

/** Docs around a few points, some without coordinates and some off the globe. */
function columns(count: number) {
  const random = randomSource(5);
  const lat = new Float64Array(count);
  const lng = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const kind = i % 17;
    lat[i] = kind === 0 ? Number.NaN : kind === 1 ? 123 : 40 + random() * 10;
    lng[i] = kind === 0 ? Number.NaN : -5 + random() * 20;
  }
  const cosLat = lat.map((value) => Math.cos((value * Math.PI) / 180));
  const unit = new Float64Array(3 * count);
  for (let i = 0; i < count; i++) writeUnitVector(lat[i] as number, lng[i] as number, unit, 3 * i);
  return { lat, lng, cosLat, unit, container: new Int32Array(count) };
}

describe('the geo grid', () => {
  const count = 5000;
  const grid = new GeoGrid(columns(count));
  const everything = grid.candidates({ lat: 0, lng: 0 }, 30_000);
  const docAt = everything.docs;

  it.each([
    ['a few docs (sorted positions)', 7],
    ['many docs (one pass with the bitmap)', 2],
  ])('gives where the docs of a set stand, the second time it is asked: %s', (_, step) => {
    const ids = Int32Array.from({ length: Math.ceil(count / step) }, (_, k) => k * step);
    const set = new DocSet(ids, count);
    expect(grid.positionsOf(set)).toBeUndefined();
    const positions = grid.positionsOf(set) as Int32Array;
    expect(positions).toBeInstanceOf(Int32Array);
    // Kept: the same list from then on.
    expect(grid.positionsOf(set)).toBe(positions);
    for (let k = 1; k < positions.length; k++) {
      expect(positions[k] as number).toBeGreaterThan(positions[k - 1] as number);
    }
    // Exactly the set's docs that have coordinates (NaN ones are not in the grid).
    const docs = [...positions].map((j) => docAt[j] as number).sort((a, b) => a - b);
    expect(docs).toEqual([...ids].filter((id) => id % 17 !== 0));
  });
});

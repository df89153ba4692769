import { describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { nth } from '../support/json-reads.ts';
import { distanceKm } from '../support/sides.ts';

// The generated data has no two equal dates: here most objects share their dates and places, so
// that every order is decided by its tie-break, the key ascending, whatever the direction.
const data = buildFixtures({ profiles: 150, jobs: 40 });
const DATES = ['2024-03-01T00:00:00.000Z', '2024-06-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'];
const PLACES = [
  { lat: 45.764, lng: 4.8357 },
  { lat: 48.8566, lng: 2.3522 },
];
data.profiles.forEach((profile, i) => {
  profile.created_at = nth(DATES, i % 3);
  profile.updated_at = nth(DATES, (i + 1) % 3);
  Object.assign(profile.info.location, nth(PLACES, i % 2));
});
const app = createApp({ data, log: false });
const t = targetOf(app.state.store);
const lyon = PLACES[0] as { lat: number; lng: number };

/** A profile as these tests read it: every one was given a place above. */
type Item = {
  key: string;
  created_at: string;
  updated_at: string;
  info: { location: { lat: number; lng: number } };
};

async function all(path: string, params: Record<string, unknown>) {
  const items: Item[] = [];
  const predictions: number[] = [];
  for (let page = 1; ; page++) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries({ ...params, page, limit: 40 }))
      query.set(name, typeof value === 'string' ? value : JSON.stringify(value));
    const response = await app.request(`${path}?${query}`);
    expect(response.status).toBe(200);
    const body = await response.json();
    items.push(...body.data.profiles);
    for (const pair of body.data.predictions ?? []) predictions.push(pair[1]);
    if (page >= body.meta.maxPage) return { items, predictions };
  }
}

/** Every run of equal values is in key order, and the runs in `direction`. */
function expectTiesByKey(values: number[], keys: string[], direction: 'asc' | 'desc') {
  expect(values.length).toBeGreaterThan(10);
  let ties = 0;
  for (let i = 1; i < values.length; i++) {
    const [a, b] = [values[i - 1] as number, values[i] as number];
    if (a === b) {
      ties++;
      expect(
        (keys[i - 1] as string) < (keys[i] as string),
        `${keys[i - 1]} before ${keys[i]}`,
      ).toBe(true);
    } else expect(direction === 'asc' ? a < b : a > b).toBe(true);
  }
  expect(ties).toBeGreaterThan(values.length / 2);
}

const sources = { source_keys: t.profiles.source_keys };
const scoring = { ...sources, board_key: t.profiles.board_key, job_key: t.profiles.job_key };

describe('ties are ordered by key ascending, whatever the direction', () => {
  for (const direction of ['asc', 'desc'] as const) {
    it.each(['created_at', 'updated_at'] as const)(`on %s ${direction}`, async (field) => {
      const { items } = await all('/profiles/searching', {
        ...sources,
        sort_by: field,
        order_by: direction,
      });
      expectTiesByKey(
        items.map((p) => Date.parse(p[field])),
        items.map((p) => p.key),
        direction,
      );
    });

    it(`on location ${direction}`, async () => {
      const { items } = await all('/profiles/searching', {
        ...sources,
        sort_by: 'location',
        order_by: direction,
        location_geopoint: lyon,
        location_distance: 20_000,
      });
      // desc puts the nearest first: the larger value is the smaller distance.
      const nearness = items.map((p) => -Math.round(distanceKm(lyon, p.info.location) * 1000));
      expectTiesByKey(
        nearness,
        items.map((p) => p.key),
        direction,
      );
    });

    it(`on scoring ${direction}, within equal scores`, async () => {
      const { items, predictions } = await all('/profiles/scoring', {
        ...scoring,
        sort_by: 'scoring',
        order_by: direction,
      });
      const keys = items.map((p) => p.key);
      for (let i = 1; i < predictions.length; i++) {
        const [a, b] = [predictions[i - 1] as number, predictions[i] as number];
        if (a === b) expect((keys[i - 1] as string) < (keys[i] as string)).toBe(true);
        else expect(direction === 'asc' ? a < b : a > b).toBe(true);
      }
    });
  }
});

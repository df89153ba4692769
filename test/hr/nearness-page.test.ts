import { describe, expect, it } from 'vitest';
import { buildFixtures, type Fixtures } from '../../mocks/build-fixtures.ts';
import {
  CHORD_A_ERROR,
  chordA,
  cosLatitude,
  distanceWithCosines,
  haversineA,
  writeUnitVector,
} from '../../src/engine/geo.ts';
import { type Found, findDocs } from '../../src/hr/find-docs.ts';
import { searchOperation } from '../../src/hr/operations.ts';
import { parseSearch, type SearchQuery } from '../../src/hr/requests.ts';
import { sortedPage } from '../../src/hr/search.ts';
import { type Collection, createStore } from '../../src/store/store.ts';
import { envelope, scanSearch } from './reference/scan-operations.ts';
import { createScanStore } from './reference/scan-store.ts';
import { randomSource } from './support/random-queries.ts';

/** Points anywhere, poles, antimeridian and the same or antipodal points included. */
function pointPairs(count: number) {
  const random = randomSource(3);
  const pairs: [number, number, number, number][] = [];
  for (let k = 0; k < count; k++) {
    const lat = random() * 180 - 90;
    const lng = random() * 360 - 180;
    const roll = random();
    const clamp = (value: number) => Math.max(-90, Math.min(90, value));
    if (roll < 0.1) pairs.push([lat, lng, lat, lng]);
    else if (roll < 0.2) pairs.push([lat, lng, -lat, lng > 0 ? lng - 180 : lng + 180]);
    else if (roll < 0.3)
      pairs.push([lat, lng, clamp(lat + random() * 1e-9), lng - random() * 1e-9]);
    else if (roll < 0.4) pairs.push([90, lng, 90 - random() * 1e-3, random() * 360 - 180]);
    else if (roll < 0.5) pairs.push([lat, 180, clamp(lat + random() - 0.5), -180 + random()]);
    else pairs.push([lat, lng, random() * 180 - 90, random() * 360 - 180]);
  }
  return pairs;
}

describe('the chord between unit vectors', () => {
  it('gives haversine’s a within a hundredth of CHORD_A_ERROR, anywhere on the globe', () => {
    const unit = new Float64Array(6);
    let worst = 0;
    for (const [lat1, lng1, lat2, lng2] of pointPairs(200_000)) {
      writeUnitVector(lat1, lng1, unit, 0);
      writeUnitVector(lat2, lng2, unit, 3);
      const chord = chordA(unit[0] as number, unit[1] as number, unit[2] as number, unit, 3);
      const a = haversineA(lat1, lng1, cosLatitude(lat1), lat2, lng2, cosLatitude(lat2));
      worst = Math.max(worst, Math.abs(chord - a));
    }
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThan(CHORD_A_ERROR / 100);
  });

  it('is NaN off the globe, where only the exact formula may judge', () => {
    const unit = new Float64Array(3);
    for (const [lat, lng] of [
      [91, 0],
      [0, 181],
      [Number.NaN, 0],
      [0, Number.NaN],
    ] as const) {
      writeUnitVector(lat, lng, unit, 0);
      expect(Number.isNaN(chordA(0, 0, 1, unit, 0))).toBe(true);
    }
  });
});

/**
 * Fixtures whose profiles stand on a few points, many on the very same one (ties broken by key),
 * others a unit in the last place or a hair away from it: rankings a chord alone would get wrong.
 */
function clustered(fixtures: Fixtures, seed: number): Fixtures {
  const random = randomSource(seed);
  const centres = Array.from({ length: 12 }, () => ({
    lat: random() * 160 - 80,
    lng: random() * 360 - 180,
  }));
  const nudge = (value: number) => {
    const roll = random();
    if (roll < 0.4) return value;
    if (roll < 0.6) return value + Math.abs(value) * Number.EPSILON;
    if (roll < 0.8) return value + (random() - 0.5) * 1e-11;
    return value + (random() - 0.5) * 2;
  };
  return {
    ...fixtures,
    profiles: fixtures.profiles.map((p) => {
      const centre = centres[Math.floor(random() * centres.length)] as (typeof centres)[number];
      const location = { ...p.info.location, lat: nudge(centre.lat), lng: nudge(centre.lng) };
      return { ...p, info: { ...p.info, location } };
    }),
  };
}

describe('a page by distance', () => {
  const fixtures = clustered(buildFixtures({ seed: 23, profiles: 1500, jobs: 50 }), 23);
  const store = createStore(fixtures);
  const scan = createScanStore(fixtures);
  const sourceKeys = fixtures.sources.map((s) => s.key);

  it('is the page a scan gives, for every page, size and order, among ties and near-ties', () => {
    const random = randomSource(29);
    let paged = 0;
    for (let q = 0; q < 600; q++) {
      const anchor = fixtures.profiles[Math.floor(random() * fixtures.profiles.length)];
      const { lat, lng } = anchor?.info.location ?? {};
      const point =
        random() < 0.7 && lat != null && lng != null
          ? { lat, lng }
          : { lat: random() * 180 - 90, lng: random() * 360 - 180 };
      const raw = new Map<string, unknown>([
        ['source_keys', sourceKeys],
        ['location_geopoint', point],
        ['location_distance', [1, 300, 3000, 12_000, 20_100][q % 5]],
        ['sort_by', 'location'],
        ['order_by', random() < 0.5 ? 'asc' : 'desc'],
        ['limit', 1 + Math.floor(random() * 60)],
        ['page', 1 + Math.floor(random() * 4)],
      ]);
      const indexed = searchOperation(store, 'profile', raw);
      const reference = scanSearch(scan, 'profile', raw);
      const where = `query ${q}: ${JSON.stringify(Object.fromEntries(raw))}`;
      expect(reference.ok && indexed.ok, where).toBe(true);
      if (!reference.ok || !indexed.ok) continue;
      expect(indexed.value.json, where).toBe(JSON.stringify(envelope(reference.value)));
      if ((reference.value.meta?.count ?? 0) > 0) paged++;
    }
    expect(paged).toBeGreaterThan(300);
  });

  /** The query and its found docs, copied (findDocs' lists are filled again by the next search). */
  function search(point: { lat: number; lng: number }, orderBy: string, limit: number) {
    const raw = new Map<string, unknown>([
      ['source_keys', sourceKeys],
      ['location_geopoint', point],
      ['location_distance', 20_100],
      ['sort_by', 'location'],
      ['order_by', orderBy],
      ['limit', limit],
    ]);
    const query = parseSearch('profile', raw);
    if (!query.ok) throw new Error('the query was refused');
    const found = findDocs(store.profile, query.value);
    if (!found.ok) throw new Error('the search failed');
    return {
      query: query.value,
      found: {
        ids: Int32Array.from(found.value.ids),
        nearness: Float64Array.from(found.value.nearness),
      },
    };
  }

  /** Every found doc by exact distance (nearest first, or farthest), ties by key. */
  function exactOrder(collection: Collection, found: Found, query: SearchQuery): number[] {
    const point = query.filters.near?.point as { lat: number; lng: number };
    const { lat, lng, cosLat } = collection.columns;
    const rank = collection.orders.byKey.rank;
    const distance = (i: number) =>
      distanceWithCosines(
        point.lat,
        point.lng,
        cosLatitude(point.lat),
        lat[i] as number,
        lng[i] as number,
        cosLat[i] as number,
      );
    const sign = query.orderBy === 'desc' ? 1 : -1;
    return [...found.ids].sort(
      (a, b) => sign * (distance(a) - distance(b)) || (rank[a] as number) - (rank[b] as number),
    );
  }

  it.each(['desc', 'asc'])(
    'computes every distance when a doc on the page lies beyond what the nearness let in (%s)',
    (orderBy) => {
      const collection = store.profile;
      const { query, found } = search({ lat: 10, lng: 20 }, orderBy, 20);
      expect(found.ids.length).toBeGreaterThan(200);
      const order = exactOrder(collection, found, query);
      expect(sortedPage(collection, found, query)).toEqual(order.slice(0, 20));
      // A nearness that understates how far down the order a doc is (as no chord can, by more
      // than CHORD_A_ERROR): the doc 26th by distance is let in among the first. Only the check
      // of the page's last distance keeps it off the page.
      const liar = found.ids.indexOf(order[25] as number);
      const best = orderBy === 'desc' ? Math.min(...found.nearness) : Math.max(...found.nearness);
      found.nearness[liar] = best;
      expect(sortedPage(collection, found, query)).toEqual(order.slice(0, 20));
    },
  );
});

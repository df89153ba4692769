import { describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { searchOperation } from '../../src/hr/operations.ts';
import { createStore } from '../../src/store/store.ts';
import { envelope, scanSearch } from './reference/scan-operations.ts';
import { createScanStore } from './reference/scan-store.ts';
import { randomSource } from './support/random-queries.ts';
import { scatterLocations } from './support/scatter.ts';

const SEED = 11;
const QUERIES = 800;
const RADII = [0.01, 1, 10, 60, 150, 500, 2000, 5000, 9000, 15000, 19000, 20015, 25000];

describe('distance filters over objects spread over the globe', () => {
  const fixtures = scatterLocations(
    buildFixtures({ seed: SEED, profiles: 2000, jobs: 400 }),
    randomSource(SEED),
    0.8,
  );
  const store = createStore(fixtures);
  const scan = createScanStore(fixtures);

  it.each(['profile', 'job'] as const)(
    'finds exactly the %ss a scan finds within any distance of any point',
    (kind) => {
      const random = randomSource(SEED + kind.length);
      const items =
        kind === 'profile'
          ? fixtures.profiles.map((p) => p.info.location)
          : fixtures.jobs.map((j) => j.location);
      const containers = (kind === 'profile' ? fixtures.sources : fixtures.boards).map(
        (c) => c.key,
      );
      // Where the grid wraps or narrows: along the antimeridian and near the poles.
      const edges = items.filter(
        (l) => l.lat !== null && l.lng !== null && (Math.abs(l.lng) > 178 || Math.abs(l.lat) > 85),
      );
      let found = 0;
      for (let q = 0; q < QUERIES; q++) {
        const from = random() < 0.5 ? edges : items;
        const near = from[Math.floor(random() * from.length)];
        const point =
          random() < 0.8 && near?.lat != null && near.lng != null
            ? {
                lat: clamp(near.lat + random() * 2 - 1, 90),
                lng: clamp(near.lng + random() * 2 - 1, 180),
              }
            : { lat: random() * 180 - 90, lng: random() * 360 - 180 };
        const raw = new Map<string, unknown>([
          [kind === 'profile' ? 'source_keys' : 'board_keys', containers],
          ['location_geopoint', point],
          [
            'location_distance',
            (RADII[Math.floor(random() * RADII.length)] as number) * (0.5 + random()),
          ],
          ['sort_by', 'location'],
          ['order_by', random() < 0.5 ? 'asc' : 'desc'],
          ['limit', 100],
        ]);
        const indexed = searchOperation(store, kind, raw);
        const reference = scanSearch(scan, kind, raw);
        const where = `query ${q}: ${JSON.stringify(Object.fromEntries(raw))}`;
        expect(reference.ok && indexed.ok, where).toBe(true);
        if (!reference.ok || !indexed.ok) continue;
        expect(indexed.value.json, where).toBe(JSON.stringify(envelope(reference.value)));
        if (reference.value.meta?.total) found++;
      }
      expect(found).toBeGreaterThan(QUERIES / 2);
    },
  );
});

/** Within [-limit, limit]: a point the API accepts. */
function clamp(value: number, limit: number): number {
  return Math.max(-limit, Math.min(limit, value));
}

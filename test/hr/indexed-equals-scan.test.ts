import { describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { scoringOperation, searchOperation } from '../../src/hr/operations.ts';
import type { Kind } from '../../src/store/kinds.ts';
import { createStore } from '../../src/store/store.ts';
import { SDK_FILTERS } from '../support/sdk-parameters.ts';
import { envelope, scanScoring, scanSearch } from './reference/scan-operations.ts';
import { createScanStore } from './reference/scan-store.ts';
import { randomParams, randomSource } from './support/random-queries.ts';
import { scatterLocations } from './support/scatter.ts';

/** Seeds, and whether to move some objects all over the globe. */
const SEEDS: [number, boolean][] = [
  [42, false],
  [7, true],
  [2024, true],
];
const QUERIES = 200;
describe.each(SEEDS)('over the fixtures of seed %i (scattered: %s)', (seed, scattered) => {
  const built = buildFixtures({ seed, profiles: 3000, jobs: 600 });
  const fixtures = scattered ? scatterLocations(built, randomSource(seed)) : built;
  const store = createStore(fixtures);
  const scan = createScanStore(fixtures);

  for (const kind of ['profile', 'job'] as const satisfies Kind[]) {
    for (const operation of ['searching', 'scoring'] as const) {
      it(`answers ${kind} ${operation} exactly as a linear scan does`, { timeout: 90_000 }, () => {
        const querySeed = seed * 31 + (kind === 'profile' ? 1 : 2) * 7 + operation.length;
        const random = randomSource(querySeed);
        let answered = 0;
        let found = 0;
        let olderFound = 0;
        let walkedBoth = 0;
        for (let q = 0; q < QUERIES; q++) {
          const raw = randomParams(fixtures, kind, random, operation);
          const answer = () =>
            operation === 'searching'
              ? searchOperation(store, kind, raw)
              : scoringOperation(store, kind, raw);
          const indexed = answer();
          // Asked again, a distance search goes through the grid straight to the docs of the
          // sets it asked for the first time (GeoGrid.positionsOf): the same answer both ways.
          const again = answer();
          const reference =
            operation === 'searching' ? scanSearch(scan, kind, raw) : scanScoring(scan, kind, raw);
          const where = `query seed ${querySeed}, query ${q}: ${JSON.stringify(Object.fromEntries(raw))}`;
          if (!reference.ok) {
            expect(indexed, where).toEqual(reference);
            continue;
          }
          expect(indexed.ok, where).toBe(true);
          if (!indexed.ok) continue;
          const expected = JSON.stringify(envelope(reference.value));
          if (indexed.value.json !== expected) {
            // Show the difference as objects: a long string diff is unreadable.
            expect(JSON.parse(indexed.value.json), where).toEqual(JSON.parse(expected));
          }
          expect(indexed.value.json, where).toBe(expected);
          expect(again.ok && again.value.json, `${where} (asked again)`).toBe(expected);
          answered++;
          if (raw.has('location_distance') && (raw.has('text_keywords') || raw.has('skills')))
            walkedBoth++;
          if (reference.value.meta?.total) found++;
          if (reference.value.meta?.total && SDK_FILTERS.some((name) => raw.has(name)))
            olderFound++;
        }
        // Most random queries must be valid, or the comparison proves little.
        expect(answered).toBeGreaterThan(QUERIES * 0.6);
        expect(found).toBeGreaterThan(QUERIES * 0.3);
        // The SDKs' older filters and orders are drawn often enough to be compared on results.
        expect(olderFound).toBeGreaterThan(QUERIES * 0.05);
        // Distance and an indexed set together, where the grid walk skips to the set's docs.
        expect(walkedBoth).toBeGreaterThan(QUERIES * 0.05);
      });
    }
  }
});

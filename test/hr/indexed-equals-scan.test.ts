import { describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { scoringOperation, searchOperation } from '../../src/hr/operations.ts';
import type { Kind } from '../../src/store/kinds.ts';
import { createStore } from '../../src/store/store.ts';
import { SDK_FILTERS } from '../support/sdk-parameters.ts';
import { envelope, scanScoring, scanSearch } from './reference/scan-operations.ts';
import { createScanStore } from './reference/scan-store.ts';
import { twistedParams } from './support/odd-params.ts';
import { randomParams, randomSource } from './support/random-queries.ts';
import { outcomeOf } from './support/refusal.ts';
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
        let twisted = 0;
        /** The real operation answers `raw` as the scan does; the scan's answer. */
        const compare = (raw: Map<string, unknown>, where: string) => {
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
          if (!reference.ok) {
            // Refused by both, with a 400 naming the same parameters.
            expect(outcomeOf(indexed), where).toEqual(reference);
            return reference;
          }
          expect(indexed.ok, where).toBe(true);
          if (!indexed.ok) return reference;
          const expected = JSON.stringify(envelope(reference.value));
          if (indexed.value.json !== expected) {
            // Show the difference as objects: a long string diff is unreadable.
            expect(JSON.parse(indexed.value.json), where).toEqual(JSON.parse(expected));
          }
          expect(indexed.value.json, where).toBe(expected);
          expect(again.ok && again.value.json, `${where} (asked again)`).toBe(expected);
          return reference;
        };
        for (let q = 0; q < QUERIES; q++) {
          const raw = randomParams(fixtures, kind, random, operation);
          const where = `query seed ${querySeed}, query ${q}`;
          const reference = compare(raw, `${where}: ${JSON.stringify(Object.fromEntries(raw))}`);
          // The same query as clients also send it, or with one mistake: compared besides.
          const odd = twistedParams(raw, { kind, operation, random }, 0.3);
          if (odd !== undefined) {
            compare(odd, `${where}, twisted: ${JSON.stringify(Object.fromEntries(odd))}`);
            twisted++;
          }
          if (!reference.ok) continue;
          answered++;
          if (raw.has('location_distance') && (raw.has('text_keywords') || raw.has('skills')))
            walkedBoth++;
          if (reference.value.meta?.total) found++;
          if (reference.value.meta?.total && SDK_FILTERS.some((name) => raw.has(name)))
            olderFound++;
        }
        expect(twisted).toBeGreaterThan(QUERIES * 0.2);
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

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kthSmallest, pageByHeap, pageByKeys, pageByRank } from '../../src/engine/page.ts';
import { seedFastCheck } from '../support/fuzz-seed.ts';

seedFastCheck('test/engine/page.test.ts');

/** A ranking of `count` docs from a permutation: `order[r]` is the doc ranked r. */
function rankingOf(order: number[]) {
  const rank = new Int32Array(order.length);
  order.forEach((doc, r) => {
    rank[doc] = r;
  });
  return { rank, order: Int32Array.from(order) };
}

/** What any paging must give: the listed docs sorted by rank, then the page cut out. */
function expected(ids: number[], rank: Int32Array, start: number, limit: number): number[] {
  return [...ids]
    .sort((a, b) => (rank[a] as number) - (rank[b] as number))
    .slice(start, start + limit);
}

const pages = fc.integer({ min: 1, max: 400 }).chain((count) =>
  fc.record({
    order: fc.shuffledSubarray(
      Array.from({ length: count }, (_, i) => i),
      { minLength: count, maxLength: count },
    ),
    ids: fc.uniqueArray(fc.integer({ min: 0, max: count - 1 }), { maxLength: count }),
    start: fc.integer({ min: 0, max: 60 }),
    limit: fc.integer({ min: 1, max: 40 }),
  }),
);

describe('pageByRank', () => {
  it('gives the page of the listed docs in rank order, however dense the list', () => {
    fc.assert(
      fc.property(pages, ({ order, ids, start, limit }) => {
        const ranking = rankingOf(order);
        const page = pageByRank(Int32Array.from(ids), ranking, start, limit);
        expect(page).toEqual(expected(ids, ranking.rank, start, limit));
      }),
      { numRuns: 3000 },
    );
  });

  it('pages a list that holds most ranked docs, then a sparse one, from the same marks', () => {
    const order = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
    const ranking = rankingOf(order);
    const dense = Array.from({ length: 900 }, (_, i) => i);
    const sparse = [999, 5, 500];
    expect(pageByRank(dense, ranking, 30, 30)).toEqual(expected(dense, ranking.rank, 30, 30));
    expect(pageByRank(sparse, ranking, 0, 30)).toEqual(expected(sparse, ranking.rank, 0, 30));
    expect(pageByRank(dense, ranking, 0, 5)).toEqual(expected(dense, ranking.rank, 0, 5));
  });
});

/** Positions by key, then by rank: what `pageByKeys` must give, by a plain sort. */
function byKeys(keys: number[], ranks: number[], start: number, limit: number): number[] {
  return keys
    .map((_, i) => i)
    .sort(
      (a, b) =>
        (keys[a] as number) - (keys[b] as number) || (ranks[a] as number) - (ranks[b] as number),
    )
    .slice(start, start + limit);
}

describe('pageByKeys', () => {
  it('gives positions by key, ties by rank, cut to the page', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: true })), {
          maxLength: 300,
        }),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 1, max: 40 }),
        (values, start, limit) => {
          const ranks = values.map((_, i) => (i * 7919) % 100_003);
          const page = pageByKeys(Float64Array.from(values), Int32Array.from(ranks), start, limit);
          expect(page).toEqual(byKeys(values, ranks, start, limit));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('pages the orders that make quicksort unlucky as well as random ones', () => {
    const count = 5000;
    const orders: Record<string, (i: number) => number> = {
      sorted: (i) => i,
      reversed: (i) => -i,
      equal: () => 0,
      'organ pipe': (i) => Math.min(i, count - i),
      sawtooth: (i) => i % 17,
      'odd after even': (i) => (i % 2 === 0 ? i : count + i),
    };
    for (const [name, value] of Object.entries(orders)) {
      const keys = Array.from({ length: count }, (_, i) => value(i));
      const ranks = keys.map((_, i) => i);
      for (const [start, limit] of [
        [0, 30],
        [90, 30],
        [0, count],
        [count - 7, 30],
      ] as const) {
        const page = pageByKeys(Float64Array.from(keys), Int32Array.from(ranks), start, limit);
        expect(page, `${name} ${start}`).toEqual(byKeys(keys, ranks, start, limit));
      }
    }
  });

  it('gives the same pages from its fallback heap, whatever the order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 300 }),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 1, max: 40 }),
        (values, start, limit) => {
          const ranks = values.map((_, i) => (i * 7919) % 100_003);
          const wanted = Math.min(values.length, start + limit);
          const page =
            start >= wanted
              ? []
              : pageByHeap(Float64Array.from(values), Int32Array.from(ranks), start, wanted);
          expect(page).toEqual(byKeys(values, ranks, start, limit));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('kthSmallest', () => {
  /** Few distinct values, runs, sorted and reversed lists: where a quickselect goes wrong. */
  const lists = fc.oneof(
    fc.array(fc.double({ noNaN: true, min: -1e6, max: 1e6 }), { minLength: 1, maxLength: 400 }),
    fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 400 }),
    fc
      .array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 400 })
      .map((values) => values.sort((a, b) => a - b)),
    fc
      .array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 400 })
      .map((values) => values.sort((a, b) => b - a)),
  );

  it('gives the number at k of the sorted list, whatever the order and the repeats', () => {
    fc.assert(
      fc.property(lists, fc.nat(), (values, at) => {
        const k = at % values.length;
        const sorted = [...values].sort((a, b) => a - b);
        expect(kthSmallest(Float64Array.from(values), k)).toBe(sorted[k]);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives it for lists of one number repeated, where no partition makes progress', () => {
    for (const length of [1, 13, 200, 5000]) {
      expect(kthSmallest(new Float64Array(length).fill(0.25), length - 1)).toBe(0.25);
      const twoValues = Float64Array.from({ length }, (_, i) => (i % 2 === 0 ? 1 : 2));
      const ones = Math.ceil(length / 2);
      expect(kthSmallest(Float64Array.from(twoValues), ones - 1)).toBe(1);
      if (ones < length) expect(kthSmallest(twoValues, ones)).toBe(2);
    }
  });
});

/**
 * Where each doc stands in an order: `rank[doc]` is its position, `order[rank]` the doc there.
 * Comparing two ranks is comparing the docs, so a page is picked without sorting.
 */
export type Ranking = { rank: Int32Array; order: Int32Array };

/**
 * The orders computed once per store. Ties break on the key, ascending, whatever the direction,
 * then on the position in the store, as a stable sort of the stored docs would.
 */
export type SortOrders = {
  byKey: Ranking;
  createdAsc: Ranking;
  createdDesc: Ranking;
  updatedAsc: Ranking;
  updatedDesc: Ranking;
};

export function sortOrders(keys: readonly string[], created: Float64Array, updated: Float64Array) {
  const byKey = ranking(keys.length, (a, b) => {
    const x = keys[a] as string;
    const y = keys[b] as string;
    return x < y ? -1 : x > y ? 1 : a - b;
  });
  const keyRank = byKey.rank;
  const by = (values: Float64Array, direction: 1 | -1) =>
    ranking(
      keys.length,
      (a, b) =>
        direction * ((values[a] as number) - (values[b] as number)) ||
        (keyRank[a] as number) - (keyRank[b] as number),
    );
  return {
    byKey,
    createdAsc: by(created, 1),
    createdDesc: by(created, -1),
    updatedAsc: by(updated, 1),
    updatedDesc: by(updated, -1),
  } satisfies SortOrders;
}

function ranking(count: number, compare: (a: number, b: number) => number): Ranking {
  const order = Int32Array.from(Array.from({ length: count }, (_, i) => i).sort(compare));
  const rank = new Int32Array(count);
  for (let r = 0; r < count; r++) rank[order[r] as number] = r;
  return { rank, order };
}

import type { Ranking } from './sort-orders.ts';

/**
 * Items `[start, start + limit)` of `ids` in the order of their ranks: the smallest ranks are
 * picked with a heap, or the ranks are sorted when most of the list is wanted anyway.
 */
export function pageByRank(
  ids: ArrayLike<number>,
  ranking: Ranking,
  start: number,
  limit: number,
): number[] {
  const { rank, order } = ranking;
  const wanted = Math.min(ids.length, start + limit);
  if (start >= wanted) return [];
  const ranks = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i++) ranks[i] = rank[ids[i] as number] as number;
  const smallest = wanted * 4 >= ids.length ? ranks.sort() : smallestInts(ranks, wanted);
  const page: number[] = [];
  for (let r = start; r < wanted; r++) page.push(order[smallest[r] as number] as number);
  return page;
}

/**
 * Positions `[start, start + limit)` of `0 … count - 1` ordered by `compare`, a total order: the
 * first ones are picked with a heap, or all are sorted when most of them are wanted anyway.
 */
export function pageBy(
  count: number,
  compare: (a: number, b: number) => number,
  start: number,
  limit: number,
): number[] {
  const wanted = Math.min(count, start + limit);
  if (start >= wanted) return [];
  if (wanted * 4 >= count) {
    return Array.from({ length: count }, (_, i) => i)
      .sort(compare)
      .slice(start, wanted);
  }
  const heap = new Heap(compare, wanted);
  for (let i = 0; i < count; i++) heap.offer(i);
  return heap.sorted().slice(start, wanted);
}

/** The `count` smallest of distinct integers, ascending. */
function smallestInts(values: Int32Array, count: number): Int32Array {
  const heap = new Heap((a, b) => a - b, count);
  for (let i = 0; i < values.length; i++) heap.offer(values[i] as number);
  return Int32Array.from(heap.sorted());
}

/** Keeps the `capacity` first items offered to it, by `compare`; the last of them on top. */
class Heap {
  readonly #items: number[] = [];
  readonly #compare: (a: number, b: number) => number;
  readonly #capacity: number;

  constructor(compare: (a: number, b: number) => number, capacity: number) {
    this.#compare = compare;
    this.#capacity = capacity;
  }

  offer(item: number): void {
    const items = this.#items;
    if (items.length < this.#capacity) {
      items.push(item);
      this.#up(items.length - 1);
    } else if (this.#compare(item, items[0] as number) < 0) {
      items[0] = item;
      this.#down(0);
    }
  }

  sorted(): number[] {
    return [...this.#items].sort(this.#compare);
  }

  #up(at: number): void {
    const items = this.#items;
    let child = at;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (this.#compare(items[child] as number, items[parent] as number) <= 0) break;
      swap(items, child, parent);
      child = parent;
    }
  }

  #down(at: number): void {
    const items = this.#items;
    let parent = at;
    for (;;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let largest = parent;
      if (left < items.length && this.#compare(items[left] as number, items[largest] as number) > 0)
        largest = left;
      if (
        right < items.length &&
        this.#compare(items[right] as number, items[largest] as number) > 0
      )
        largest = right;
      if (largest === parent) return;
      swap(items, parent, largest);
      parent = largest;
    }
  }
}

function swap(items: number[], a: number, b: number): void {
  const t = items[a] as number;
  items[a] = items[b] as number;
  items[b] = t;
}

import { Scratch } from './int-lists.ts';
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
  const ranks = RANKS.take(ids.length);
  for (let i = 0; i < ids.length; i++) ranks[i] = rank[ids[i] as number] as number;
  const page: number[] = [];
  if (wanted * 4 >= ids.length) {
    ranks.sort();
    for (let r = start; r < wanted; r++) page.push(order[ranks[r] as number] as number);
    return page;
  }
  // Ranks are distinct: their difference orders them.
  const positions = pageBy(
    ids.length,
    (a, b) => (ranks[a] as number) - (ranks[b] as number),
    start,
    limit,
  );
  for (const p of positions) page.push(order[ranks[p] as number] as number);
  return page;
}

/** The ranks of the list being paged (a page is made at once, never two together). */
const RANKS = new Scratch((length) => new Int32Array(length));

/**
 * Positions `[start, start + limit)` of `0 … count - 1` ordered by `compare`, a total order: the
 * first `start + limit` are kept in a heap, which is then sorted in place. (Sorting them all with
 * `Array.prototype.sort` took 13 µs for 126 found docs: the built-in calls the comparison back
 * across the boundary every time; here it is ordinary code the compiler can inline.)
 */
export function pageBy(
  count: number,
  compare: (a: number, b: number) => number,
  start: number,
  limit: number,
): number[] {
  const wanted = Math.min(count, start + limit);
  if (start >= wanted) return [];
  // A max-heap of the `wanted` first positions: the last of them on top.
  const heap: number[] = [];
  for (let i = 0; i < count; i++) {
    if (heap.length < wanted) {
      heap.push(i);
      siftUp(heap, compare);
    } else if (compare(i, heap[0] as number) < 0) {
      heap[0] = i;
      siftDown(heap, heap.length, compare);
    }
  }
  // Heapsort: the last one goes to the end, again and again, leaving them in order.
  for (let end = heap.length - 1; end > 0; end--) {
    swap(heap, 0, end);
    siftDown(heap, end, compare);
  }
  return start === 0 ? heap : heap.slice(start);
}

/** Moves the last of `heap` up to its place. */
function siftUp(heap: number[], compare: (a: number, b: number) => number): void {
  let child = heap.length - 1;
  while (child > 0) {
    const parent = (child - 1) >> 1;
    if (compare(heap[child] as number, heap[parent] as number) <= 0) return;
    swap(heap, child, parent);
    child = parent;
  }
}

/** Moves the top of `heap[0, size)` down to its place. */
function siftDown(heap: number[], size: number, compare: (a: number, b: number) => number): void {
  let parent = 0;
  for (;;) {
    const left = parent * 2 + 1;
    const right = left + 1;
    let largest = parent;
    if (left < size && compare(heap[left] as number, heap[largest] as number) > 0) largest = left;
    if (right < size && compare(heap[right] as number, heap[largest] as number) > 0)
      largest = right;
    if (largest === parent) return;
    swap(heap, parent, largest);
    parent = largest;
  }
}

function swap(items: number[], a: number, b: number): void {
  const t = items[a] as number;
  items[a] = items[b] as number;
  items[b] = t;
}

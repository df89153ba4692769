import { Scratch } from './int-lists.ts';
import type { Ranking } from './sort-orders.ts';

/**
 * Items `[start, start + limit)` of `ids` (distinct) in the order of their ranks: read off marks
 * laid on the ranks when the list holds a fair share of the ranked docs, else the smallest ranks
 * are picked with a heap, or sorted when most of the list is wanted anyway.
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
  if (order.length <= ids.length * MARK_SPAN) return pageByMarks(ids, ranking, start, wanted);
  const ranks = RANKS.take(ids.length);
  for (let i = 0; i < ids.length; i++) ranks[i] = rank[ids[i] as number] as number;
  const page: number[] = [];
  if (wanted * 4 >= ids.length) {
    ranks.sort();
    for (let r = start; r < wanted; r++) page.push(order[ranks[r] as number] as number);
    return page;
  }
  // Ranks are distinct: they alone order the list.
  const keys = KEYS.take(ids.length);
  for (let i = 0; i < ids.length; i++) keys[i] = ranks[i] as number;
  for (const p of pageByKeys(keys, ranks, start, limit))
    page.push(order[ranks[p] as number] as number);
  return page;
}

/** The ranks of the list being paged (a page is made at once, never two together). */
const RANKS = new Scratch((length) => new Int32Array(length));

/** Marks are read when at least one ranked doc in this many is in the list. */
const MARK_SPAN = 8;
/** One mark per ranked doc, all 0 between pages. */
const MARKS = new Scratch((length) => new Uint8Array(length));

/**
 * The page read off marks laid on the ranks of the listed docs: no comparison at all, and a walk
 * of the ranks only as far as the last one wanted. The marks are lifted again before returning.
 */
function pageByMarks(
  ids: ArrayLike<number>,
  { rank, order }: Ranking,
  start: number,
  wanted: number,
): number[] {
  const marks = MARKS.take(order.length);
  for (let i = 0; i < ids.length; i++) marks[rank[ids[i] as number] as number] = 1;
  const page: number[] = [];
  for (let r = 0, seen = 0; seen < wanted; r++) {
    if (marks[r] !== 1) continue;
    if (seen >= start) page.push(order[r] as number);
    seen++;
  }
  for (let i = 0; i < ids.length; i++) marks[rank[ids[i] as number] as number] = 0;
  return page;
}

/** Keys of the list being paged. */
const KEYS = new Scratch((length) => new Float64Array(length));

/**
 * Positions `[start, start + limit)` of `0 … keys.length - 1`, by key, smallest first, and by
 * rank where two keys are neither smaller nor larger (`ranks` distinct: a total order, as long as
 * no key is NaN). The first `start + limit` are selected in place (quickselect), then sorted
 * (quicksort, insertion for short runs), comparing numbers read from the two arrays, with no
 * comparison callback. An unlucky run of pivots falls back to a heap, never worse than n log n.
 */
export function pageByKeys(
  keys: Float64Array,
  ranks: Int32Array,
  start: number,
  limit: number,
): number[] {
  const count = keys.length;
  const wanted = Math.min(count, start + limit);
  if (start >= wanted) return [];
  const items = ITEMS.take(count);
  for (let i = 0; i < count; i++) items[i] = i;
  // Narrow [low, high] down to a short run that holds the last wanted item, every item left of
  // it before it, every item right of it after it; or stop when that item is a pivot in place.
  let low = 0;
  let high = count - 1;
  // Past this many partitions down one path, the order is an unlucky one: the heap takes over.
  const depth = 2 * Math.ceil(Math.log2(count + 1)) + 8;
  let partitions = 0;
  while (high - low > INSERTION_RUN) {
    if (++partitions > depth) return pageByHeap(keys, ranks, start, wanted);
    const pivot = partition(keys, ranks, items, low, high);
    if (wanted - 1 < pivot) high = pivot - 1;
    else if (wanted - 1 > pivot) low = pivot + 1;
    else {
      high = wanted - 1;
      break;
    }
  }
  if (!sortRange(keys, ranks, items, 0, high, depth)) return pageByHeap(keys, ranks, start, wanted);
  const page: number[] = [];
  for (let k = start; k < wanted; k++) page.push(items[k] as number);
  return page;
}

/** The positions being paged. */
const ITEMS = new Scratch((length) => new Int32Array(length));
/** Runs this short are sorted by insertion. */
const INSERTION_RUN = 12;

/**
 * 1 when position `a` comes before position `b`, else 0: a smaller key, or a smaller rank where
 * neither key is smaller nor larger. Worked out without branches: on random keys a branch goes
 * the wrong way half the time, and mispredictions were most of the cost.
 */
function before(keys: Float64Array, ranks: Int32Array, a: number, b: number): number {
  const x = keys[a] as number;
  const y = keys[b] as number;
  return Number(x < y) | (Number(!(x > y)) & Number((ranks[a] as number) < (ranks[b] as number)));
}

/**
 * Partitions `items[low … high]` around a median of three: the items before the pivot end left
 * of it, the others right of it. Returns where the pivot ends. Each item is swapped whatever it
 * is, and the boundary moves by the comparison's 0 or 1: no branch on the data.
 */
function partition(
  keys: Float64Array,
  ranks: Int32Array,
  items: Int32Array,
  low: number,
  high: number,
): number {
  // Three items drawn at random, not the first, middle and last: found docs come in the grid's
  // order, and their distances in runs that made those three a poor median again and again
  // (3 searches of the bench's 400 fell back to the heap). The page never depends on the draw.
  const span = high - low + 1;
  const first = low + Math.floor(nextRandom() * span);
  const middle = low + Math.floor(nextRandom() * span);
  const last = low + Math.floor(nextRandom() * span);
  swap(items, low, first);
  swap(items, high, last);
  if (middle !== low && middle !== high) {
    if (before(keys, ranks, items[middle] as number, items[low] as number))
      swap(items, middle, low);
    if (before(keys, ranks, items[high] as number, items[low] as number)) swap(items, high, low);
    if (before(keys, ranks, items[high] as number, items[middle] as number))
      swap(items, high, middle);
    // The median to `low`, out of the sweep, then to its place.
    swap(items, low, middle);
  }
  const pivot = items[low] as number;
  let store = low + 1;
  for (let i = low + 1; i <= high; i++) {
    const item = items[i] as number;
    items[i] = items[store] as number;
    items[store] = item;
    store += before(keys, ranks, item, pivot);
  }
  store--;
  swap(items, low, store);
  return store;
}

/**
 * The number that would stand at `k` (from 0) were `values` sorted, smallest first; `values` is
 * reordered. A quickselect on the numbers themselves, with no positions and no ranks (equal
 * numbers give the same answer): a threshold, where `pageByKeys` gives a page. Partitions are
 * branch-free as there; an unlucky run of pivots ends in a sort of what is left. No NaN.
 */
export function kthSmallest(values: Float64Array, k: number): number {
  let low = 0;
  let high = values.length - 1;
  const depth = 2 * Math.ceil(Math.log2(values.length + 1)) + 8;
  for (let partitions = 0; high - low > INSERTION_RUN && partitions < depth; partitions++) {
    const span = high - low + 1;
    const pivot = medianOf(
      values[low + Math.floor(nextRandom() * span)] as number,
      values[low + Math.floor(nextRandom() * span)] as number,
      values[low + Math.floor(nextRandom() * span)] as number,
    );
    // Smaller than the pivot to the left of `store`.
    let store = low;
    for (let i = low; i <= high; i++) {
      const value = values[i] as number;
      values[i] = values[store] as number;
      values[store] = value;
      store += Number(value < pivot);
    }
    if (k < store) high = store - 1;
    else if (store > low) low = store;
    else {
      // Nothing smaller: the pivot's equals to the left, then what is larger.
      for (let i = low; i <= high; i++) {
        const value = values[i] as number;
        values[i] = values[store] as number;
        values[store] = value;
        store += Number(value <= pivot);
      }
      if (k < store) return pivot;
      low = store;
    }
  }
  for (let i = low + 1; i <= high; i++) {
    const value = values[i] as number;
    let j = i - 1;
    for (; j >= low && (values[j] as number) > value; j--) values[j + 1] = values[j] as number;
    values[j + 1] = value;
  }
  return values[k] as number;
}

function medianOf(a: number, b: number, c: number): number {
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}

/** xorshift32 as a fraction in [0, 1): the pivots' draws (the pages never depend on them). */
let random = 0x9e3779b9 | 0;
function nextRandom(): number {
  random ^= random << 13;
  random ^= random >>> 17;
  random ^= random << 5;
  return (random >>> 0) / 2 ** 32;
}

/**
 * Sorts `items[low … high]` in place: quicksort down to short runs, then insertion. False when
 * more than `depth` partitions were needed down one path (an unlucky order).
 */
function sortRange(
  keys: Float64Array,
  ranks: Int32Array,
  items: Int32Array,
  low: number,
  high: number,
  depth: number,
): boolean {
  let from = low;
  let to = high;
  for (let left = depth; to - from > INSERTION_RUN; left--) {
    if (left <= 0) return false;
    const pivot = partition(keys, ranks, items, from, to);
    // The shorter side by recursion, the longer by the loop: the stack stays short.
    if (pivot - from < to - pivot) {
      if (!sortRange(keys, ranks, items, from, pivot - 1, left - 1)) return false;
      from = pivot + 1;
    } else {
      if (!sortRange(keys, ranks, items, pivot + 1, to, left - 1)) return false;
      to = pivot - 1;
    }
  }
  for (let i = from + 1; i <= to; i++) {
    const item = items[i] as number;
    let j = i - 1;
    for (; j >= from && before(keys, ranks, item, items[j] as number); j--) {
      items[j + 1] = items[j] as number;
    }
    items[j + 1] = item;
  }
  return true;
}

/**
 * What `pageByKeys` gives, from a heap of the first `wanted` positions then sorted in place:
 * never worse than n log n comparisons, whatever the order. (Exported for its own test: with
 * random pivots, no order reaches it on purpose.)
 */
export function pageByHeap(
  keys: Float64Array,
  ranks: Int32Array,
  start: number,
  wanted: number,
): number[] {
  // A heap of the `wanted` first positions, the last of them on top.
  const heap: number[] = [];
  for (let i = 0; i < keys.length; i++) {
    if (heap.length < wanted) {
      heap.push(i);
      siftUp(keys, ranks, heap);
    } else if (before(keys, ranks, i, heap[0] as number)) {
      heap[0] = i;
      siftDown(keys, ranks, heap, heap.length);
    }
  }
  // Heapsort: the last one goes to the end, again and again, leaving them in order.
  for (let end = heap.length - 1; end > 0; end--) {
    swap(heap, 0, end);
    siftDown(keys, ranks, heap, end);
  }
  return start === 0 ? heap : heap.slice(start);
}

/** Moves the last of `heap` up to its place. */
function siftUp(keys: Float64Array, ranks: Int32Array, heap: number[]): void {
  let child = heap.length - 1;
  while (child > 0) {
    const parent = (child - 1) >> 1;
    if (!before(keys, ranks, heap[parent] as number, heap[child] as number)) return;
    swap(heap, child, parent);
    child = parent;
  }
}

/** Moves the top of `heap[0, size)` down to its place. */
function siftDown(keys: Float64Array, ranks: Int32Array, heap: number[], size: number): void {
  let parent = 0;
  for (;;) {
    const left = parent * 2 + 1;
    const right = left + 1;
    let last = parent;
    if (left < size && before(keys, ranks, heap[last] as number, heap[left] as number)) last = left;
    if (right < size && before(keys, ranks, heap[last] as number, heap[right] as number))
      last = right;
    if (last === parent) return;
    swap(heap, parent, last);
    parent = last;
  }
}

function swap(items: Int32Array | number[], a: number, b: number): void {
  const t = items[a] as number;
  items[a] = items[b] as number;
  items[b] = t;
}

/** A growable list of 32-bit integers: one backing buffer instead of a JS array per object. */
export class IntBuffer {
  #data: Int32Array;
  #length = 0;

  constructor(capacity = 1024) {
    this.#data = new Int32Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.#length === this.#data.length) {
      const grown = new Int32Array(this.#data.length * 2);
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data[this.#length++] = value;
  }

  get length(): number {
    return this.#length;
  }

  /** Adds 1 to the value at `index` (below `length`). */
  bump(index: number): void {
    this.#data[index] = (this.#data[index] as number) + 1;
  }

  /** Empties the list, keeping its buffer for the next values. */
  clear(): void {
    this.#length = 0;
  }

  /** The values pushed so far, in a buffer of exactly that length. */
  toArray(): Int32Array {
    return this.#data.slice(0, this.#length);
  }

  /** The values pushed so far, as a view: valid until the list is cleared or grows. */
  view(): Int32Array {
    return this.#data.subarray(0, this.#length);
  }
}

/** `IntBuffer` for doubles: no boxed numbers and no array transitions on a hot path. */
export class FloatBuffer {
  #data: Float64Array;
  #length = 0;

  constructor(capacity = 1024) {
    this.#data = new Float64Array(capacity);
  }

  push(value: number): void {
    if (this.#length === this.#data.length) {
      const grown = new Float64Array(Math.max(16, this.#data.length * 2));
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data[this.#length++] = value;
  }

  /** Empties the list, keeping its buffer for the next values. */
  clear(): void {
    this.#length = 0;
  }

  /** The values pushed so far, as a view: valid until the list is cleared or grows. */
  view(): Float64Array {
    return this.#data.subarray(0, this.#length);
  }
}

/**
 * A typed array kept from use to use, for values that live while one list is worked on:
 * `take(n)` gives `n` of them, not zeroed, valid until the next `take`: a new typed array of more
 * than 64 bytes has its memory allocated outside the JavaScript heap, a view of a kept one not.
 */
export class Scratch<T extends Uint8Array | Int32Array | Float64Array> {
  readonly #make: (length: number) => T;
  #values: T;

  constructor(make: (length: number) => T) {
    this.#make = make;
    this.#values = make(1024);
  }

  take(length: number): T {
    if (this.#values.length < length) this.#values = this.#make(2 ** Math.ceil(Math.log2(length)));
    return this.#values.subarray(0, length) as T;
  }
}

/**
 * One list of integers per object, stored end to end (compressed sparse rows): the values of
 * object i are `values[starts[i]]` up to `values[starts[i + 1]]`.
 */
export type Ragged = { starts: Int32Array; values: Int32Array };

export class RaggedBuilder {
  readonly #starts: IntBuffer;
  readonly #values: IntBuffer;

  constructor(expectedRows: number) {
    this.#starts = new IntBuffer(expectedRows + 1);
    this.#values = new IntBuffer(expectedRows * 4);
    this.#starts.push(0);
  }

  /** Adds the next row. */
  add(values: readonly number[]): void {
    for (const value of values) this.#values.push(value);
    this.#starts.push(this.#values.length);
  }

  build(): Ragged {
    return { starts: this.#starts.toArray(), values: this.#values.toArray() };
  }
}

/** Whether the sorted `values[from..to)` holds `value` (binary search). */
export function sortedHas(values: Int32Array, from: number, to: number, value: number): boolean {
  const at = lowerBound(values, value, from, to);
  return at < to && values[at] === value;
}

/**
 * The first index of the sorted `values[from..to)` whose value is at least `value` (`to` if
 * none).
 */
export function lowerBound(
  values: Int32Array,
  value: number,
  from = 0,
  to = values.length,
): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Ascending, without repeats. */
export function sortedUnique(values: number[]): number[] {
  values.sort((a, b) => a - b);
  let kept = 0;
  for (let i = 0; i < values.length; i++) {
    if (i === 0 || values[i] !== values[kept - 1]) values[kept++] = values[i] as number;
  }
  values.length = kept;
  return values;
}

/**
 * The values in any of the sorted lists, sorted. Many or long lists are merged through a mark
 * per possible value, which costs the universe once instead of a sort.
 */
export function unionSorted(lists: readonly Int32Array[], universe: number): Int32Array {
  if (lists.length === 0) return new Int32Array(0);
  if (lists.length === 1) return lists[0] as Int32Array;
  let total = 0;
  for (const list of lists) total += list.length;
  if (total * 8 < universe) {
    const all = new Int32Array(total);
    let at = 0;
    for (const list of lists) {
      all.set(list, at);
      at += list.length;
    }
    all.sort();
    let kept = 0;
    for (let i = 0; i < all.length; i++) {
      if (i === 0 || all[i] !== all[kept - 1]) all[kept++] = all[i] as number;
    }
    return all.slice(0, kept);
  }
  const marks = new Uint8Array(universe);
  for (const list of lists) for (let i = 0; i < list.length; i++) marks[list[i] as number] = 1;
  const out = new IntBuffer(total);
  for (let i = 0; i < universe; i++) if (marks[i] === 1) out.push(i);
  return out.toArray();
}

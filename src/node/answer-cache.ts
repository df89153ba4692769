import { BoundedCache } from '../engine/bounded-cache.ts';

/** A whole answer, as written on the wire. */
export type CachedAnswer = {
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** The body gzipped, made once for clients that accept it. */
  gzip?: Buffer;
  /** An answer of one of the API operations, journalled when served again from the cache. */
  api?: boolean;
  /** Ready-made header lists for the plain and the gzipped body, made on first use. */
  wire?: { plain?: string[]; gzip?: string[] };
};

/**
 * Everything an answer depends on: a short context (data generation, method, the headers the app
 * reads), the request target and the body.
 */
export type RequestKey = { context: string; url: string; body: Buffer | undefined };

type Entry = { key: RequestKey; answer: CachedAnswer };

/**
 * Least-recently-used answers, bounded in bytes. The mock's data never change and its answers are
 * pure functions of the request, so an answer served once can be served again as bytes.
 *
 * Entries are found by a hash of the key's bytes and then compared in full, so a collision costs
 * an entry (the newer one replaces the older) and never a wrong answer. Hashing the bytes four at
 * a time costs a fraction of what a Map spends hashing a long string key: grading URLs carry
 * dozens of 40-character keys.
 */
export class AnswerCache {
  readonly #maxBytes: number;
  readonly #hash: (key: RequestKey) => number;
  // Loosely ordered: an answer used recently is left in place, so a hot one costs one lookup.
  readonly #entries: BoundedCache<number, Entry>;

  constructor(maxBytes: number, hash: (key: RequestKey) => number = hashKey) {
    this.#maxBytes = maxBytes;
    this.#hash = hash;
    this.#entries = new BoundedCache({ maxCost: maxBytes, looseOrder: true });
  }

  get size(): number {
    return this.#entries.size;
  }

  /** What the entries are counted to cost, at most the budget. */
  get bytes(): number {
    return this.#entries.cost;
  }

  clear(): void {
    this.#entries.clear();
  }

  get(key: RequestKey): CachedAnswer | undefined {
    return this.#entries.getIf(this.#hash(key), isFor, key)?.answer;
  }

  set(key: RequestKey, answer: CachedAnswer): void {
    if (answer.gzip !== undefined) answer.gzip = exact(answer.gzip);
    const size = sizeOf(key, answer);
    if (size > this.#maxBytes / 8) return;
    const hash = this.#hash(key);
    // The body is copied out of the shared pool that small request buffers come from.
    let body: Buffer | undefined;
    if (key.body !== undefined) {
      body = Buffer.allocUnsafeSlow(key.body.length);
      key.body.copy(body);
    }
    this.#entries.set(hash, { key: { ...key, body }, answer }, size);
  }

  /**
   * Counts again what `answer`, kept for `key`, costs after something was added to it (its gzip,
   * made on the first request that accepts it), and forgets old entries if that passes the budget.
   */
  grew(key: RequestKey, answer: CachedAnswer): void {
    const hash = this.#hash(key);
    const entry = this.#entries.peek(hash);
    if (entry === undefined || entry.answer !== answer) return;
    if (answer.gzip !== undefined) answer.gzip = exact(answer.gzip);
    const size = sizeOf(entry.key, answer);
    if (size > this.#maxBytes / 8) this.#entries.delete(hash);
    else this.#entries.recost(hash, size);
  }
}

/**
 * The bytes in a buffer of their own: a view into a larger one (a slab of Node's pool, a 16 KiB
 * chunk of zlib's output) would keep all of it alive for as long as the entry.
 */
function exact(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

const isFor = (entry: Entry, key: RequestKey) => sameKey(entry.key, key);

function sameKey(a: RequestKey, b: RequestKey): boolean {
  if (a.url !== b.url || a.context !== b.context) return false;
  if (a.body === undefined || b.body === undefined) return a.body === b.body;
  return a.body.equals(b.body);
}

/**
 * What an entry costs beyond the bytes of its key, body and gzip: the entry, its key and answer
 * objects, the Buffer and ArrayBuffer objects of its body, gzip and request body, the header
 * lists made to write it (plain and gzip), and its slot in the map. Taken from a measurement of
 * live heap after collection (test/node/answer-cache-memory.test.ts), rounded up.
 */
const ENTRY_OVERHEAD = 1_200;
/** The same for the copy of a request body that a POST's key keeps. */
const BODY_OVERHEAD = 400;

/** What an entry costs: its bytes (strings as one byte a character, as they are kept) and the overhead. */
function sizeOf(key: RequestKey, answer: CachedAnswer): number {
  const keyBytes =
    key.context.length +
    key.url.length +
    (key.body === undefined ? 0 : key.body.length + BODY_OVERHEAD);
  let headerBytes = 0;
  for (const [name, value] of answer.headers) headerBytes += name.length + value.length;
  return keyBytes + headerBytes + answer.body.length + (answer.gzip?.length ?? 0) + ENTRY_OVERHEAD;
}

let scratch = Buffer.allocUnsafeSlow(16 * 1024);
let words = new Int32Array(scratch.buffer, 0, scratch.length >> 2);

/**
 * A 53-bit hash of a key's bytes (strings as Latin-1, which is how node:http hands over request
 * lines and headers): the bytes are laid out in one scratch buffer and read as 32-bit words by two
 * interleaved multiply-xor lanes, then mixed.
 */
export function hashKey(key: RequestKey): number {
  const needed = key.context.length + key.url.length + (key.body?.length ?? 0);
  if (needed > scratch.length) {
    scratch = Buffer.allocUnsafeSlow(2 ** Math.ceil(Math.log2(needed)));
    words = new Int32Array(scratch.buffer, 0, scratch.length >> 2);
  }
  let length = scratch.write(key.context, 0, 'latin1');
  length += scratch.write(key.url, length, 'latin1');
  if (key.body !== undefined) length += key.body.copy(scratch, length);
  const whole = length >> 2;
  let a = 0x811c9dc5 ^ length;
  // Where the URL ends and whether there is a body tell apart keys whose bytes run together.
  let b = 0x2545f491 ^ (key.url.length << 1) ^ (key.body === undefined ? 0 : 1);
  let i = 0;
  for (; i + 1 < whole; i += 2) {
    a = Math.imul(a ^ (words[i] as number), 0x01000193);
    b = Math.imul(b ^ (words[i + 1] as number), 0x5bd1e995);
  }
  if (i < whole) a = Math.imul(a ^ (words[i] as number), 0x01000193);
  for (let j = whole * 4; j < length; j++) b = Math.imul(b ^ (scratch[j] as number), 0x5bd1e995);
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b) ^ b;
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35) ^ a;
  a = Math.imul(a ^ (a >>> 16), 0x27d4eb2f);
  return (a >>> 0) * 0x200000 + ((b >>> 11) & 0x1fffff);
}

import { setImmediate as turn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { itemPositions, readFixtureFile } from './fixtures-worker.mjs';

/**
 * A worker that has read a file waits this long for the next load before it stops: a burst of
 * edits then costs no thread start (~100 ms), and an idle server keeps no thread.
 */
const SPARE_MS = 30_000;
let spare: { worker: Worker; timer: NodeJS.Timeout } | undefined;

/** JSON text parsed per batch on the main thread: a few milliseconds of parsing and checking. */
const BATCH_BYTES = 256 * 1024;
const BATCH_ITEMS = 1_000;

/**
 * A file read: its item count and where item i begins (`line:column`), or the problems that
 * kept it from being read.
 */
export type Opened = { count: number; where(index: number): string } | { problems: string[] };

/** Reads fixture files one at a time and hands their items over in batches. */
export type FixturesReader = {
  /** Reads `path` (named `name` in problems) and keeps its items for `next()`. */
  open(path: string, name: string): Promise<Opened>;
  /** The next items of the open file; an empty list once all have come. Ask ahead to overlap. */
  next(): Promise<unknown[]>;
  /** Stops reading, also in the middle of a file. */
  close(): Promise<void>;
};

/**
 * A reader on this thread: the fastest way when nothing is being served (start-up), as a file is
 * parsed once, whole.
 */
export function inlineReader(maxDepth: number): FixturesReader {
  let items: unknown[] = [];
  return {
    async open(path, name) {
      const read = readFixtureFile(path, name, maxDepth);
      if (read.problems) return { problems: read.problems };
      items = read.items;
      return { count: items.length, where: itemPositions(read.bytes, read.seps) };
    },
    async next() {
      const all = items;
      items = [];
      return all;
    },
    async close() {},
  };
}

/**
 * A reader on a worker thread: the file is read, checked as UTF-8, parsed and checked for depth
 * there; its bytes then move here, and each `next()` parses the text of a few hundred kilobytes
 * of items after letting waiting answers go, so the main thread never stops for long. The worker
 * is kept for the next reader a while, unless closed in the middle of a read (then it stops).
 */
export class WorkerReader implements FixturesReader {
  readonly #worker: Worker;
  readonly #maxDepth: number;
  readonly #onMessage = (reply: unknown) => this.#pending.shift()?.resolve(reply);
  readonly #onFailure = (error: Error) => {
    this.#failure ??= error;
    for (const pending of this.#pending.splice(0)) pending.reject(error);
  };
  readonly #onExit = () => this.#onFailure(new Error('the fixtures reader stopped'));
  /** Questions in the order asked: the worker answers in that order. */
  readonly #pending: { resolve: (reply: unknown) => void; reject: (error: Error) => void }[] = [];
  #failure: Error | undefined;
  #text: Buffer = Buffer.alloc(0);
  #seps: Uint32Array = new Uint32Array(0);
  /** The next item to parse. */
  #next = 0;
  #closed = false;

  constructor(maxDepth: number) {
    this.#maxDepth = maxDepth;
    if (spare !== undefined) clearTimeout(spare.timer);
    this.#worker =
      spare?.worker ??
      new Worker(new URL('./fixtures-worker.mjs', import.meta.url), {
        workerData: { fixturesReader: true },
      });
    spare = undefined;
    this.#worker.ref();
    this.#worker.on('message', this.#onMessage);
    this.#worker.on('error', this.#onFailure);
    this.#worker.on('exit', this.#onExit);
  }

  async open(path: string, name: string): Promise<Opened> {
    const reply = (await this.#ask({ path, name, maxDepth: this.#maxDepth })) as
      | { problems: string[] }
      | { count: number; bytes: Uint8Array; seps: Uint32Array };
    if ('problems' in reply) return reply;
    const { bytes, seps } = reply;
    this.#text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#seps = seps;
    this.#next = 0;
    return { count: reply.count, where: itemPositions(bytes, seps) };
  }

  async next(): Promise<unknown[]> {
    await turn();
    if (this.#closed) throw new Error('the fixtures reader was closed');
    const seps = this.#seps;
    const first = this.#next;
    const count = Math.max(seps.length - 1, 0);
    if (first >= count) return [];
    let last = first + 1;
    const budget = (seps[first] as number) + BATCH_BYTES;
    while (last < count && last - first < BATCH_ITEMS && (seps[last + 1] as number) <= budget)
      last++;
    this.#next = last;
    // The items' text with the commas between them: the inside of a JSON array.
    const inside = this.#text.toString('utf8', (seps[first] as number) + 1, seps[last]);
    return JSON.parse(`[${inside}]`) as unknown[];
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const worker = this.#worker;
    if (this.#pending.length > 0 || this.#failure !== undefined || spare !== undefined) {
      await worker.terminate();
      return;
    }
    worker.off('message', this.#onMessage);
    worker.off('error', this.#onFailure);
    worker.off('exit', this.#onExit);
    worker.unref();
    const timer = setTimeout(() => {
      if (spare?.worker === worker) spare = undefined;
      void worker.terminate();
    }, SPARE_MS);
    timer.unref();
    spare = { worker, timer };
  }

  #ask(message: object): Promise<unknown> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      this.#pending.push({ resolve, reject });
      this.#worker.postMessage(message);
    });
  }
}

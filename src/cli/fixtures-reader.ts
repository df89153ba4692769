import { Worker } from 'node:worker_threads';
import { readFixtureFile } from './fixtures-worker.mjs';

/** Items handed over per message: each one's copy costs the main thread a few milliseconds. */
const BATCH = 250;

/** A file read: its item count, or the problems that kept it from being read. */
export type Opened = { count: number } | { problems: string[] };

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
 * parsed once and its items are not copied.
 */
export function inlineReader(maxDepth: number): FixturesReader {
  let items: unknown[] = [];
  return {
    async open(path, name) {
      const read = readFixtureFile(path, name, maxDepth);
      items = read.items ?? [];
      return read.problems ? { problems: read.problems } : { count: items.length };
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
 * there, and its items come over in small batches on request, so the main thread never stops for
 * long and a server goes on answering.
 */
export class WorkerReader implements FixturesReader {
  readonly #worker: Worker;
  /** Questions in the order asked: the worker answers in that order. */
  readonly #pending: { resolve: (reply: unknown) => void; reject: (error: Error) => void }[] = [];
  #failure: Error | undefined;

  constructor(maxDepth: number) {
    this.#worker = new Worker(new URL('./fixtures-worker.mjs', import.meta.url), {
      workerData: { fixturesReader: true, maxDepth },
    });
    this.#worker.on('message', (reply) => this.#pending.shift()?.resolve(reply));
    const fail = (error: Error) => {
      this.#failure ??= error;
      for (const pending of this.#pending.splice(0)) pending.reject(error);
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', () => fail(new Error('the fixtures reader stopped')));
  }

  open(path: string, name: string): Promise<Opened> {
    return this.#ask({ open: path, name }) as Promise<Opened>;
  }

  async next(): Promise<unknown[]> {
    return ((await this.#ask({ next: BATCH })) as { items: unknown[] }).items;
  }

  async close(): Promise<void> {
    await this.#worker.terminate();
  }

  #ask(message: object): Promise<unknown> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      this.#pending.push({ resolve, reject });
      this.#worker.postMessage(message);
    });
  }
}

import { paramsFromPairs, queryPairs } from '../query-forms.ts';
import { operationId, operationPath, spelledPath } from './operation-paths.ts';
import { decodeParams } from './param-match.ts';

/** One request as `GET /_mock/requests` shows it. */
export type JournalEntry = {
  id: number;
  /** When it arrived, ISO 8601. */
  time: string;
  method: string;
  /** The path as the client spelled it, without the base path or query. */
  path: string;
  /** The contract's operationId, or null for a path and method outside it. */
  operation: string | null;
  /** The parameters from the query and the JSON body (the body wins), decoded. */
  params: Record<string, unknown>;
  /** The status answered; null for no answer (a reset or hang fault, or still in flight). */
  status: number | null;
  ms: number | null;
  /** The id of the scenario that answered it, or null. */
  scenario: string | null;
  headers: Record<string, string>;
};

export type JournalFilter = { path?: string; method?: string; status?: number };

/** What is kept of a request: its raw pieces, decoded only when someone reads the journal. */
export type Recorded = {
  id: number;
  time: number;
  method: string;
  url: string;
  body: Buffer | string | undefined;
  headers: Record<string, string>;
  status: number | null;
  ms: number | null;
  scenario: string | null;
};

export const REDACTED = '[redacted]';
const ALWAYS_REDACTED = ['x-api-key', 'authorization', 'cookie', 'proxy-authorization'];

/**
 * The last `size` requests, oldest first, in a ring of fixed size (0 keeps none). Headers are
 * copied with secrets replaced on the way in: a key is never held past its request.
 */
export class Journal {
  readonly size: number;
  readonly #ring: (Recorded | undefined)[];
  readonly #secret: Set<string>;
  readonly #watchers = new Set<(entry: Recorded) => void>();
  #lastHeaders: Record<string, string> | undefined;
  #next = 0;
  #total = 0;
  #id = 1;

  constructor(size: number, redact: string[] = []) {
    if (!(Number.isInteger(size) && size >= 0))
      throw new RangeError(
        `journalSize must be a whole number of requests, 0 or more (0 keeps none), got ${JSON.stringify(size)}`,
      );
    this.size = size;
    this.#ring = new Array(size);
    this.#secret = new Set([...ALWAYS_REDACTED, ...redact.map((h) => h.toLowerCase())]);
  }

  /** Whether recording is of use: something is kept, or someone waits for a request. */
  get on(): boolean {
    return this.size > 0 || this.#watchers.size > 0;
  }

  /** Keeps a request's pieces; `finish` adds its answer unless given here. */
  record(
    method: string,
    url: string,
    body: Buffer | string | undefined,
    headers: Headers | Record<string, string | string[] | undefined>,
    status: number | null = null,
    ms: number | null = null,
    scenario: string | null = null,
  ): Recorded {
    const kept = this.#kept(headers);
    const entry: Recorded = {
      id: this.#id++,
      time: Date.now(),
      method,
      url,
      body,
      headers: kept,
      status,
      ms,
      scenario,
    };
    this.#total++;
    if (this.size > 0) {
      this.#ring[this.#next] = entry;
      this.#next = (this.#next + 1) % this.size;
    }
    if (status !== null) this.#tell(entry);
    return entry;
  }

  finish(
    entry: Recorded,
    status: number | null,
    ms: number,
    scenario: string | null = entry.scenario,
  ) {
    entry.status = status;
    entry.ms = ms;
    entry.scenario = scenario;
    this.#tell(entry);
  }

  /** The kept requests that pass the filter, oldest first, decoded. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const entries: JournalEntry[] = [];
    for (let i = 0; i < this.size; i++) {
      const entry = this.#ring[(this.#next + i) % this.size];
      if (entry !== undefined && passes(entry, filter)) entries.push(decode(entry));
    }
    return entries;
  }

  get meta(): { total: number; dropped: number } {
    const kept = this.#ring.reduce((n, e) => (e === undefined ? n : n + 1), 0);
    return { total: this.#total, dropped: this.#total - kept };
  }

  clear(): void {
    this.#ring.fill(undefined);
    this.#next = 0;
    this.#total = 0;
  }

  /** Resolves with the first request (answered from now on, or already kept) passing the filter. */
  waitFor(filter: JournalFilter, timeoutMs: number): Promise<JournalEntry> {
    const [already] = this.list(filter).filter((e) => e.status !== null);
    if (already !== undefined) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const watcher = (entry: Recorded) => {
        if (!passes(entry, filter)) return;
        clearTimeout(timer);
        this.#watchers.delete(watcher);
        resolve(decode(entry));
      };
      const timer = setTimeout(() => {
        this.#watchers.delete(watcher);
        reject(new Error(`No request matching ${JSON.stringify(filter)} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#watchers.add(watcher);
    });
  }

  /**
   * The headers as kept (secrets redacted), shared with the entry before when they are the same:
   * a client sends the same headers each time, and an object kept per request outlives the young
   * generation and costs the server more than the recording itself. Kept headers are never changed.
   */
  #kept(headers: Headers | Record<string, string | string[] | undefined>): Record<string, string> {
    const pairs: [string, string][] = [];
    const add = (name: string, value: string): void => {
      pairs.push([name, this.#secret.has(name) ? REDACTED : value]);
    };
    if (headers instanceof Headers)
      headers.forEach((value, name) => {
        add(name, value);
      });
    else
      for (const name in headers) {
        const value = headers[name];
        if (value !== undefined) add(name, Array.isArray(value) ? value.join(', ') : value);
      }
    const last = this.#lastHeaders;
    if (last !== undefined && samePairs(last, pairs)) return last;
    const kept: Record<string, string> = {};
    for (const [name, value] of pairs) kept[name] = value;
    this.#lastHeaders = kept;
    return kept;
  }

  #tell(entry: Recorded) {
    if (this.#watchers.size === 0) return;
    for (const watcher of [...this.#watchers]) watcher(entry);
  }
}

function samePairs(kept: Record<string, string>, pairs: [string, string][]): boolean {
  let count = 0;
  for (const _ in kept) count++;
  if (count !== pairs.length) return false;
  for (const [name, value] of pairs) if (kept[name] !== value) return false;
  return true;
}

function passes(entry: Recorded, filter: JournalFilter): boolean {
  if (filter.method !== undefined && entry.method !== filter.method.toUpperCase()) return false;
  if (filter.status !== undefined && entry.status !== Number(filter.status)) return false;
  if (filter.path !== undefined) {
    const wanted = operationPath(filter.path);
    const path = wanted === undefined ? spelledPath(entry.url) : operationPath(entry.url);
    if (path !== (wanted ?? spelledPath(filter.path))) return false;
  }
  return true;
}

function decode(entry: Recorded): JournalEntry {
  const mark = entry.url.indexOf('?');
  const raw = paramsFromPairs(queryPairs(mark < 0 ? '' : entry.url.slice(mark + 1)));
  if (entry.body !== undefined && entry.body.length > 0) {
    try {
      const body = JSON.parse(entry.body.toString()) as unknown;
      if (typeof body === 'object' && body !== null && !Array.isArray(body))
        for (const [name, value] of Object.entries(body)) raw.set(name, value);
    } catch {
      // Not JSON: the operation read no parameters from it either.
    }
  }
  const path = spelledPath(entry.url);
  return {
    id: entry.id,
    time: new Date(entry.time).toISOString(),
    method: entry.method,
    path,
    operation: operationId(entry.method, path),
    params: decodeParams(raw),
    status: entry.status,
    ms: entry.ms === null ? null : Math.round(entry.ms * 10) / 10,
    scenario: entry.scenario,
    // A copy: the kept object is shared by the entries with the same headers.
    headers: { ...entry.headers },
  };
}

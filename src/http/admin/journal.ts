import { paramsFromPairs, queryPairs } from '../query-forms.ts';
import { ByteLog, TOO_LARGE, textOf } from './byte-log.ts';
import { HeaderCopies } from './header-copies.ts';
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

/** A request as kept, decoded only when someone reads the journal. */
type Recorded = {
  id: number;
  time: number;
  method: string;
  url: string;
  body: string | undefined;
  headers: Record<string, string>;
  status: number | null;
  ms: number | null;
  scenario: string | null;
};

/** Bytes of URL and body the log holds per kept request, on average. */
const BYTES_PER_REQUEST = 2048;
const MAX_LOG_BYTES = 256 * 1024 * 1024;
/** Requests awaited by someone while the journal keeps none (size 0): the newest kept. */
const MAX_PENDING = 1000;
const NONE = -2;
const SPILLED = -3;

/**
 * The last `size` requests, oldest first, in a ring of fixed size (0 keeps none), fewer when
 * they average over 2 KB of URL and body. A request is kept without a heap object of its own:
 * numbers in typed arrays, URL and body in a byte log; headers are copied with secrets replaced
 * on the way in (a key is never held past its request), one object for a run of alike headers.
 */
export class Journal {
  readonly size: number;
  readonly #headerCopies: HeaderCopies;
  readonly #watchers = new Set<(entry: Recorded) => void>();
  readonly #pending = new Map<number, Recorded>();
  readonly #ids: Float64Array;
  readonly #times: Float64Array;
  readonly #statuses: Int16Array;
  readonly #ms: Float64Array;
  /** Where each slot's URL (at 2 × slot) and body (at 2 × slot + 1) start in the log. */
  readonly #pieceAt: Float64Array;
  /** Their lengths in bytes, or NONE, or SPILLED (then in #spilled, same index). */
  readonly #pieceLength: Int32Array;
  readonly #methods: string[];
  readonly #scenarios: (string | null)[];
  readonly #headers: (Record<string, string> | undefined)[];
  /** URLs and bodies too large for the log, indexed as #pieceAt. */
  readonly #spilled: (string | undefined)[];
  readonly #log: ByteLog;
  #total = 0;
  #cleared = 0;
  #id = 1;

  constructor(size: number, redact: string[] = []) {
    if (!(Number.isInteger(size) && size >= 0))
      throw new RangeError(
        `journalSize must be a whole number of requests, 0 or more (0 keeps none), got ${JSON.stringify(size)}`,
      );
    this.size = size;
    this.#headerCopies = new HeaderCopies(redact);
    this.#ids = new Float64Array(size);
    this.#times = new Float64Array(size);
    this.#statuses = new Int16Array(size);
    this.#ms = new Float64Array(size);
    this.#pieceAt = new Float64Array(2 * size);
    this.#pieceLength = new Int32Array(2 * size);
    this.#methods = new Array(size).fill('');
    this.#scenarios = new Array(size).fill(null);
    this.#headers = new Array(size).fill(undefined);
    this.#spilled = new Array(2 * size).fill(undefined);
    this.#log = new ByteLog(Math.min(MAX_LOG_BYTES, Math.max(64 * 1024, size * BYTES_PER_REQUEST)));
  }

  /** Whether recording is of use: something is kept, or someone waits for a request. */
  get on(): boolean {
    return this.size > 0 || this.#watchers.size > 0;
  }

  /** Keeps a request's pieces; its id, for `finish` to add the answer unless given here. */
  record(
    method: string,
    url: string,
    body: Uint8Array | string | undefined,
    headers: Headers | Record<string, string | string[] | undefined>,
    status: number | null = null,
    ms: number | null = null,
    scenario: string | null = null,
  ): number {
    const id = this.#id++;
    this.#total++;
    const kept = this.#headerCopies.copy(headers);
    if (this.size > 0) {
      const slot = id % this.size;
      this.#ids[slot] = id;
      this.#times[slot] = Date.now();
      this.#methods[slot] = method;
      this.#headers[slot] = kept;
      this.#put(slot, url, 0);
      this.#put(slot, body, 1);
      this.#answered(slot, status, ms, scenario);
    }
    if (this.#watchers.size > 0) this.#await(id, method, url, body, kept);
    if (status !== null) this.finish(id, status, ms ?? 0, scenario);
    return id;
  }

  /** Adds the answer to request `id` (and the body the operation read, if not given before). */
  finish(
    id: number,
    status: number | null,
    ms: number,
    scenario: string | null = null,
    body?: string,
  ): void {
    const slot = this.size > 0 ? id % this.size : -1;
    const kept = slot >= 0 && this.#ids[slot] === id;
    if (kept) {
      if (body !== undefined) this.#put(slot, body, 1);
      this.#answered(slot, status, ms, scenario);
    }
    if (this.#watchers.size === 0) return;
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    const entry = pending ?? (kept ? this.#at(slot) : undefined);
    if (entry === undefined) return;
    Object.assign(entry, { status, ms, scenario }, body !== undefined && { body });
    for (const watcher of [...this.#watchers]) watcher(entry);
  }

  /** The kept requests that pass the filter, oldest first, decoded. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const entries: JournalEntry[] = [];
    for (let id = this.#oldest(); id < this.#id; id++) {
      const slot = id % this.size;
      if (this.#ids[slot] !== id) continue;
      const entry = this.#at(slot);
      if (entry !== undefined && passes(entry, filter)) entries.push(decode(entry));
    }
    return entries;
  }

  get meta(): { total: number; dropped: number } {
    let kept = 0;
    for (let id = this.#oldest(); id < this.#id; id++)
      if (this.#ids[id % this.size] === id && this.#whole(id % this.size)) kept++;
    return { total: this.#total, dropped: this.#total - kept };
  }

  clear(): void {
    this.#ids.fill(0);
    this.#headers.fill(undefined);
    this.#spilled.fill(undefined);
    this.#cleared = this.#id - 1;
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

  #answered(slot: number, status: number | null, ms: number | null, scenario: string | null) {
    this.#statuses[slot] = status ?? 0;
    this.#ms[slot] = ms ?? Number.NaN;
    this.#scenarios[slot] = scenario;
  }

  /** The id of the oldest request the ring may still hold. */
  #oldest(): number {
    return Math.max(this.#cleared + 1, this.#id - this.size);
  }

  /** Writes a URL (piece 0) or body (piece 1) into the log, or spills it when too large. */
  #put(slot: number, value: Uint8Array | string | undefined, piece: 0 | 1) {
    const at = 2 * slot + piece;
    if (this.#spilled[at] !== undefined) this.#spilled[at] = undefined;
    if (value === undefined || value.length === 0) {
      this.#pieceLength[at] = NONE;
      return;
    }
    const start =
      typeof value === 'string' ? this.#log.writeText(value) : this.#log.writeBytes(value);
    if (start === TOO_LARGE) {
      this.#spilled[at] = typeof value === 'string' ? value : textOf(value);
      this.#pieceLength[at] = SPILLED;
      return;
    }
    this.#pieceAt[at] = start;
    this.#pieceLength[at] = this.#log.length;
  }

  #piece(slot: number, piece: 0 | 1): string | undefined {
    const at = 2 * slot + piece;
    const length = this.#pieceLength[at] as number;
    if (length === NONE) return undefined;
    if (length === SPILLED) return this.#spilled[at];
    return this.#log.read(this.#pieceAt[at] as number, length);
  }

  /** Whether the slot's URL and body are still in the log (the oldest go as it wraps). */
  #whole(slot: number): boolean {
    for (let at = 2 * slot; at <= 2 * slot + 1; at++)
      if ((this.#pieceLength[at] as number) >= 0 && !this.#log.holds(this.#pieceAt[at] as number))
        return false;
    return true;
  }

  #at(slot: number): Recorded | undefined {
    if (!this.#whole(slot)) return undefined;
    const status = this.#statuses[slot] as number;
    const ms = this.#ms[slot] as number;
    return {
      id: this.#ids[slot] as number,
      time: this.#times[slot] as number,
      method: this.#methods[slot] as string,
      url: this.#piece(slot, 0) ?? '/',
      body: this.#piece(slot, 1),
      headers: this.#headers[slot] ?? {},
      status: status === 0 ? null : status,
      ms: Number.isNaN(ms) ? null : ms,
      scenario: this.#scenarios[slot] ?? null,
    };
  }

  /** Keeps a heap copy of a request someone may be waiting for, until it is answered. */
  #await(
    id: number,
    method: string,
    url: string,
    body: Uint8Array | string | undefined,
    headers: Record<string, string>,
  ) {
    const text = body === undefined || typeof body === 'string' ? body : textOf(body);
    const entry: Recorded = {
      ...{ id, time: Date.now(), method, url, body: text, headers },
      ...{ status: null, ms: null, scenario: null },
    };
    this.#pending.set(id, entry);
    if (this.#pending.size > MAX_PENDING)
      this.#pending.delete(this.#pending.keys().next().value as number);
  }
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

import { Redaction } from '../redaction.ts';
import { ByteLog, cutLength, textOf, utf8Length } from './byte-log.ts';
import { HeaderCopies } from './header-copies.ts';
import { type JournalOptions, journalLayout, SLOT_BYTES } from './journal-budget.ts';
import {
  awaited,
  decode,
  headersOf,
  type JournalEntry,
  type JournalFilter,
  passes,
  type Recorded,
  type RequestState,
  STATES,
  type Watcher,
  withBody,
} from './journal-entry.ts';

export type { JournalOptions } from './journal-budget.ts';
export type { JournalEntry, JournalFilter, RequestState, Watcher } from './journal-entry.ts';

/** Requests awaited by someone while the journal keeps none (size 0): the newest kept. */
const MAX_PENDING = 1000;
const NONE = -1;
const [PENDING, ANSWERED, ABORTED] = [0, 1, 2] as const;
const [URL_PIECE, BODY_PIECE, HEADERS_PIECE] = [0, 1, 2] as const;
type Piece = 0 | 1 | 2;

/**
 * The last `size` requests, oldest first, within a budget of bytes: fewer when they are large.
 * A request is kept without a heap object of its own: numbers in typed arrays; URL, body and
 * headers (secrets already replaced, each cut at `pieceBytes`) in a byte log, which grows as
 * needed up to the budget and then drops the oldest requests. Headers are written once for a
 * run of requests that send the same ones.
 */
export class Journal {
  readonly size: number;
  /** What the journal may hold in all, in bytes. */
  readonly budget: number;
  readonly #redaction: Redaction;
  readonly #headerCopies: HeaderCopies;
  readonly #watchers = new Set<{ watcher: Watcher; wantsAnswers: boolean }>();
  readonly #pending = new Map<number, Recorded>();
  readonly #ids: Float64Array;
  readonly #times: Float64Array;
  readonly #statuses: Int16Array;
  /** Each slot's index in STATES: pending, answered, aborted. */
  readonly #states: Uint8Array;
  readonly #ms: Float64Array;
  /** Where each slot's URL (3 × slot), body (+ 1) and headers (+ 2) start in the log. */
  readonly #pieceAt: Float64Array;
  /** Their lengths in bytes, or NONE. */
  readonly #pieceLength: Int32Array;
  /** Their sizes as sent when they were cut, else 0. */
  readonly #cut: Float64Array;
  readonly #methods: string[];
  readonly #scenarios: (string | null)[];
  readonly #log: ByteLog;
  readonly #piece: number;
  /** How many times the log may still double. */
  #growths: number;
  #lastHeaders: Record<string, string> | undefined;
  #lastHeadersSlot = -1;
  #total = 0;
  #answersWanted = 0;
  #cleared = 0;
  #id = 1;

  constructor(size: number, options: JournalOptions = {}) {
    const layout = journalLayout(size, options);
    this.size = size;
    this.budget = layout.budget;
    this.#redaction = new Redaction({
      headers: options.redactHeaders ?? [],
      values: options.secretValues ?? [],
    });
    this.#piece = layout.pieceBytes;
    this.#headerCopies = new HeaderCopies(this.#redaction, this.#piece - 64);
    this.#ids = new Float64Array(size);
    this.#times = new Float64Array(size);
    this.#statuses = new Int16Array(size);
    this.#states = new Uint8Array(size);
    this.#ms = new Float64Array(size);
    this.#pieceAt = new Float64Array(3 * size);
    this.#pieceLength = new Int32Array(3 * size);
    this.#cut = new Float64Array(3 * size);
    this.#methods = new Array(size).fill('');
    this.#scenarios = new Array(size).fill(null);
    this.#growths = layout.growths;
    this.#log = new ByteLog(layout.firstLog);
  }

  /** Whether recording is of use: something is kept, or someone waits for a request. */
  get on(): boolean {
    return this.size > 0 || this.#watchers.size > 0;
  }

  /** The bytes held now: the byte log and the bookkeeping; never over `budget`. */
  get bytes(): number {
    return this.#log.capacity + this.size * SLOT_BYTES;
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
    answer?: string,
  ): number {
    const id = this.#id++;
    this.#total++;
    const kept = this.#headerCopies.copy(headers);
    if (this.size > 0) {
      const slot = id % this.size;
      this.#ids[slot] = id;
      this.#times[slot] = Date.now();
      this.#methods[slot] = method;
      this.#putHeaders(slot, kept);
      this.#put(slot, url, URL_PIECE);
      this.#put(slot, body, BODY_PIECE);
      this.#answered(slot, null, null, null, PENDING);
    }
    if (this.#watchers.size > 0) this.#await(id, method, url, body, kept);
    if (status !== null) this.finish(id, status, ms ?? 0, scenario, undefined, answer);
    return id;
  }

  /**
   * Adds the answer to request `id` (and the body the operation read, if not given before); a
   * null status: it ended with none written (the client went away, or a reset or hang fault).
   */
  finish(
    id: number,
    status: number | null,
    ms: number,
    scenario: string | null = null,
    body?: string,
    answer?: string,
  ): void {
    const slot = this.size > 0 ? id % this.size : -1;
    const kept = slot >= 0 && this.#ids[slot] === id;
    const state = status === null ? ABORTED : ANSWERED;
    if (kept) {
      if (body !== undefined) this.#put(slot, body, BODY_PIECE);
      this.#answered(slot, status, ms, scenario, state);
    }
    if (this.#watchers.size === 0) return;
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    const entry = pending ?? (kept ? this.#at(slot) : undefined);
    if (entry === undefined) return;
    Object.assign(entry, { status, ms, scenario, state: STATES[state] });
    if (body !== undefined) withBody(entry, body, this.#piece);
    if (answer !== undefined) entry.answer = answer;
    for (const { watcher } of [...this.#watchers]) watcher(entry);
  }

  /** The kept requests that pass the filter, oldest first, decoded. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const entries: JournalEntry[] = [];
    for (let id = this.#oldest(); id < this.#id; id++) {
      const slot = id % this.size;
      if (this.#ids[slot] !== id) continue;
      const entry = this.#at(slot);
      if (entry !== undefined && passes(entry, filter))
        entries.push(decode(entry, this.#redaction));
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
    this.#cleared = this.#id - 1;
    this.#total = 0;
    for (const { watcher } of [...this.#watchers]) watcher(null);
  }

  /**
   * Tells `watcher` each request as it ends (`show` decodes it), `null` when emptied; returns its
   * stop. With `wantsAnswers` (the live page), servers add each answer's first KB (`answer`).
   * `waitForEntry` (journal-wait.ts) waits for one request this way.
   */
  watch(watcher: Watcher, wantsAnswers = false): () => void {
    const kept = { watcher, wantsAnswers };
    this.#watchers.add(kept);
    if (wantsAnswers) this.#answersWanted++;
    return () => void (this.#watchers.delete(kept) && wantsAnswers && this.#answersWanted--);
  }

  /** Whether a watcher wants each answer's first KB (`watch`): asked of every request. */
  get followed(): boolean {
    return this.#answersWanted > 0;
  }

  get nextId(): number {
    return this.#id;
  }

  /** The entry as shown, secrets redacted. */
  show(entry: Recorded): JournalEntry {
    return decode(entry, this.#redaction);
  }

  #answered(
    slot: number,
    status: number | null,
    ms: number | null,
    scenario: string | null,
    state: number,
  ) {
    this.#statuses[slot] = status ?? 0;
    this.#states[slot] = state;
    this.#ms[slot] = ms ?? Number.NaN;
    this.#scenarios[slot] = scenario;
  }

  /** The id of the oldest request the ring may still hold. */
  #oldest(): number {
    return Math.max(this.#cleared + 1, this.#id - this.size);
  }

  /**
   * Writes the headers, or points at the last ones written when they are the same object and
   * recent enough (an eighth of the log) not to be overwritten long before the request.
   */
  #putHeaders(slot: number, kept: Record<string, string>) {
    const at = 3 * slot + HEADERS_PIECE;
    const last = 3 * this.#lastHeadersSlot + HEADERS_PIECE;
    if (
      kept === this.#lastHeaders &&
      (this.#pieceLength[last] as number) >= 0 &&
      this.#log.head - (this.#pieceAt[last] as number) < this.#log.capacity / 8
    ) {
      this.#pieceAt[at] = this.#pieceAt[last] as number;
      this.#pieceLength[at] = this.#pieceLength[last] as number;
      this.#cut[at] = this.#cut[last] as number;
    } else {
      this.#put(slot, JSON.stringify(kept), HEADERS_PIECE);
      this.#cut[at] = this.#headerCopies.cutFrom;
    }
    this.#lastHeaders = kept;
    this.#lastHeadersSlot = slot;
  }

  /** Writes a piece into the log, cut at the piece limit (its size as sent noted when cut). */
  #put(slot: number, value: Uint8Array | string | undefined, piece: Piece) {
    const at = 3 * slot + piece;
    this.#cut[at] = 0;
    if (value === undefined || value.length === 0) {
      this.#pieceLength[at] = NONE;
      return;
    }
    const text = typeof value === 'string';
    this.#makeRoom(Math.min(this.#piece, text ? 3 * value.length : value.length));
    let start: number;
    if (text) {
      start = this.#log.writeText(value, this.#piece);
      if (this.#log.charsWritten < value.length) this.#cut[at] = utf8Length(value);
    } else {
      const length = cutLength(value, this.#piece);
      start = this.#log.writeBytes(length < value.length ? value.subarray(0, length) : value);
      if (length < value.length) this.#cut[at] = value.length;
    }
    this.#pieceAt[at] = start;
    this.#pieceLength[at] = this.#log.length;
  }

  /** Doubles the log while writing `bytes` would overwrite a request the ring still holds. */
  #makeRoom(bytes: number) {
    while (this.#growths > 0 && this.#log.head + 2 * bytes > this.#log.capacity) {
      const oldest = this.#oldest();
      const slot = oldest % this.size;
      if (this.#ids[slot] !== oldest || !this.#whole(slot)) return;
      let start = Number.POSITIVE_INFINITY;
      for (let at = 3 * slot; at < 3 * slot + 3; at++)
        if ((this.#pieceLength[at] as number) >= 0)
          start = Math.min(start, this.#pieceAt[at] as number);
      if (this.#log.head + 2 * bytes - this.#log.capacity <= start) return;
      this.#log.grow(2);
      this.#growths--;
    }
  }

  #text(slot: number, piece: Piece): string | undefined {
    const at = 3 * slot + piece;
    const length = this.#pieceLength[at] as number;
    if (length === NONE) return undefined;
    return this.#log.read(this.#pieceAt[at] as number, length);
  }

  /** Whether the slot's pieces are still in the log (the oldest go as it wraps). */
  #whole(slot: number): boolean {
    for (let at = 3 * slot; at < 3 * slot + 3; at++)
      if ((this.#pieceLength[at] as number) >= 0 && !this.#log.holds(this.#pieceAt[at] as number))
        return false;
    return true;
  }

  #at(slot: number): Recorded | undefined {
    if (!this.#whole(slot)) return undefined;
    const status = this.#statuses[slot] as number;
    const ms = this.#ms[slot] as number;
    const cut = (piece: Piece) => this.#cut[3 * slot + piece] as number;
    return {
      id: this.#ids[slot] as number,
      time: this.#times[slot] as number,
      method: this.#methods[slot] as string,
      url: this.#text(slot, URL_PIECE) ?? '/',
      body: this.#text(slot, BODY_PIECE),
      headers: headersOf(this.#text(slot, HEADERS_PIECE)),
      status: status === 0 ? null : status,
      state: STATES[this.#states[slot] as number] as RequestState,
      ms: Number.isNaN(ms) ? null : ms,
      scenario: this.#scenarios[slot] ?? null,
      cut: { url: cut(URL_PIECE), body: cut(BODY_PIECE), headers: cut(HEADERS_PIECE) },
    };
  }

  /** Keeps a heap copy of a request someone may wait for, until answered. */
  #await(
    id: number,
    method: string,
    url: string,
    body: Uint8Array | string | undefined,
    headers: Record<string, string>,
  ) {
    const entry = awaited(id, method, url, headers, this.#piece);
    entry.cut.headers = this.#headerCopies.cutFrom;
    if (body !== undefined)
      withBody(entry, typeof body === 'string' ? body : textOf(body), this.#piece);
    this.#pending.set(id, entry);
    if (this.#pending.size > MAX_PENDING)
      this.#pending.delete(this.#pending.keys().next().value as number);
  }
}

import { paramsFromPairs, queryPairs } from '../query-forms.ts';
import type { Redaction } from '../redaction.ts';
import { jsonDepth } from '../request-params.ts';
import { utf8Length } from './byte-log.ts';
import { operationId, operationPath, spelledPath } from './operation-paths.ts';
import { decodeParams, MAX_DECODED_DEPTH } from './param-match.ts';

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
  /** The parameters from the query and the JSON body (the body wins), decoded, secrets redacted. */
  params: Record<string, unknown>;
  /** The status answered; null for no answer (a reset or hang fault, or still in flight). */
  status: number | null;
  /**
   * `pending` while in flight (status and ms null); `answered` once its status is set; `aborted`
   * when it ended with no answer written: the client went away, or a reset or hang fault.
   */
  state: RequestState;
  ms: number | null;
  /** The id of the scenario that answered it, or null. */
  scenario: string | null;
  headers: Record<string, string>;
  /** A body not read into `params` (not one JSON object, nested too deep, or cut), as text. */
  body?: string;
  /** What was cut to the journal's limits: each piece's size in bytes as sent. */
  truncated?: { url?: number; body?: number; headers?: number };
  /** The answer's first KB as text, told to a follower (`follow`) only: never kept. */
  answer?: string;
};

export type JournalFilter = { path?: string; method?: string; status?: number };

/** Where a request stands, by its index in the journal's bookkeeping. */
export const STATES = ['pending', 'answered', 'aborted'] as const;
export type RequestState = (typeof STATES)[number];

/** Told each request as it ends (null: the journal was emptied); see `Journal.watch`. */
export type Watcher = (entry: Recorded | null) => void;

/** A request as kept, decoded only when someone reads the journal. */
export type Recorded = {
  id: number;
  time: number;
  method: string;
  url: string;
  body: string | undefined;
  headers: Record<string, string>;
  status: number | null;
  state: RequestState;
  ms: number | null;
  scenario: string | null;
  /** Sizes as sent of the pieces that were cut (0: kept whole). */
  cut: { url: number; body: number; headers: number };
  /** The answer's first KB, while someone follows the journal. */
  answer?: string;
};

/** A heap copy of a request someone waits for, its URL cut as the log would cut it. */
export function awaited(
  id: number,
  method: string,
  url: string,
  headers: Record<string, string>,
  maxBytes: number,
): Recorded {
  const cut = { url: 0, body: 0, headers: 0 };
  const entry: Recorded = {
    ...{ id, time: Date.now(), method, url, body: undefined, headers, cut },
    ...{ status: null, state: 'pending' as const, ms: null, scenario: null },
  };
  if (url.length > maxBytes / 3 && utf8Length(url) > maxBytes) {
    entry.url = url.slice(0, Math.floor(maxBytes / 3));
    cut.url = utf8Length(url);
  }
  return entry;
}

/** Sets an awaited entry's body, cut as the log would cut it. */
export function withBody(entry: Recorded, body: string, maxBytes: number): void {
  const whole = body.length <= maxBytes / 3 || utf8Length(body) <= maxBytes;
  entry.body = whole ? body : body.slice(0, Math.floor(maxBytes / 3));
  entry.cut.body = whole ? 0 : utf8Length(body);
}

/** What ends a piece that was cut: the bytes it had as sent. */
export function cutMarker(size: number): string {
  return `…[truncated: ${size} bytes]`;
}

export function passes(entry: Recorded, filter: JournalFilter): boolean {
  if (filter.method !== undefined && entry.method !== filter.method.toUpperCase()) return false;
  if (filter.status !== undefined && entry.status !== Number(filter.status)) return false;
  if (filter.path !== undefined) {
    const wanted = operationPath(filter.path);
    const path = wanted === undefined ? spelledPath(entry.url) : operationPath(entry.url);
    if (path !== (wanted ?? spelledPath(filter.path))) return false;
  }
  return true;
}

/**
 * The entry as shown, secrets redacted. Never throws: whatever a client sent, the journal can
 * be listed; a value too deep to decode is kept as its raw text.
 */
export function decode(entry: Recorded, redaction: Redaction): JournalEntry {
  const path = spelledPath(entry.url);
  const shown: JournalEntry = {
    id: entry.id,
    time: new Date(entry.time).toISOString(),
    method: entry.method,
    path,
    operation: operationId(entry.method, path),
    params: {},
    status: entry.status,
    state: entry.state,
    ms: entry.ms === null ? null : Math.round(entry.ms * 10) / 10,
    scenario: entry.scenario,
    // A copy: the kept object is shared by the entries with the same headers.
    headers: { ...entry.headers },
  };
  if (entry.answer !== undefined) shown.answer = redaction.text(entry.answer);
  try {
    const { params, body } = paramsOf(entry);
    shown.params = redaction.params(params);
    if (body !== undefined) shown.body = redaction.text(body);
  } catch {
    // Nothing a client sends should get here; the entry is still listed, its parameters unread.
  }
  const { url, body, headers } = entry.cut;
  if (url + body + headers > 0)
    shown.truncated = {
      ...(url > 0 && { url }),
      ...(body > 0 && { body }),
      ...(headers > 0 && { headers }),
    };
  return shown;
}

/** The query and a JSON object body decoded (the body wins); any other body as its text. */
function paramsOf(entry: Recorded): { params: Record<string, unknown>; body?: string } {
  const mark = entry.url.indexOf('?');
  const raw = paramsFromPairs(queryPairs(mark < 0 ? '' : entry.url.slice(mark + 1)));
  const text = entry.body;
  if (text === undefined || text.length === 0) return { params: decodeParams(raw) };
  if (entry.cut.body > 0)
    return { params: decodeParams(raw), body: `${text}${cutMarker(entry.cut.body)}` };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { params: decodeParams(raw), body: text };
  }
  const object = typeof body === 'object' && body !== null && !Array.isArray(body);
  if (!object || jsonDepth(body, MAX_DECODED_DEPTH) > MAX_DECODED_DEPTH)
    return { params: decodeParams(raw), body: text };
  for (const [name, value] of Object.entries(body as object)) raw.set(name, value);
  return { params: decodeParams(raw) };
}

/** The headers a journal slot keeps as JSON text. */
export function headersOf(text: string | undefined): Record<string, string> {
  if (text === undefined) return {};
  try {
    return JSON.parse(text) as Record<string, string>;
  } catch {
    return {};
  }
}

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { operationPath } from '../http/admin/operation-paths.ts';
import { EXPOSED_HEADERS_VALUE } from '../http/api-cors.ts';
import { ApiError, errorBody } from '../http/api-error.ts';
import type { AppState } from '../http/app-state.ts';
import { closeIfEarly } from './connections.ts';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** The most `--rate-limit` takes. */
export const MAX_RATE = 100_000;
/** The most clients remembered at once; past it, the one remembered longest is forgotten. */
export const MAX_CLIENTS = 10_000;
/** A longer API key is remembered by its digest, so that a client's name stays short. */
const LONGEST_KEY = 64;
const SECOND = 1000;

/**
 * `N` requests a second per client, as a token bucket holding `N` that refills at `N` a second
 * (GCRA: one number per client, the time its bucket is full again). A burst of `N` goes, then
 * one every 1/N s. Clients whose bucket is full are forgotten; at most MAX_CLIENTS are kept.
 */
export class RateLimiter {
  readonly perSecond: number;
  /** For each client, when its bucket is full again (ms, the `now` of `take`). */
  readonly #full = new Map<string, number>();
  readonly #interval: number;
  #swept = 0;

  constructor(perSecond: number) {
    if (!(Number.isInteger(perSecond) && perSecond >= 1 && perSecond <= MAX_RATE))
      throw new RangeError(
        `rateLimit must be a whole number of requests a second from 1 to ${MAX_RATE}, got ${JSON.stringify(perSecond)}`,
      );
    this.perSecond = perSecond;
    this.#interval = SECOND / perSecond;
  }

  /** 0 when the client's request may go now; else the whole seconds to wait (Retry-After). */
  take(client: string, now: number): number {
    if (now - this.#swept >= SECOND) this.#sweep(now);
    const full = Math.max(this.#full.get(client) ?? now, now);
    // Empty when full again is a whole second away: that takes N requests without refill.
    const late = full + this.#interval - now - SECOND;
    if (late > 1e-9) return Math.max(1, Math.ceil(late / SECOND));
    if (!this.#full.has(client) && this.#full.size >= MAX_CLIENTS) this.#forgetOne(now);
    this.#full.set(client, full + this.#interval);
    return 0;
  }

  /** How many clients are remembered (those whose bucket is not full). */
  get clients(): number {
    return this.#full.size;
  }

  #sweep(now: number) {
    this.#swept = now;
    for (const [client, full] of this.#full) if (full <= now) this.#full.delete(client);
  }

  /** Room for one more: a full bucket if there is one, else the client remembered longest. */
  #forgetOne(now: number) {
    this.#sweep(now);
    if (this.#full.size >= MAX_CLIENTS) this.#full.delete(this.#full.keys().next().value as string);
  }
}

/** A short POST body is read before the 429, so that the journal shows what was sent. */
const MAX_READ_BODY = 64 * 1024;

/**
 * A listener that answers the API operations past the rate with the 429 error envelope and a
 * Retry-After, before anything else runs (answer cache, fast path, scenarios); the admin API,
 * `/_mock/target` and the documents are not counted. A client is its X-API-KEY, or its address.
 */
export function rateLimited(
  state: AppState,
  limit: number | RateLimiter,
  next: Listener,
): Listener {
  const limiter = typeof limit === 'number' ? new RateLimiter(limit) : limit;
  const { perSecond } = limiter;
  const { journal } = state.steering;
  const accepted = keyCheck(state.apiKey);
  return (req, res) => {
    const url = req.url ?? '/';
    // A preflight is the browser's, not a request of the app's: never counted, never refused.
    if (operationPath(url) === undefined || req.method === 'OPTIONS') return next(req, res);
    const key = req.headers['x-api-key'];
    // A request the key guard will refuse (401) is not counted: it makes no bucket.
    if (!accepted(key)) return next(req, res);
    const client =
      typeof key === 'string' && key !== ''
        ? `key ${key.length > LONGEST_KEY ? createHash('sha256').update(key).digest('base64') : key}`
        : `address ${req.socket.remoteAddress}`;
    const started = performance.now();
    const wait = limiter.take(client, started);
    if (wait === 0) return next(req, res);
    const answer = (body: string | undefined) => {
      const headers = tooManyHeaders(req, wait, perSecond);
      closeIfEarly(req, res, 429, headers.flat);
      res.writeHead(429, headers.flat);
      res.end(headers.body);
      if (journal.on) journal.record(req.method ?? 'GET', url, body, req.headers, 429, 0);
      state.log?.(
        `${req.method} ${url.split('?')[0]} 429 ${(performance.now() - started).toFixed(1)}ms`,
      );
    };
    const length = Number(req.headers['content-length'] ?? 0);
    if (req.method !== 'POST' || !(length > 0 && length <= MAX_READ_BODY)) return answer(undefined);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => res.destroy());
    req.on('end', () => answer(Buffer.concat(chunks).toString()));
  };
}

/** Whether a request's X-API-KEY passes `--api-key` (always, without one); constant time. */
function keyCheck(apiKey: string | undefined): (given: string | string[] | undefined) => boolean {
  if (apiKey === undefined) return () => true;
  const expected = createHash('sha256').update(apiKey).digest();
  return (given) =>
    typeof given === 'string' &&
    timingSafeEqual(createHash('sha256').update(given).digest(), expected);
}

function tooManyHeaders(
  req: IncomingMessage,
  wait: number,
  perSecond: number,
): { flat: string[]; body: string } {
  const who = req.headers['x-api-key'] === undefined ? 'from this address' : 'with this API key';
  const error = new ApiError(
    429,
    `Too many requests: this mock answers ${perSecond} a second ${who} (--rate-limit). Wait for the seconds in Retry-After, then retry.`,
  );
  const body = JSON.stringify(errorBody(error));
  return {
    body,
    flat: [
      'access-control-allow-origin',
      '*',
      'access-control-expose-headers',
      EXPOSED_HEADERS_VALUE,
      'content-type',
      'application/json',
      'retry-after',
      String(wait),
      'content-length',
      String(Buffer.byteLength(body)),
    ],
  };
}

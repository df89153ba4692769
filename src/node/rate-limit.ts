import type { IncomingMessage, ServerResponse } from 'node:http';
import { operationPath } from '../http/admin/operation-paths.ts';
import { ApiError, errorBody } from '../http/api-error.ts';
import type { HrmockApp } from '../http/app.ts';
import { closeIfEarly } from './connections.ts';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** The most `--rate-limit` takes: each client keeps one time per request it may send a second. */
export const MAX_RATE = 100_000;
const SECOND = 1000;

/**
 * `N` requests a second per client, over a sliding second: a request is let through when fewer
 * than `N` of the client's were let through in the second before it. Each client keeps the
 * times of its last `N` requests let through; clients idle for a second are forgotten.
 */
export class RateLimiter {
  readonly perSecond: number;
  readonly #clients = new Map<string, { times: Float64Array; next: number }>();
  #swept = 0;

  constructor(perSecond: number) {
    if (!(Number.isInteger(perSecond) && perSecond >= 1 && perSecond <= MAX_RATE))
      throw new RangeError(
        `rateLimit must be a whole number of requests a second from 1 to ${MAX_RATE}, got ${JSON.stringify(perSecond)}`,
      );
    this.perSecond = perSecond;
  }

  /** 0 when the client's request may go now; else the whole seconds to wait (Retry-After). */
  take(client: string, now: number): number {
    if (now - this.#swept >= SECOND) this.#sweep(now);
    let kept = this.#clients.get(client);
    if (kept === undefined) {
      kept = { times: new Float64Array(this.perSecond).fill(-Infinity), next: 0 };
      this.#clients.set(client, kept);
    }
    const oldest = kept.times[kept.next] as number;
    if (now - oldest < SECOND) return Math.max(1, Math.ceil((oldest + SECOND - now) / SECOND));
    kept.times[kept.next] = now;
    kept.next = (kept.next + 1) % this.perSecond;
    return 0;
  }

  /** How many clients are remembered (those with a request let through in the last second). */
  get clients(): number {
    return this.#clients.size;
  }

  #sweep(now: number) {
    this.#swept = now;
    for (const [client, kept] of this.#clients) {
      const newest = kept.times[(kept.next + this.perSecond - 1) % this.perSecond] as number;
      if (now - newest >= SECOND) this.#clients.delete(client);
    }
  }
}

/** A short POST body is read before the 429, so that the journal shows what was sent. */
const MAX_READ_BODY = 64 * 1024;

/**
 * A listener that answers the API operations past the rate with the 429 error envelope and a
 * Retry-After, before anything else runs (answer cache, fast path, scenarios); the admin API,
 * `/_mock/target` and the documents are not counted. A client is its X-API-KEY, or its address.
 */
export function rateLimited(app: HrmockApp, perSecond: number, next: Listener): Listener {
  const limiter = new RateLimiter(perSecond);
  const { journal } = app.steering;
  return (req, res) => {
    const url = req.url ?? '/';
    if (operationPath(url) === undefined) return next(req, res);
    const key = req.headers['x-api-key'];
    const client =
      typeof key === 'string' && key !== '' ? `key ${key}` : `address ${req.socket.remoteAddress}`;
    const started = performance.now();
    const wait = limiter.take(client, started);
    if (wait === 0) return next(req, res);
    const answer = (body: string | undefined) => {
      const headers = tooManyHeaders(req, wait, perSecond);
      closeIfEarly(req, res, 429, headers.flat);
      res.writeHead(429, headers.flat);
      res.end(headers.body);
      if (journal.on) journal.record(req.method ?? 'GET', url, body, req.headers, 429, 0);
      app.log?.(
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
      'content-type',
      'application/json',
      'retry-after',
      String(wait),
      'content-length',
      String(Buffer.byteLength(body)),
    ],
  };
}

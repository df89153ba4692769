import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { WARNING_HEADER } from './api-cors.ts';
import { ApiError } from './api-error.ts';

/**
 * One line per request on the log: method, path, status, milliseconds, and the answer's
 * X-Hrmock-Warning when it has one.
 */
export function requestLog(write: (line: string) => void): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const ms = (performance.now() - started).toFixed(1);
    const warning = c.res.headers.get(WARNING_HEADER);
    write(
      `${c.req.method} ${new URL(c.req.url).pathname} ${c.res.status} ${ms}ms${warning === null ? '' : ` (${warning})`}`,
    );
  };
}

/** A 414 for URLs longer than the limit, pointing at POST, before anything parses them. */
export function urlLimit(maxBytes: number): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    const length = Buffer.byteLength(url.pathname + url.search);
    if (length > maxBytes) {
      throw new ApiError(
        414,
        `URL too long (${length} bytes; the limit is ${maxBytes}). Send the same parameters as a JSON body with POST.`,
      );
    }
    await next();
  };
}

/** Requires `X-API-KEY`; compared in constant time, so timing does not leak the key. */
export function apiKeyGuard(apiKey: string): MiddlewareHandler {
  const expected = createHash('sha256').update(apiKey).digest();
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return next();
    const given = c.req.header('x-api-key');
    const digest = createHash('sha256')
      .update(given ?? '')
      .digest();
    if (given === undefined || !timingSafeEqual(digest, expected)) {
      throw new ApiError(
        401,
        given === undefined
          ? 'Unauthorized. No API key: send your key in the X-API-KEY header.'
          : 'Unauthorized. Invalid secret key: check the X-API-KEY header.',
      );
    }
    await next();
  };
}

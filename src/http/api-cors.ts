import type { MiddlewareHandler } from 'hono';

/** The header that names what the request sent and the operation does not document. */
export const WARNING_HEADER = 'X-Hrmock-Warning';

/**
 * The headers of an answer that a page may read besides the safelisted ones: what a client acts
 * on (Retry-After of a 429, Allow of a 405) and hrmock's own warning.
 */
export const EXPOSED_HEADERS = ['Retry-After', 'Allow', WARNING_HEADER];

/** The same, as the one header value every answer of the API carries. */
export const EXPOSED_HEADERS_VALUE = EXPOSED_HEADERS.join(', ');

/** Headers a preflight is always allowed, asked for or not. */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'X-API-KEY', 'X-USER-EMAIL', 'Prefer'];

/** The longest `Access-Control-Request-Headers` echoed back; a longer one gets the fixed list. */
const MAX_REQUESTED = 1024;

/** A list of header names, as RFC 9110 spells a token, separated by commas. */
const HEADER_LIST = /^\s*[!#$%&'*+.^`|~\w-]+(\s*,\s*[!#$%&'*+.^`|~\w-]+)*\s*$/;

/**
 * CORS of the API's answers: any origin, the headers an app reads exposed, a preflight that
 * allows every header it asks for (echoed, bounded, with Vary) and is kept 10 minutes. One
 * definition, so replayed answers carry what live ones do.
 */
export function apiCorsMiddleware(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'OPTIONS')
      return c.body(null, 204, preflightHeaders(c.req.header('access-control-request-headers')));
    // On the response itself, as Hono's cors does: a handler's own Response keeps them too.
    c.res.headers.set('Access-Control-Allow-Origin', '*');
    c.res.headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS_VALUE);
    await next();
  };
}

/** What a preflight answers: the fixed headers, and those it asked for when they are a sane list. */
export function preflightHeaders(requested: string | undefined): Record<string, string> {
  const asked =
    requested !== undefined && requested.length <= MAX_REQUESTED && HEADER_LIST.test(requested)
      ? requested.split(',').map((h) => h.trim().toLowerCase())
      : [];
  const allowed = [...ALLOWED_HEADERS];
  const known = new Set(allowed.map((h) => h.toLowerCase()));
  for (const name of asked) {
    if (known.has(name)) continue;
    allowed.push(name);
    known.add(name);
  }
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
    'Access-Control-Allow-Headers': allowed.join(', '),
    'Access-Control-Expose-Headers': EXPOSED_HEADERS_VALUE,
    'Access-Control-Max-Age': '600',
    Vary: 'Access-Control-Request-Headers',
  };
}

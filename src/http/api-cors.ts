import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

/**
 * CORS of the API's answers: any origin, the request headers a browser client sends, a
 * preflight kept 10 minutes. One definition, so replayed answers carry what live ones do.
 */
export function apiCorsMiddleware(): MiddlewareHandler {
  return cors({
    origin: '*',
    allowHeaders: ['Content-Type', 'X-API-KEY', 'X-USER-EMAIL', 'Prefer'],
    maxAge: 600,
  });
}

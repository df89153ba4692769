import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import { adminGuard } from '../http/admin/admin-access.ts';
import type { FeedSource } from '../http/admin/live-feed.ts';
import { uiRoutes } from '../http/admin/ui-routes.ts';
import { ApiError, errorBody, reportInternalError, SERVER_ERROR } from '../http/api-error.ts';
import { closeAfterEarlyAnswer } from '../node/connections.ts';

/** The paths the proxy answers itself, whatever the query: its control page and its feed. */
const UI_PATHS = new Set(['/_mock/ui', '/_mock/ui/app.js', '/_mock/ui/app.css', '/_mock/events']);

/**
 * Whether a request target is the proxy's own page: its path exactly one of UI_PATHS. Every
 * other target, other `/_mock/*` ones included (an upstream hrmock serves them), is forwarded.
 */
export function isUiTarget(target: string | undefined): boolean {
  if (target === undefined || !target.startsWith('/_mock/')) return false;
  const mark = target.indexOf('?');
  return UI_PATHS.has(mark < 0 ? target : target.slice(0, mark));
}

/**
 * The node:http listener serving the control page and its feed on the proxy's port, behind the
 * mock's admin guard: a loopback Host or `host`, same-origin only (there is no API key to ask
 * for). `stops` ends each open feed when the proxy closes.
 */
export function proxyUiListener(
  source: FeedSource,
  host: string,
  stops: Set<() => void>,
): (req: IncomingMessage, res: ServerResponse) => void {
  const app = new Hono();
  app.use('/_mock/*', adminGuard({ allowedHosts: [host] }, undefined));
  uiRoutes(app, source, stops);
  app.notFound((c) =>
    c.json(
      {
        code: 404,
        message: `Not found: ${c.req.method} ${c.req.path}. hrmock proxy answers GET /_mock/ui (its control page) and GET /_mock/events itself; every other path goes to the upstream.`,
      },
      404,
    ),
  );
  app.onError((error: Error, c: Context) => {
    if (error instanceof ApiError) return c.json(errorBody(error), error.status as 400);
    reportInternalError(c.req.method, c.req.path, error);
    return c.json(SERVER_ERROR, 500);
  });
  const hono = getRequestListener(app.fetch);
  return (req, res) => {
    closeAfterEarlyAnswer(req, res);
    void hono(req, res);
  };
}

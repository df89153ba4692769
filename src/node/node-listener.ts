import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { isAdminTarget } from '../http/admin/admin-path.ts';
import type { AppFetch, HrmockApp } from '../http/app.ts';
import { type AnswerOptions, Answers } from './answers.ts';
import { closeAfterEarlyAnswer } from './connections.ts';
import { steeredListener } from './steered-listener.ts';

export type ListenerOptions = AnswerOptions & {
  /**
   * Answers every request through this instead of the app (a replay of recordings, a test's
   * deliberately broken server): no fast path, and a fault is not acted on the connection.
   */
  fetch?: AppFetch;
};

/** Bodies up to this size are read up front so that a POST can be answered without Hono. */
const MAX_CACHED_BODY = 64 * 1024;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The node:http listener for an app. A request for one of the six operations that needs
 * nothing else of the app is answered straight from `src/hr` (`createFastPath`); a repeated
 * request (same method, URL, body and the headers an answer depends on) is answered with the
 * bytes of its first answer without running anything; anything else goes through Hono. Requests
 * whose answer may differ on purpose (a `Prefer` header, random failures, a scenario set for
 * their path) take Hono's path and are never cached.
 */
export function createNodeListener(app: HrmockApp, options: ListenerOptions): Listener {
  const fetch = options.fetch ?? app.fetch;
  const hono = getRequestListener(fetch);
  const { scenarios } = app.state.steering;
  const steered = steeredListener(app, hono, options.fetch === undefined);
  const throughHono = (req: IncomingMessage, res: ServerResponse) => {
    closeAfterEarlyAnswer(req, res);
    hono(req, res);
  };
  if (!app.state.deterministic) {
    return (req, res) => {
      if (scenarios.size > 0 && scenarios.touches(req.url ?? '/')) return steered(req, res);
      throughHono(req, res);
    };
  }
  const answers = new Answers(app.state, fetch, {
    ...options,
    fastPath: options.fastPath !== false && options.fetch === undefined,
  });
  return (req, res) => {
    if (scenarios.size > 0 && scenarios.touches(req.url ?? '/')) return steered(req, res);
    if (isPlain(req)) answers.take(req, res);
    else throughHono(req, res);
  };
}

/**
 * A GET, or a POST with a short body of known length, with no `Prefer`, outside the admin API
 * (whose answers change with every call: never cached, however its path is spelled).
 */
function isPlain(req: IncomingMessage): boolean {
  const method = req.method;
  if (req.headers.prefer !== undefined || isAdminTarget(req.url ?? '/')) return false;
  if (method === 'GET') return true;
  if (method !== 'POST' || req.headers['transfer-encoding'] !== undefined) return false;
  return Number(req.headers['content-length'] ?? 0) <= MAX_CACHED_BODY;
}

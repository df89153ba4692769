import type { IncomingMessage } from 'node:http';
import type { Answer, Operation } from '../hr/operations.ts';
import { ROUTES } from '../hr/routes.ts';
import type { AppState } from '../http/app-state.ts';
import { paramsFromPairs, queryPairs } from '../http/query-forms.ts';
import { JSON_MEDIA_TYPE, paramsFromJson } from '../http/request-params.ts';
import { allDocumented, type Documented, documentedParams } from '../http/unknown-params.ts';
import type { Kind } from '../store/kinds.ts';

type Route = {
  kind: Kind;
  operation: Operation;
  post: boolean;
  /** The contract path, whose documented names are read on its first request, not at start-up. */
  path: string;
  /** What GET and POST document: a request with another name goes through Hono for its warning. */
  documented?: { GET: Documented; POST: Documented };
};

/**
 * The six operations answered straight from `src/hr`, for the requests that need nothing else
 * of the app: no API key to check, no `Prefer` scenario, no chaos, within the limits, every
 * parameter documented (no X-Hrmock-Warning to add), and answered 200. Anything else (every error included) returns undefined and goes through Hono,
 * which keeps the one error path: the fast path may only ever answer what Hono would.
 */
export function createFastPath(state: AppState) {
  const { basePath, limits, apiKey } = state;
  const prefix = basePath === '/' ? '' : basePath;
  const routes = new Map<string, Route>(
    ROUTES.map(({ path, kind, operation, methods }) => [
      `${prefix}${path}`,
      {
        kind,
        operation,
        post: methods.includes('POST'),
        path,
      },
    ]),
  );
  // Hono measures the URL after parsing it, which may escape a few characters: stay clear of
  // the limit here and let Hono decide near it.
  const urlBytes = limits.urlBytes * 0.9;

  return (req: IncomingMessage, body: Buffer | undefined): Answer | undefined => {
    if (apiKey !== undefined || !state.deterministic || req.headers.prefer !== undefined) return;
    const url = req.url ?? '/';
    if (url.length > urlBytes) return;
    const mark = url.indexOf('?');
    const route = routes.get(mark < 0 ? url : url.slice(0, mark));
    if (route === undefined) return;
    const query = paramsFromPairs(queryPairs(mark < 0 ? '' : url.slice(mark + 1)));
    let raw = query;
    if (req.method === 'POST') {
      const type = req.headers['content-type'] ?? '';
      if (!route.post || body === undefined || body.length > limits.bodyBytes) return;
      if (!JSON_MEDIA_TYPE.test(type.trim())) return;
      try {
        raw = paramsFromJson(body.toString('utf8'), query, limits.jsonDepth);
      } catch {
        return;
      }
    } else if (req.method !== 'GET') {
      return;
    }
    route.documented ??= {
      GET: documentedParams('GET', route.path),
      POST: documentedParams('POST', route.path),
    };
    if (!allDocumented(raw, route.documented[req.method === 'POST' ? 'POST' : 'GET'])) return;
    const result = route.operation(state.store, route.kind, raw);
    return result.ok ? result.value : undefined;
  };
}

import type { IncomingMessage } from 'node:http';
import {
  type Answer,
  gradingOperation,
  type Operation,
  scoringOperation,
  searchOperation,
} from '../hr/operations.ts';
import type { Kind } from '../store/kinds.ts';
import type { HrmockApp } from './app.ts';
import { paramsFromPairs, queryPairs } from './query-forms.ts';
import { JSON_MEDIA_TYPE, paramsFromJson } from './request-params.ts';

type Route = { kind: Kind; operation: Operation; post: boolean };

const OPERATIONS: [string, Kind, Operation, boolean][] = [
  ['/profiles/grading', 'profile', gradingOperation, false],
  ['/profile/grading', 'profile', gradingOperation, false],
  ['/jobs/grading', 'job', gradingOperation, false],
  ['/job/grading', 'job', gradingOperation, false],
  ['/profiles/searching', 'profile', searchOperation, true],
  ['/profiles/scoring', 'profile', scoringOperation, true],
  ['/jobs/searching', 'job', searchOperation, true],
  ['/jobs/scoring', 'job', scoringOperation, true],
];

/**
 * The six operations answered straight from the HR operations, for the requests that need nothing else
 * of the app: no API key to check, no `Prefer` scenario, no chaos, within the limits, and
 * answered 200. Anything else (every error included) returns undefined and goes through Hono,
 * which keeps the one error path: the fast path may only ever answer what Hono would.
 */
export function createFastPath(app: HrmockApp) {
  const { basePath, limits, apiKey } = app.settings;
  const prefix = basePath === '/' ? '' : basePath;
  const routes = new Map<string, Route>(
    OPERATIONS.map(([path, kind, operation, post]) => [
      `${prefix}${path}`,
      { kind, operation, post },
    ]),
  );
  // Hono measures the URL after parsing it, which may escape a few characters: stay clear of
  // the limit here and let Hono decide near it.
  const urlBytes = limits.urlBytes * 0.9;

  return (req: IncomingMessage, body: Buffer | undefined): Answer | undefined => {
    if (apiKey !== undefined || !app.deterministic || req.headers.prefer !== undefined) return;
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
    const result = route.operation(app.store, route.kind, raw);
    return result.ok ? result.value : undefined;
  };
}

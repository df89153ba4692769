import {
  type LiveExchange,
  LiveJudge,
  type LiveJudgeOptions,
  type LiveViolation,
} from '../../contract/suite/live-rules.ts';
import { loadContract, loadHistory } from '../../contract/suite/openapi.ts';
import {
  GRADE_JOBS,
  GRADE_PROFILES,
  SCORE_PROFILES,
  SEARCH_PROFILES,
} from '../../contract/suite/operations.ts';
import type { Target } from '../../contract/suite/target.ts';
import { mockApp, query } from '../support/mock-app.ts';

const contract = loadContract();
const history = loadHistory();

/** A judge of live exchanges over the checkout's contract and history, fresh each time. */
export const newJudge = (options: LiveJudgeOptions = {}) =>
  new LiveJudge({ contract, history, ...options });

const { app } = mockApp({ profiles: 60, jobs: 30 });

/** The objects the mock in process grades, searches and scores. */
export const target: Target = (await (await app.request('/_mock/target')).json()).data;

/** The operation a path reaches: grading's singular spelling is the plural one. */
const operationOf = (path: string) => path.replace(/^\/(profile|job)\//, '/$1s/');

/** An exchange with the answer given: `body` as JSON unless `text` says otherwise. */
export function exchange(
  request: { method?: string; path: string; params?: Record<string, unknown> },
  status: number,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): LiveExchange {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    method: request.method ?? 'GET',
    path: request.path,
    params: 'params' in request ? request.params : {},
    status,
    headers: new Headers(headers),
    text,
    body: typeof body === 'string' ? undefined : body,
    ms: 1,
    operation: operationOf(request.path),
  };
}

/**
 * The mock's answer to a request, in process, as the proxy would hand it to the judge; its body
 * read as `Body`, the answer the test asks for.
 */
export async function asked<Body = unknown>(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  params: Record<string, unknown>,
): Promise<LiveExchange & { body: Body }> {
  const init: RequestInit =
    method === 'POST'
      ? { method, body: JSON.stringify(params), headers: { 'content-type': 'application/json' } }
      : { method };
  const url = method === 'POST' ? path : `${path}?${query(params)}`;
  const response = await app.request(url, init);
  const text = await response.text();
  const answered = exchange({ method, path, params }, response.status, JSON.parse(text), {});
  return { ...answered, body: answered.body as Body, headers: response.headers, text };
}

/** The same exchange with its answer's body changed (its text follows). */
export function edited<E extends LiveExchange>(e: E, change: (body: E['body']) => void): E {
  const body = structuredClone(e.body);
  change(body);
  return { ...e, body, text: JSON.stringify(body) };
}

/** The rules a list of violations names, in order. */
export const rulesOf = (found: LiveViolation[]) => found.map((v) => v.rule);

/** Each operation's parameters on the mock's target. */
export const params = {
  gradeProfiles: () => GRADE_PROFILES.params(target),
  gradeJobs: () => GRADE_JOBS.params(target),
  searchProfiles: () => SEARCH_PROFILES.params(target),
  scoreProfiles: () => SCORE_PROFILES.params(target),
};

import { fail, ok, type ParamError, type Result } from '../../hr/result.ts';
import { jsonDepth } from '../request-params.ts';
import { API_PATHS, isGrading, operationPath } from './operation-paths.ts';
import { matchHeaderErrors } from './scenario-headers.ts';
import { knownFields, respondErrors, type ScenarioResponse } from './scenario-respond.ts';

export { FAULTS, type Fault, type ScenarioResponse } from './scenario-respond.ts';

/** How many answers one scenario's `respond` list may hold. */
export const MAX_RESPONSES = 100;

/** A scenario as a test sends it: `{path, method?, params?, headers?, respond, times?}`. */
export type ScenarioInput = {
  /** An API path, e.g. `/profiles/searching` (a base path is allowed; singular grading too). */
  path: string;
  /** `GET` or `POST`; both when absent. */
  method?: 'GET' | 'POST';
  /** Each must be present in the request with this value, read from the query or the body. */
  params?: Record<string, unknown>;
  /** Each must be sent with exactly this value (names in any case); secret ones show redacted. */
  headers?: Record<string, string>;
  /**
   * One answer for every matching request, or a list: each played once in order, then the last
   * one again for every later match (`[{status: 500}, {status: 200}]`: fail once, then recover).
   */
  respond: ScenarioResponse | ScenarioResponse[];
  /** How many matching requests it applies to; until removed when absent. */
  times?: number;
};

/** A scenario as the mock keeps it: its id, and how many requests it has answered. */
export type Scenario = ScenarioInput & { id: string; matched: number };

/** The answer a scenario gives its `nth` match (0 the first): a list's last one repeats. */
export function responseAt(respond: ScenarioInput['respond'], nth: number): ScenarioResponse {
  if (!Array.isArray(respond)) return respond;
  return respond[Math.min(nth, respond.length - 1)] as ScenarioResponse;
}

/**
 * Checks a scenario's shape, naming each bad field and what to send instead; `params` and a
 * `respond` body or patch may nest `maxDepth` levels (the app's JSON depth limit). Fields it
 * does not know are left out.
 */
export function parseScenario(input: unknown, maxDepth: number): Result<ScenarioInput> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return fail([{ param: 'body', message: 'send a JSON object: {"path": "…", "respond": {…}}' }]);
  const body = input as Record<string, unknown>;
  const errors: ParamError[] = [];
  const bad = (param: string, message: string) => errors.push({ param, message });
  const path = typeof body.path === 'string' ? operationPath(body.path) : undefined;
  if (path === undefined)
    bad('path', `path must be one of ${API_PATHS.join(', ')}, got ${JSON.stringify(body.path)}`);
  const method = body.method === undefined ? undefined : String(body.method).toUpperCase();
  if (method !== undefined && method !== 'GET' && method !== 'POST')
    bad(
      'method',
      `method must be GET or POST (or absent for both), got ${JSON.stringify(body.method)}`,
    );
  else if (method === 'POST' && path !== undefined && isGrading(path))
    bad('method', 'grading answers GET only: send "GET" or leave method out');
  if (
    body.params !== undefined &&
    (typeof body.params !== 'object' || body.params === null || Array.isArray(body.params))
  )
    bad('params', 'params must be an object of parameter names and values, e.g. {"limit": 5}');
  else if (body.params !== undefined && jsonDepth(body.params, maxDepth) > maxDepth)
    bad('params', `params nest deeper than ${maxDepth} levels: match on flatter values`);
  const times = body.times;
  if (times !== undefined && !(Number.isInteger(times) && (times as number) >= 1))
    bad(
      'times',
      `times must be a whole number of requests, at least 1, got ${JSON.stringify(times)}`,
    );
  if (body.headers !== undefined) errors.push(...matchHeaderErrors(body.headers));
  for (const error of respondListErrors(body.respond, path, maxDepth)) errors.push(error);
  if (errors.length > 0) return fail(errors);
  const respond = Array.isArray(body.respond)
    ? (body.respond as Record<string, unknown>[]).map(knownFields)
    : knownFields(body.respond as Record<string, unknown>);
  const scenario: ScenarioInput = { path: body.path as string, respond };
  if (method !== undefined) scenario.method = method as 'GET' | 'POST';
  if (body.params !== undefined) scenario.params = body.params as Record<string, unknown>;
  if (body.headers !== undefined)
    scenario.headers = { ...(body.headers as Record<string, string>) };
  if (times !== undefined) scenario.times = times as number;
  return ok(scenario);
}

/** One answer, or a non-empty list of them, each named by its index: `respond[1].status`. */
function respondListErrors(
  respond: unknown,
  path: string | undefined,
  maxDepth: number,
): ParamError[] {
  if (!Array.isArray(respond)) return respondErrors(respond, path, 'respond', maxDepth);
  if (respond.length === 0 || respond.length > MAX_RESPONSES)
    return [
      {
        param: 'respond',
        message: `respond must be one answer or a list of 1 to ${MAX_RESPONSES} answers (played in order, the last one repeating), got ${respond.length === 0 ? 'an empty list' : `${respond.length}`}`,
      },
    ];
  return respond.flatMap((one, at) => respondErrors(one, path, `respond[${at}]`, maxDepth));
}

import type { RawParams } from '../../hr/params.ts';
import { fail, ok, type ParamError, type Result } from '../../hr/result.ts';
import { EXAMPLES, MAX_DELAY_MS } from '../prefer.ts';
import { jsonDepth } from '../request-params.ts';
import { API_PATHS, isGrading, operationPath } from './operation-paths.ts';
import { canonical, paramsMatch } from './param-match.ts';
import { headerErrors } from './scenario-headers.ts';

export const FAULTS = ['reset', 'hang', 'malformed-json', 'truncated'] as const;
export type Fault = (typeof FAULTS)[number];

/** What the matching requests get instead of (or before) their normal answer. */
export type ScenarioResponse =
  | { status: number; headers?: Record<string, string> }
  | { example: string }
  | { delay: number }
  | { fault: Fault };

/** A scenario as a test sends it: `{path, method?, params?, respond, times?}`. */
export type ScenarioInput = {
  /** An API path, e.g. `/profiles/searching` (a base path is allowed; singular grading too). */
  path: string;
  /** `GET` or `POST`; both when absent. */
  method?: 'GET' | 'POST';
  /** Each must be present in the request with this value, read from the query or the body. */
  params?: Record<string, unknown>;
  respond: ScenarioResponse;
  /** How many matching requests it applies to; until removed when absent. */
  times?: number;
};

/** A scenario as the mock keeps it: its id, and how many requests it has answered. */
export type Scenario = ScenarioInput & { id: string; matched: number };

type Kept = { scenario: Scenario; operation: string; wanted: Map<string, string> };

/**
 * Checks a scenario's shape, naming each bad field and what to send instead; `params` may nest
 * `maxDepth` levels (the app's JSON depth limit). Fields it does not know are left out.
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
  const respond = respondErrors(body.respond, path);
  for (const error of respond) errors.push(error);
  if (errors.length > 0) return fail(errors);
  const scenario: ScenarioInput = {
    path: body.path as string,
    respond: knownFields(body.respond as Record<string, unknown>),
  };
  if (method !== undefined) scenario.method = method as 'GET' | 'POST';
  if (body.params !== undefined) scenario.params = body.params as Record<string, unknown>;
  if (times !== undefined) scenario.times = times as number;
  return ok(scenario);
}

function respondErrors(respond: unknown, path: string | undefined): ParamError[] {
  const kinds = '{"status": 500}, {"example": "empty"}, {"delay": 200} or {"fault": "reset"}';
  if (typeof respond !== 'object' || respond === null || Array.isArray(respond))
    return [{ param: 'respond', message: `respond is required: one of ${kinds}` }];
  const r = respond as Record<string, unknown>;
  const given = ['status', 'example', 'delay', 'fault'].filter((k) => r[k] !== undefined);
  if (given.length !== 1)
    return [{ param: 'respond', message: `respond takes exactly one of ${kinds}` }];
  if (r.status !== undefined) {
    const status = r.status;
    if (!(Number.isInteger(status) && (status as number) >= 200 && (status as number) <= 599))
      return [
        {
          param: 'respond.status',
          message: `respond.status must be an HTTP status from 200 to 599, got ${JSON.stringify(status)}`,
        },
      ];
    if (r.headers !== undefined) return headerErrors(r.headers);
  }
  if (r.example !== undefined) {
    const offered = EXAMPLES[path !== undefined && isGrading(path) ? 'grading' : 'list'];
    if (typeof r.example !== 'string' || !(r.example in offered))
      return [
        {
          param: 'respond.example',
          message: `respond.example must be ${Object.keys(offered).join(' or ')} for this path, got ${JSON.stringify(r.example)}`,
        },
      ];
  }
  if (
    r.delay !== undefined &&
    !(Number.isInteger(r.delay) && (r.delay as number) >= 0 && (r.delay as number) <= MAX_DELAY_MS)
  )
    return [
      {
        param: 'respond.delay',
        message: `respond.delay must be whole milliseconds from 0 to ${MAX_DELAY_MS}, got ${JSON.stringify(r.delay)}`,
      },
    ];
  if (r.fault !== undefined && !FAULTS.includes(r.fault as Fault))
    return [
      {
        param: 'respond.fault',
        message: `respond.fault must be one of ${FAULTS.join(', ')}, got ${JSON.stringify(r.fault)}`,
      },
    ];
  return [];
}

/** The response as the mock keeps and shows it: its own fields, none other. */
function knownFields(respond: Record<string, unknown>): ScenarioResponse {
  const { status, headers, example, delay, fault } = respond;
  if (typeof status === 'number')
    return headers === undefined
      ? { status }
      : { status, headers: { ...(headers as Record<string, string>) } };
  if (typeof example === 'string') return { example };
  if (typeof delay === 'number') return { delay };
  return { fault: fault as Fault };
}

/**
 * The scenarios in force, newest first. `size` is the one check a request pays when none is
 * set; `touches` tells the server which paths must skip its answer cache.
 */
export class ScenarioBook {
  #kept: Kept[] = [];
  #next = 1;
  #paths = new Map<string, number>();

  get size(): number {
    return this.#kept.length;
  }

  /** Adds a scenario already checked by `parseScenario`. */
  add(input: ScenarioInput): Scenario {
    const scenario: Scenario = { id: `s${this.#next++}`, ...input, matched: 0 };
    const operation = operationPath(input.path) as string;
    const wanted = new Map<string, string>();
    for (const [name, value] of Object.entries(input.params ?? {}))
      wanted.set(name, canonical(value));
    this.#kept.unshift({ scenario, operation, wanted });
    this.#paths.set(operation, (this.#paths.get(operation) ?? 0) + 1);
    return scenario;
  }

  list(): Scenario[] {
    return this.#kept.map((k) => ({ ...k.scenario })).reverse();
  }

  remove(id: string): boolean {
    const at = this.#kept.findIndex((k) => k.scenario.id === id);
    if (at < 0) return false;
    this.#drop(at);
    return true;
  }

  clear(): void {
    this.#kept = [];
    this.#paths.clear();
  }

  /** Whether some scenario is kept for the operation a URL reaches. */
  touches(url: string): boolean {
    const operation = operationPath(url);
    return operation !== undefined && this.#paths.has(operation);
  }

  /** Whether any scenario needs the request's parameters to decide. */
  needsParams(url: string): boolean {
    const operation = operationPath(url);
    return this.#kept.some((k) => k.operation === operation && k.wanted.size > 0);
  }

  /** The newest scenario matching the request, counted as used (spent after `times`). */
  take(method: string, url: string, params: () => RawParams): Scenario | undefined {
    const operation = operationPath(url);
    if (operation === undefined) return undefined;
    let raw: RawParams | undefined;
    for (let at = 0; at < this.#kept.length; at++) {
      const kept = this.#kept[at] as Kept;
      if (kept.operation !== operation) continue;
      if (kept.scenario.method !== undefined && kept.scenario.method !== method) continue;
      if (kept.wanted.size > 0) {
        raw ??= params();
        if (!paramsMatch(kept.wanted, raw)) continue;
      }
      kept.scenario.matched++;
      if (kept.scenario.times !== undefined && kept.scenario.matched >= kept.scenario.times)
        this.#drop(at);
      return kept.scenario;
    }
    return undefined;
  }

  #drop(at: number) {
    const [kept] = this.#kept.splice(at, 1);
    if (kept === undefined) return;
    const left = (this.#paths.get(kept.operation) ?? 1) - 1;
    if (left === 0) this.#paths.delete(kept.operation);
    else this.#paths.set(kept.operation, left);
  }
}

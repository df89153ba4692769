import type { Context, MiddlewareHandler } from 'hono';
import type { RawParams } from '../../hr/params.ts';
import { ApiError } from '../api-error.ts';
import { forcedError, type PreferEnv } from '../prefer.ts';
import { Redaction } from '../redaction.ts';
import { paramsFromJson, paramsFromQuery } from '../request-params.ts';
import { responsePreview } from './answer-preview.ts';
import { markFault } from './faults.ts';
import { Journal } from './journal.ts';
import { spelledPath } from './operation-paths.ts';
import { type AnswerCheck, bodyAnswer, patchedAnswer } from './scenario-body.ts';
import { type Fault, type Scenario, ScenarioBook } from './scenarios.ts';

export type SteeringOptions = {
  /** Requests kept by the journal (default 1000; 0 keeps none). */
  journalSize?: number;
  /** Bytes the journal may hold in all (default 32 MiB). */
  journalBytes?: number;
  /** Headers kept as `[redacted]`, besides the secret ones (src/http/redaction.ts). */
  redactHeaders?: string[];
  /** Values the journal never keeps wherever they appear: the API key. */
  secretValues?: (string | undefined)[];
};

/**
 * What a test steers (scenarios) and observes (the journal) of one app; `hangs` ends each
 * request a `hang` fault holds, so that stopping a server need not wait for its clients.
 */
export type Steering = { scenarios: ScenarioBook; journal: Journal; hangs: Set<() => void> };

/**
 * What the scenario middleware leaves for the journal (`c.get('scenario')`, `c.get('fault')`),
 * besides the preferences a scenario's `example` sets; each unset when no scenario applied.
 */
export type SteeringEnv = {
  Variables: PreferEnv['Variables'] & { scenario: Scenario | undefined; fault: Fault | undefined };
};

export function createSteering(options: SteeringOptions = {}): Steering {
  return {
    scenarios: new ScenarioBook(
      new Redaction({
        headers: options.redactHeaders ?? [],
        values: options.secretValues ?? [],
      }),
    ),
    journal: new Journal(options.journalSize ?? 1000, {
      ...(options.journalBytes !== undefined && { bytes: options.journalBytes }),
      ...(options.redactHeaders !== undefined && { redactHeaders: options.redactHeaders }),
      ...(options.secretValues !== undefined && { secretValues: options.secretValues }),
    }),
    hangs: new Set(),
  };
}

/** The request's target without the origin: `/profiles/searching?limit=5`. */
export function targetOf(url: string): string {
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}

/**
 * Journals every API request that reaches Hono, answered or not (a 401 too): its raw pieces on
 * arrival (pending), its status, time and scenario when answered, or none when aborted.
 */
export function journalMiddleware(steering: Steering): MiddlewareHandler<SteeringEnv> {
  const { journal } = steering;
  return async (c, next) => {
    if (c.req.method === 'OPTIONS' || !journal.on) return next();
    const started = performance.now();
    const id = journal.record(c.req.method, targetOf(c.req.url), undefined, c.req.raw.headers);
    try {
      await next();
    } finally {
      const body = c.req.method === 'POST' ? await bodyText(c) : undefined;
      const scenario = c.get('scenario');
      const fault = c.get('fault');
      // No answer is written after a reset or hang fault, nor to a client already gone.
      const silent = fault === 'reset' || fault === 'hang' || c.req.raw.signal.aborted;
      const ms = performance.now() - started;
      // The live page is told the answer's first KB; nobody else pays for reading it.
      const shown = journal.followed && !silent ? await responsePreview(c.res) : undefined;
      journal.finish(id, silent ? null : c.res.status, ms, scenario?.id ?? null, body, shown);
    }
  };
}

/**
 * The body the operation read, if it read one: never read here, so that an early answer (401,
 * 413, 415) stays early and the connection can close without waiting for a large body.
 */
async function bodyText(c: Context): Promise<string | undefined> {
  const cached = c.req.bodyCache.text;
  if (cached === undefined) return undefined;
  try {
    return await cached;
  } catch {
    return undefined;
  }
}

/**
 * Applies the newest scenario matching the request: a status with its envelope, a JSON body, a
 * merge patch of the normal answer, a named example, a delay before the normal answer, or a
 * network fault. Costs one check when none is set. `check` judges a made body by the contract.
 */
export function scenarioMiddleware(
  steering: Steering,
  maxDepth: number,
  check?: AnswerCheck,
): MiddlewareHandler<SteeringEnv> {
  const { scenarios } = steering;
  return async (c, next) => {
    if (scenarios.size === 0) return next();
    const method = c.req.method;
    if (method !== 'GET' && method !== 'POST') return next();
    const url = new URL(c.req.url);
    let raw: RawParams | undefined;
    if (scenarios.needsParams(url.pathname)) raw = await requestParams(c, url, maxDepth);
    const played = scenarios.take(
      method,
      url.pathname,
      () => raw ?? new Map(),
      (name) => c.req.header(name),
    );
    if (played === undefined) return next();
    const { scenario, respond } = played;
    c.set('scenario', scenario);
    const because = `because scenario ${scenario.id} matched the request`;
    if ('body' in respond) return bodyAnswer(c, respond, spelledPath(url.pathname), check);
    if ('patch' in respond) {
      await next();
      const patched = await patchedAnswer(c.res, respond, method, spelledPath(url.pathname), check);
      // Unset first: Hono copies the old answer's headers (its length, its warning) onto a new one.
      c.res = undefined;
      c.res = patched;
      return;
    }
    if ('status' in respond) {
      if (respond.status === 200 && respond.headers === undefined) return next();
      if (respond.status < 400) {
        await next();
        c.res = new Response(c.res.body, { status: respond.status, headers: c.res.headers });
      } else {
        const error = forcedError(respond.status, url.pathname, because);
        throw new ApiError(error.status, error.message, {
          headers: { ...error.headers, ...respond.headers },
        });
      }
      for (const [name, value] of Object.entries(respond.headers ?? {})) c.header(name, value);
      return;
    }
    if ('example' in respond) {
      c.set('preferences', { ...c.get('preferences'), example: respond.example });
      return next();
    }
    if ('delay' in respond) {
      await new Promise((resolve) => setTimeout(resolve, respond.delay));
      return next();
    }
    c.set('fault', respond.fault);
    if (respond.fault === 'hang') await aborted(c.req.raw.signal, steering.hangs);
    else if (respond.fault !== 'reset') await next();
    c.res = markFault(
      respond.fault,
      respond.fault === 'reset' || respond.fault === 'hang' ? undefined : c.res,
    );
  };
}

/** The query and, for a JSON POST, the body's parameters; what cannot be read is left out. */
async function requestParams(
  c: Context<SteeringEnv>,
  url: URL,
  maxDepth: number,
): Promise<RawParams> {
  const query = paramsFromQuery(url);
  if (c.req.method !== 'POST') return query;
  try {
    return paramsFromJson(await c.req.text(), query, maxDepth);
  } catch {
    return query;
  }
}

/** Resolves when the client gives up (its signal aborts) or the server stops (`hangs`). */
function aborted(signal: AbortSignal, hangs: Set<() => void>): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const end = () => {
      hangs.delete(end);
      signal.removeEventListener('abort', end);
      resolve();
    };
    hangs.add(end);
    signal.addEventListener('abort', end, { once: true });
  });
}

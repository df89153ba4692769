import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { mergePath } from 'hono/utils/url';
import { RESOURCES, routesInWords } from '../hr/routes.ts';
import { targetOf } from '../hr/target.ts';
import type { Store } from '../store/store.ts';
import type { StoreData } from '../store/types.ts';
import { isAdminPath, requestPath } from './admin/admin-path.ts';
import { adminRoutes } from './admin/admin-routes.ts';
import { faultOf, inProcessFault } from './admin/faults.ts';
import type { AnswerCheck } from './admin/scenario-body.ts';
import {
  createSteering,
  journalMiddleware,
  type Steering,
  scenarioMiddleware,
} from './admin/steering.ts';
import { apiCorsMiddleware } from './api-cors.ts';
import { ApiError, errorBody, reportInternalError, SERVER_ERROR } from './api-error.ts';
import { type AppState, createAppState } from './app-state.ts';
import { type Chaos, chaosMiddleware } from './chaos.ts';
import { allowedMethods, documentedStatuses } from './contract-doc.ts';
import { contractRoutes } from './contract-routes.ts';
import { docsRoutes } from './docs-routes.ts';
import { DEFAULT_LIMITS, type Limits } from './limits.ts';
import { apiKeyGuard, requestLog, urlLimit } from './middleware.ts';
import { preferMiddleware } from './prefer.ts';
import { resourceApp } from './resource-app.ts';

export type AppOptions = {
  /** The objects to serve. */
  data: StoreData;
  /** Serve under this prefix, e.g. `/v1`, as real deployments do. */
  basePath?: string;
  /** When set, every API request must carry `X-API-KEY` with this value. */
  apiKey?: string;
  /** Where the one line per request goes; `false` for silence. Default: stderr. */
  log?: ((line: string) => void) | false;
  limits?: Partial<Limits>;
  /** Latency and failures on purpose, for every API request. */
  chaos?: Chaos;
  /** The admin API under `/_mock/` (scenarios, requests, reset); `false` removes it (404). */
  admin?: boolean;
  /** Host names the admin API answers besides loopback ones (`--host`, `--allowed-host`). */
  allowedHosts?: string[];
  /** Browser apps allowed to call the admin API (CORS for exactly these; none by default). */
  adminOrigins?: string[];
  /** The app runs inside a page (Service Worker, MSW): no Host to check, CORS as the API's. */
  inPage?: boolean;
  /** Requests kept by the journal (default 1000; 0 keeps none). */
  journalSize?: number;
  /** Bytes the journal may hold in all (default 32 MiB); the oldest requests go to stay inside. */
  journalBytes?: number;
  /** Headers the journal keeps as `[redacted]`, besides the secret ones (http/redaction.ts). */
  redactHeaders?: string[];
  /** Scenarios and journal made beforehand (`createSteering`), for an app made on first use. */
  steering?: Steering;
  /**
   * Judges the bodies scenarios make (`body`, `patch`) by the contract, for their answer's
   * X-Hrmock-Warning; given on Node by `startMock` and `hrmock serve` (none in a page).
   */
  checkAnswer?: AnswerCheck;
};

/** Answers a Fetch API request. */
export type AppFetch = (request: Request) => Promise<Response>;

/**
 * The mock in process: a plain object holding the Hono app and its state. `fetch` and `request`
 * see a fault scenario as a client's fetch would (a rejection, a body that breaks off).
 */
export type HrmockApp = {
  /**
   * Answers a request as `hrmock serve` would: run it in a Service Worker, a test, anywhere.
   * Read-only: to serve through a wrapper, give it to `startServer(app, { fetch })`.
   */
  readonly fetch: AppFetch;
  /** Hono's `request`: `await app.request('/_mock/target')`, a path or a whole URL, no port. */
  readonly request: (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
  /** The Hono app itself; its `fetch` leaves a fault scenario's answer for a server to act. */
  readonly hono: Hono;
  /** The store served now, the steering, and what the app was made with. */
  readonly state: AppState;
};

const PATHS = routesInWords();

/**
 * The whole mock in process: serve it (`startServer`), call `app.request()` in tests, or run
 * `app.fetch` anywhere.
 */
export function createApp(options: AppOptions): HrmockApp {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const base = normalizeBasePath(options.basePath);
  const log =
    options.log === undefined ? (line: string) => process.stderr.write(`${line}\n`) : options.log;
  const steering =
    options.steering ??
    createSteering({
      ...(options.journalSize !== undefined && { journalSize: options.journalSize }),
      ...(options.journalBytes !== undefined && { journalBytes: options.journalBytes }),
      ...(options.redactHeaders !== undefined && { redactHeaders: options.redactHeaders }),
      secretValues: [options.apiKey],
    });
  const state = createAppState(options.data, {
    log: log || null,
    deterministic: options.chaos === undefined,
    steering,
    basePath: base,
    limits,
    apiKey: options.apiKey,
    checkAnswer: options.checkAnswer,
  });

  // Repeated slashes read as one (HrFlow's own notebook code sends them); the node server asks
  // the same function whether a request is the admin API's.
  const hono = new Hono({ getPath: requestPath });
  if (log) hono.use(requestLog(log));
  const apiCors = apiCorsMiddleware();
  // On a port the admin API is same-origin (its guard answers for CORS); in a page, as the API.
  hono.use(
    options.inPage ? apiCors : (c, next) => (isAdminPath(c.req.path) ? next() : apiCors(c, next)),
  );
  hono.use(urlLimit(limits.urlBytes));
  if (options.admin !== false)
    adminRoutes(hono, steering, {
      apiKey: options.apiKey,
      maxDepth: limits.jsonDepth,
      basePath: base,
      access: {
        ...(options.allowedHosts !== undefined && { allowedHosts: options.allowedHosts }),
        ...(options.adminOrigins !== undefined && { origins: options.adminOrigins }),
        ...(options.inPage !== undefined && { inPage: options.inPage }),
      },
    });
  // The root of a mock under a base path leads to the reference too (on a port: a page has no /docs).
  if (base !== '/' && options.inPage !== true)
    hono.get('/', (c) => c.redirect(`${base}/docs`, 302));
  hono.route(
    base,
    apiApp(options, limits, steering, () => state.store),
  );
  hono.notFound(notFound(base));
  hono.onError(answerError);
  // In process, a fault is what a fetch would see of it: a rejection, or a body that breaks off.
  const fetch: AppFetch = async (request) => {
    const response = await hono.fetch(request);
    const fault = faultOf(response);
    return fault === undefined ? response : inProcessFault(fault, response);
  };
  return { fetch, request: requestThrough(fetch), hono, state };
}

/** Hono's `request` over another fetch: a path is taken as one on `http://localhost`. */
export function requestThrough(fetch: AppFetch): HrmockApp['request'] {
  return (input, init) => {
    if (input instanceof Request) return fetch(init ? new Request(input, init) : input);
    const text = input.toString();
    const url = /^https?:\/\//.test(text) ? text : `http://localhost${mergePath('/', text)}`;
    return fetch(new Request(url, init));
  };
}

/**
 * The API under the base path: the contract and docs, then each resource behind its middleware
 * (journal, key, chaos, Prefer, scenarios, in that order) and the body limit.
 */
function apiApp(options: AppOptions, limits: Limits, steering: Steering, store: () => Store): Hono {
  const api = new Hono();
  contractRoutes(api, () => targetOf(store()));
  docsRoutes(api, normalizeBasePath(options.basePath), () => targetOf(store()));
  for (const resource of RESOURCES.map((r) => `${r}/*`)) {
    api.use(resource, journalMiddleware(steering));
    if (options.apiKey !== undefined) api.use(resource, apiKeyGuard(options.apiKey));
    if (options.chaos !== undefined) api.use(resource, chaosMiddleware(options.chaos));
    api.use(
      resource,
      preferMiddleware({ documented: documentedStatuses, allowed: allowedMethods }),
    );
    api.use(resource, scenarioMiddleware(steering, limits.jsonDepth, options.checkAnswer));
  }
  api.use(
    '*',
    bodyLimit({
      maxSize: limits.bodyBytes,
      onError: () => {
        throw new ApiError(
          413,
          `Request body too large; the limit is ${limits.bodyBytes} bytes. Send fewer or shorter parameters.`,
        );
      },
    }),
  );
  const resource = { store, maxJsonDepth: limits.jsonDepth };
  for (const path of RESOURCES) api.route(path, resourceApp(path, resource));
  return api;
}

/** Any other path: a 404 envelope that lists the paths there are. */
function notFound(base: string) {
  return (c: Context) => {
    const path = new URL(c.req.url).pathname;
    return c.json(
      {
        code: 404,
        message: `Not found: ${c.req.method} ${path}. The paths are ${PATHS}${base === '/' ? '' : `, under ${base}`}.`,
      },
      404,
    );
  };
}

/** An ApiError as its envelope; anything else as the 500 envelope, its details in the log only. */
function answerError(error: Error, c: Context) {
  if (error instanceof ApiError) {
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    return c.json(errorBody(error), error.status as 400);
  }
  reportInternalError(c.req.method, c.req.path, error);
  return c.json(SERVER_ERROR, 500);
}

function normalizeBasePath(path: string | undefined): string {
  if (path === undefined || path === '' || path === '/') return '/';
  return `/${path.replace(/^\/+|\/+$/g, '')}`;
}

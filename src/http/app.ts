import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { RESOURCES, routesInWords } from '../hr/routes.ts';
import { targetOf } from '../hr/target.ts';
import { createStore, type Store } from '../store/store.ts';
import type { StoreData } from '../store/types.ts';
import { isAdminPath, requestPath } from './admin/admin-path.ts';
import { adminRoutes } from './admin/admin-routes.ts';
import { faultOf, inProcessFault } from './admin/faults.ts';
import {
  createSteering,
  journalMiddleware,
  type Steering,
  scenarioMiddleware,
} from './admin/steering.ts';
import { apiCorsMiddleware } from './api-cors.ts';
import { ApiError, errorBody, reportInternalError, SERVER_ERROR } from './api-error.ts';
import { type Chaos, chaosMiddleware } from './chaos.ts';
import { allowedMethods, documentedStatuses } from './contract-doc.ts';
import { contractRoutes } from './contract-routes.ts';
import { docsRoutes } from './docs-routes.ts';
import { apiKeyGuard, requestLog, urlLimit } from './middleware.ts';
import { preferMiddleware } from './prefer.ts';
import { DEFAULT_JSON_DEPTH } from './request-params.ts';
import { resourceApp } from './resource-app.ts';

export type Limits = {
  /** Largest request body, in bytes (413 above). */
  bodyBytes: number;
  /** Longest path and query, in bytes (414 above). */
  urlBytes: number;
  /** Deepest JSON body nesting (400 above). */
  jsonDepth: number;
};

export const DEFAULT_LIMITS: Limits = {
  bodyBytes: 1024 * 1024,
  urlBytes: 16 * 1024,
  jsonDepth: DEFAULT_JSON_DEPTH,
};

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
};

export type HrmockApp = Hono & {
  /** The store answering now; replaced whole by `replaceData`. */
  readonly store: Store;
  /** Serves other data from now on (fixtures reloaded from disk); answers in flight finish on the old. */
  replaceData: (data: StoreData) => void;
  /** `replaceData` with the store already built (by `storeSteps`, a step at a time). */
  replaceStore: (store: Store) => void;
  /** Counts replacements, so that cached answers of older data are never served. */
  readonly generation: number;
  /** Where request lines go, or null when silent. */
  log: ((line: string) => void) | null;
  /** The same request always gets the same answer (no random failures or delays configured). */
  deterministic: boolean;
  /** The scenarios in force and the journal of requests (also served under `/_mock/`). */
  readonly steering: Steering;
  /** What the app was made with, for a server that answers some requests without Hono. */
  readonly settings: {
    basePath: string;
    limits: Limits;
    apiKey: string | undefined;
    /** The app's own `fetch`: a server handed a wrapper with another one must go through it. */
    fetch: Hono['fetch'];
    /** Hono's `fetch`, whose answers for a fault scenario are left for the server to act. */
    honoFetch: Hono['fetch'];
  };
};

const PATHS = routesInWords();

/** The whole mock as a Hono app: serve it, call `app.request()` in tests, or run `app.fetch` anywhere. */
export function createApp(options: AppOptions): HrmockApp {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  let store = createStore(options.data);
  let generation = 0;
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

  // Repeated slashes read as one (HrFlow's own notebook code sends them); the node server asks
  // the same function whether a request is the admin API's.
  const app = new Hono({ getPath: requestPath });
  if (log) app.use(requestLog(log));
  const apiCors = apiCorsMiddleware();
  // On a port the admin API is same-origin (its guard answers for CORS); in a page, as the API.
  app.use(
    options.inPage ? apiCors : (c, next) => (isAdminPath(c.req.path) ? next() : apiCors(c, next)),
  );
  app.use(urlLimit(limits.urlBytes));
  if (options.admin !== false)
    adminRoutes(app, steering, {
      apiKey: options.apiKey,
      maxDepth: limits.jsonDepth,
      access: {
        ...(options.allowedHosts !== undefined && { allowedHosts: options.allowedHosts }),
        ...(options.adminOrigins !== undefined && { origins: options.adminOrigins }),
        ...(options.inPage !== undefined && { inPage: options.inPage }),
      },
    });
  // The root of a mock under a base path leads to the reference too (on a port: a page has no /docs).
  if (base !== '/' && options.inPage !== true) app.get('/', (c) => c.redirect(`${base}/docs`, 302));
  app.route(
    base,
    apiApp(options, limits, steering, () => store),
  );
  app.notFound(notFound(base));
  app.onError(answerError);
  // In process, a fault is what a fetch would see of it: a rejection, or a body that breaks off.
  const honoFetch = app.fetch;
  const fetch: Hono['fetch'] = async (request, env, context) => {
    const response = await honoFetch(request, env, context);
    const fault = faultOf(response);
    return fault === undefined ? response : inProcessFault(fault, response);
  };
  app.fetch = fetch;
  return Object.defineProperties(app, {
    store: { get: () => store, enumerable: true },
    generation: { get: () => generation, enumerable: true },
    replaceData: {
      value: (data: StoreData) => {
        store = createStore(data);
        generation++;
      },
    },
    replaceStore: {
      value: (next: Store) => {
        store = next;
        generation++;
      },
    },
    log: { value: log || null },
    deterministic: { value: options.chaos === undefined },
    steering: { value: steering },
    settings: {
      value: { basePath: base, limits, apiKey: options.apiKey, fetch, honoFetch },
    },
  }) as HrmockApp;
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
    api.use(resource, scenarioMiddleware(steering, limits.jsonDepth));
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

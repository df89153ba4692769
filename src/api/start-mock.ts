import { lazyFixtures } from '../../mocks/lazy-fixtures.ts';
import { type Target, targetOf } from '../hr/target.ts';
import { type SteeringControls, steeringControls } from '../http/admin/controls.ts';
import {
  type AppFetch,
  type AppOptions,
  createApp,
  type HrmockApp,
  requestThrough,
} from '../http/app.ts';
import type { ConnectionTimeouts } from '../node/connections.ts';
import { startServer } from '../node/server.ts';
import { replayFetch } from '../recording/replay-fetch.ts';
import { contractAnswerCheck } from './answer-check.ts';

export type StartMockOptions = {
  /** Fixture seed (default 42): the same seed serves the same data. */
  seed?: number;
  /** How many profiles (default 1000) and jobs (default 300). */
  profiles?: number;
  jobs?: number;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Serve under a prefix, e.g. `/v1`, as deployments do. */
  basePath?: string;
  /** Require `X-API-KEY` with this value. */
  apiKey?: string;
  /** One line per request; silent by default, as a test runner wants. */
  log?: AppOptions['log'];
  limits?: AppOptions['limits'];
  chaos?: AppOptions['chaos'];
  /** Memory for answers to repeated requests (default 64 MiB; 0 turns it off). */
  answerCacheBytes?: number;
  timeouts?: Partial<ConnectionTimeouts>;
  /** Requests kept by the journal (default 1000; 0 keeps none). */
  journalSize?: number;
  /** Bytes the journal may hold in all (default 32 MiB); the oldest requests go to stay inside. */
  journalBytes?: number;
  /** Headers the journal keeps as `[redacted]`, besides the secret ones (docs/admin.md). */
  redactHeaders?: string[];
  /** `false` removes the admin API under `/_mock/` from the port (`use` still works in process). */
  admin?: boolean;
  /**
   * Host names the admin API answers besides loopback ones and `host`, as `--allowed-host`: the
   * name another container or machine reaches the mock by. Any other gets a 403.
   */
  allowedHosts?: string[];
  /** Browser apps allowed to call the admin API, as `--admin-origin`: `['http://localhost:5173']`. */
  adminOrigins?: string[];
  /**
   * Requests a second per API key (or client address without one), as `--rate-limit N/s`: the
   * next one within the second gets a 429 with Retry-After. Off when absent.
   */
  rateLimit?: number;
  /**
   * A folder written by `hrmock proxy --record` (or `startProxy({ record })`): a recorded request
   * gets its recorded status and body; anything else the fixtures' answer. Throws if unreadable.
   */
  replay?: string;
  /** With `replay`: a request of the six operations with no recording gets a 404 naming its key. */
  replayStrict?: boolean;
};

export type RunningMock = SteeringControls & {
  /** The base URL, base path included: `http://127.0.0.1:PORT` or `…/v1`. */
  url: string;
  port: number;
  /** Keys that exist in this mock, named as `hrmock check` and the API name them. */
  target: Target;
  /** The app, for `app.request()` or `app.state.replaceData()` in process. */
  app: HrmockApp;
  /** Stops accepting, finishes the requests in flight, closes. */
  close: () => Promise<void>;
};

/**
 * The mock server on a port, for a test runner's global setup:
 * `const mock = await startMock({ port: 0 })`, then `mock.url`, `mock.target`, `mock.close()`.
 */
export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const data = lazyFixtures({
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.profiles !== undefined && { profiles: options.profiles }),
    ...(options.jobs !== undefined && { jobs: options.jobs }),
  });
  const app = createApp({
    data,
    log: options.log ?? false,
    ...(options.basePath !== undefined && { basePath: options.basePath }),
    ...(options.apiKey !== undefined && { apiKey: options.apiKey }),
    ...(options.limits !== undefined && { limits: options.limits }),
    ...(options.chaos !== undefined && { chaos: options.chaos }),
    ...(options.journalSize !== undefined && { journalSize: options.journalSize }),
    ...(options.journalBytes !== undefined && { journalBytes: options.journalBytes }),
    ...(options.redactHeaders !== undefined && { redactHeaders: options.redactHeaders }),
    ...(options.admin !== undefined && { admin: options.admin }),
    allowedHosts: [
      ...(options.host === undefined ? [] : [options.host]),
      ...(options.allowedHosts ?? []),
    ],
    ...(options.adminOrigins !== undefined && { adminOrigins: options.adminOrigins }),
    checkAnswer: contractAnswerCheck(),
  });
  const replay =
    options.replay === undefined ? undefined : replayOver(app, options.replay, options);
  const server = await startServer(app, {
    port: options.port ?? 0,
    ...(options.host !== undefined && { host: options.host }),
    ...(options.answerCacheBytes !== undefined && { answerCacheBytes: options.answerCacheBytes }),
    ...(options.timeouts !== undefined && { timeouts: options.timeouts }),
    ...(options.rateLimit !== undefined && { rateLimit: options.rateLimit }),
    ...(replay !== undefined && { fetch: replay }),
  });
  const base = options.basePath?.replace(/^\/*|\/*$/g, '');
  return {
    url: base ? `${server.url}/${base}` : server.url,
    port: server.port,
    target: targetOf(app.state.store),
    // With a replay, in process as on the port.
    app: replay === undefined ? app : { ...app, fetch: replay, request: requestThrough(replay) },
    close: server.close,
    ...steeringControls(app.state.steering, app.state.limits.jsonDepth),
  };
}

/** The app's fetch answering each request recorded in `dir` as recorded. */
function replayOver(app: HrmockApp, dir: string, options: StartMockOptions): AppFetch {
  const replayed = replayFetch(app.fetch, {
    dir,
    strict: options.replayStrict === true,
    maxDepth: app.state.limits.jsonDepth,
  });
  return async (request) => replayed(request);
}

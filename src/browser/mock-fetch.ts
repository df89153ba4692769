import { lazyFixtures } from '../../mocks/lazy-fixtures.ts';
import { type SteeringControls, steeringControls } from '../http/admin/controls.ts';
import { createSteering } from '../http/admin/steering.ts';
import { type ApiBase, apiBase } from '../http/api-base.ts';
import { createApp, type HrmockApp } from '../http/app.ts';

export type MockFetchOptions = {
  /** Fixture seed (default 42): the same seed gives the same data as `hrmock serve --seed`. */
  seed?: number;
  /** How many profiles (default 1000). */
  profiles?: number;
  /** How many jobs (default 300). */
  jobs?: number;
  /**
   * The app's API base URL as the app calls it: `https://api.example.com/v1`, or a path such as
   * `/v1` (any origin; the page's own for the Service Worker). The mock answers under its path,
   * as `hrmock serve --base-path` does; `mswHandlers` and the Service Worker intercept only there.
   */
  baseUrl?: string;
  /** The path part alone, e.g. `/v1` (the older option; not with `baseUrl`). */
  basePath?: string;
  /** Requests kept for `requests()` (default 1000; 0 keeps none). */
  journalSize?: number;
  /** Headers the journal keeps as `[redacted]`, besides X-API-KEY, Authorization and cookies. */
  redactHeaders?: string[];
};

/**
 * The mock as a function: a Fetch API request in, the answer `hrmock serve` would give out. It is
 * steered and observed as `startMock()` is: `use(scenario)`, `requests(filter?)`, `reset()`.
 */
export type MockFetch = ((request: Request) => Promise<Response>) &
  SteeringControls & {
    /** The API base it answers under, read from `baseUrl` (or `basePath`). */
    readonly base: ApiBase;
  };

/**
 * The app `hrmock serve` runs, over the same seeded data, without a server: call it from a
 * Service Worker, an MSW handler, or a test. It indexes the data on its first request (about
 * 0.2 s for the default 1,000 profiles), so creating one is cheap. A `reset` or `hang` fault
 * rejects as `fetch` does on a network error (a `TypeError`).
 */
export function createMockFetch(options: MockFetchOptions = {}): MockFetch {
  // Made now so that bad options throw here, not on some later request.
  const data = lazyFixtures({ seed: options.seed, profiles: options.profiles, jobs: options.jobs });
  const base = apiBase(options.baseUrl, options.basePath);
  // Made now too, so that scenarios can be set before the first request.
  const steering = createSteering({
    ...(options.journalSize !== undefined && { journalSize: options.journalSize }),
    ...(options.redactHeaders !== undefined && { redactHeaders: options.redactHeaders }),
  });
  let app: HrmockApp | undefined;
  const mockFetch = async (request: Request) => {
    app ??= createApp({ data, basePath: base.path, log: false, steering, inPage: true });
    return app.fetch(request);
  };
  return Object.assign(mockFetch, steeringControls(steering), { base });
}

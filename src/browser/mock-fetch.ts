import { lazyFixtures } from '../../mocks/lazy-fixtures.ts';
import { createApp, type HrmockApp } from '../http/app.ts';

export type MockFetchOptions = {
  /** Fixture seed (default 42): the same seed gives the same data as `hrmock serve --seed`. */
  seed?: number;
  /** How many profiles (default 1000). */
  profiles?: number;
  /** How many jobs (default 300). */
  jobs?: number;
  /** Answer under this prefix, e.g. `/v1`, as `hrmock serve --base-path` does. */
  basePath?: string;
};

/** The mock as a function: a Fetch API request in, the answer `hrmock serve` would give out. */
export type MockFetch = (request: Request) => Promise<Response>;

/**
 * The app `hrmock serve` runs, over the same seeded data, without a server: call it from a
 * Service Worker, an MSW handler, or a test. It indexes the data on its first request (about
 * 0.2 s for the default 1,000 profiles), so creating one is cheap.
 */
export function createMockFetch(options: MockFetchOptions = {}): MockFetch {
  // Made now so that bad options throw here, not on some later request.
  const data = lazyFixtures({ seed: options.seed, profiles: options.profiles, jobs: options.jobs });
  let app: HrmockApp | undefined;
  return async (request) => {
    app ??= createApp({ data, basePath: options.basePath, log: false });
    return app.fetch(request);
  };
}

import { buildFixtures, type Fixtures } from '../../mocks/build-fixtures.ts';
import { type LazyFixtures, lazyFixtures } from '../../mocks/lazy-fixtures.ts';
import { positiveInt } from './usage-error.ts';

export const FIXTURE_FLAGS = {
  seed: { type: 'string' },
  profiles: { type: 'string' },
  jobs: { type: 'string' },
} as const;

export type FixtureFlags = { seed?: string; profiles?: string; jobs?: string };

export const DEFAULT_SEED = 42;

/** What the server indexes: each object made on demand, so 100,000 profiles need not stay in memory. */
export function lazyFixturesFrom(flags: FixtureFlags): LazyFixtures {
  return lazyFixtures({
    seed: positiveInt('seed', flags.seed, DEFAULT_SEED, 0),
    profiles: positiveInt('profiles', flags.profiles, 1000),
    jobs: positiveInt('jobs', flags.jobs, 300),
  });
}

export function fixturesFrom(flags: FixtureFlags): Fixtures {
  return buildFixtures({
    seed: positiveInt('seed', flags.seed, DEFAULT_SEED, 0),
    profiles: positiveInt('profiles', flags.profiles, 1000),
    jobs: positiveInt('jobs', flags.jobs, 300),
  });
}

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

type Sizes = { profiles: number; jobs: number };

/** How many profiles and jobs the flags generate. */
export function generatedSizes(flags: FixtureFlags): Sizes {
  return {
    profiles: positiveInt('profiles', flags.profiles, 1000),
    jobs: positiveInt('jobs', flags.jobs, 300),
  };
}

/** What the server indexes: each object made on demand, so 100,000 profiles need not stay in memory. */
export function lazyFixturesFrom(flags: FixtureFlags): LazyFixtures {
  return lazyFixtures({
    seed: positiveInt('seed', flags.seed, DEFAULT_SEED, 0),
    ...generatedSizes(flags),
  });
}

/**
 * What `--fixtures-mode` made of a folder, in words, from what is served and what is generated:
 * `merge: your 21 profiles and 2 jobs added to the generated 1,000 and 300`, or `replace: only
 * your 21 profiles and 2 jobs`. Merging adds what a folder holds beyond the generated keys (a
 * same key replaces), so an empty `profiles.json` still serves every generated profile.
 */
export function fixturesModeInWords(
  mode: 'merge' | 'replace',
  served: Sizes,
  generated: Sizes,
): string {
  const n = (count: number) => count.toLocaleString('en-US');
  if (mode === 'replace')
    return `replace: only your ${n(served.profiles)} profiles and ${n(served.jobs)} jobs`;
  const profiles = Math.max(served.profiles - generated.profiles, 0);
  const jobs = Math.max(served.jobs - generated.jobs, 0);
  const added = `merge: your ${n(profiles)} profiles and ${n(jobs)} jobs added to the generated ${n(generated.profiles)} and ${n(generated.jobs)}`;
  return profiles === 0 && jobs === 0
    ? `${added} (--fixtures-mode replace serves only yours)`
    : added;
}

export function fixturesFrom(flags: FixtureFlags): Fixtures {
  return buildFixtures({
    seed: positiveInt('seed', flags.seed, DEFAULT_SEED, 0),
    profiles: positiveInt('profiles', flags.profiles, 1000),
    jobs: positiveInt('jobs', flags.jobs, 300),
  });
}

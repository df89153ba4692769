import type { FixtureOptions } from './build-fixtures.ts';
import { FIXTURE_DEFAULTS } from './build-fixtures.ts';
import { boardsFor, sourcesFor } from './containers.ts';
import type { Container, Job, Profile } from './contract-types.ts';
import { jobAt } from './job-at.ts';
import { profileAt } from './profile-at.ts';
import { REFERENCE_DATE } from './reference-date.ts';

/** A list that makes item i when asked, the same item every time: nothing is kept. */
export type LazyList<T> = { readonly length: number; at(index: number): T | undefined };

export type LazyFixtures = {
  seed: number;
  referenceDate: string;
  sources: Container[];
  boards: Container[];
  profiles: LazyList<Profile>;
  jobs: LazyList<Job>;
};

/**
 * The fixtures of `buildFixtures` without holding them: each profile or job is a pure function of
 * (seed, index), so a server can index 100,000 profiles, let them go, and remake the few it
 * answers with. Item i equals `buildFixtures(options).profiles[i]`.
 */
export function lazyFixtures(options: FixtureOptions = {}): LazyFixtures {
  const seed = options.seed ?? FIXTURE_DEFAULTS.seed;
  const profiles = options.profiles ?? FIXTURE_DEFAULTS.profiles;
  const jobs = options.jobs ?? FIXTURE_DEFAULTS.jobs;
  for (const [name, value] of [
    ['profiles', profiles],
    ['jobs', jobs],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new RangeError(`${name} must be a whole number of 0 or more, got ${value}`);
  }
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const sources = sourcesFor(seed);
  const boards = boardsFor(seed);
  return {
    seed,
    referenceDate: REFERENCE_DATE,
    sources,
    boards,
    profiles: lazyList(profiles, (i) => profileAt(seed, i, sources, { count: jobs, boards })),
    jobs: lazyList(jobs, (i) => jobAt(seed, i, boards)),
  };
}

function lazyList<T>(length: number, make: (index: number) => T): LazyList<T> {
  return {
    length,
    at: (index) =>
      Number.isInteger(index) && index >= 0 && index < length ? make(index) : undefined,
  };
}

import { boardsFor, sourcesFor } from './containers.ts';
import type { Container, Job, Profile } from './contract-types.ts';
import { jobAt } from './job-at.ts';
import { profileAt } from './profile-at.ts';
import { REFERENCE_DATE } from './reference-date.ts';

export { isContactOnly } from './contact-only.ts';
export { boardsFor, sourcesFor } from './containers.ts';
export type { Container, Job, Profile } from './contract-types.ts';
export { familyOf, seniorityOf } from './facets.ts';
export { jobAt } from './job-at.ts';
export { profileAt } from './profile-at.ts';
export { REFERENCE_DATE } from './reference-date.ts';
export { FAMILY_IDS, type FamilyId } from './vocabularies/families.ts';
export { SENIORITIES, type Seniority } from './vocabularies/seniority.ts';

export type FixtureOptions = { seed?: number; profiles?: number; jobs?: number };

export type Fixtures = {
  seed: number;
  referenceDate: string;
  sources: Container[];
  boards: Container[];
  profiles: Profile[];
  jobs: Job[];
};

export const FIXTURE_DEFAULTS = { seed: 42, profiles: 1000, jobs: 300 } as const;

/** Every fixture of one seed: the same options give the same bytes, on any machine, any day. */
export function buildFixtures(options: FixtureOptions = {}): Fixtures {
  const seed = options.seed ?? FIXTURE_DEFAULTS.seed;
  const profileCount = options.profiles ?? FIXTURE_DEFAULTS.profiles;
  const jobCount = options.jobs ?? FIXTURE_DEFAULTS.jobs;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  assertCount('profiles', profileCount);
  assertCount('jobs', jobCount);

  const sources = sourcesFor(seed);
  const boards = boardsFor(seed);
  const profiles: Profile[] = new Array(profileCount);
  const jobSet = { count: jobCount, boards };
  for (let i = 0; i < profileCount; i++) profiles[i] = profileAt(seed, i, sources, jobSet);
  const jobs: Job[] = new Array(jobCount);
  for (let i = 0; i < jobCount; i++) jobs[i] = jobAt(seed, i, boards);
  return { seed, referenceDate: REFERENCE_DATE, sources, boards, profiles, jobs };
}

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole number of 0 or more, got ${value}`);
  }
}

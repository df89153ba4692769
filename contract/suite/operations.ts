import type { Target } from './target.ts';

/** An operation of the contract and the parameters a target gives it. */
export type SuiteOperation = {
  id: string;
  path: string;
  /** The list in `data`: `profiles` or `jobs`. */
  list: 'profiles' | 'jobs';
  post: boolean;
  scoring: boolean;
  params: (t: Target) => Record<string, unknown>;
};

export const GRADE_PROFILES: SuiteOperation = {
  id: 'gradeProfiles',
  path: '/profiles/grading',
  list: 'profiles',
  post: false,
  scoring: false,
  params: (t) => ({
    algorithm_key: t.profiles.algorithm_key,
    board_key: t.profiles.board_key,
    job_key: t.profiles.job_key,
    profile_ids: t.profiles.profile_ids,
  }),
};

export const GRADE_JOBS: SuiteOperation = {
  id: 'gradeJobs',
  path: '/jobs/grading',
  list: 'jobs',
  post: false,
  scoring: false,
  params: (t) => ({
    algorithm_key: t.jobs.algorithm_key,
    source_key: t.jobs.source_key,
    profile_key: t.jobs.profile_key,
    job_ids: t.jobs.job_ids,
  }),
};

export const SEARCH_PROFILES: SuiteOperation = {
  id: 'searchProfiles',
  path: '/profiles/searching',
  list: 'profiles',
  post: true,
  scoring: false,
  params: (t) => ({ source_keys: t.profiles.source_keys }),
};

export const SEARCH_JOBS: SuiteOperation = {
  id: 'searchJobs',
  path: '/jobs/searching',
  list: 'jobs',
  post: true,
  scoring: false,
  params: (t) => ({ board_keys: t.jobs.board_keys }),
};

export const SCORE_PROFILES: SuiteOperation = {
  id: 'scoreProfiles',
  path: '/profiles/scoring',
  list: 'profiles',
  post: true,
  scoring: true,
  params: (t) => ({
    ...scoringAlgorithm(t.profiles),
    board_key: t.profiles.board_key,
    job_key: t.profiles.job_key,
    source_keys: t.profiles.source_keys,
  }),
};

export const SCORE_JOBS: SuiteOperation = {
  id: 'scoreJobs',
  path: '/jobs/scoring',
  list: 'jobs',
  post: true,
  scoring: true,
  params: (t) => ({
    ...scoringAlgorithm(t.jobs),
    source_key: t.jobs.source_key,
    profile_key: t.jobs.profile_key,
    board_keys: t.jobs.board_keys,
  }),
};

/** The scoring algorithm a target names: its own, none (`null`: the default), else grading's. */
function scoringAlgorithm(side: { algorithm_key: string; scoring_algorithm_key?: string | null }): {
  algorithm_key?: string;
} {
  if (side.scoring_algorithm_key === null) return {};
  return { algorithm_key: side.scoring_algorithm_key ?? side.algorithm_key };
}

/** The suite's own description of the operation at a contract path (both grading spellings). */
export function suiteOperationAt(path: string): SuiteOperation | undefined {
  const canonical = path.replace(/^\/(profile|job)\/grading$/, '/$1s/grading');
  return ALL_OPERATIONS.find((op) => op.path === canonical);
}

export const GRADING = [GRADE_PROFILES, GRADE_JOBS];

/** Where to send an operation: grading goes to the spelling the target names. */
export function pathOf(op: SuiteOperation, t: Target): string {
  if (op === GRADE_PROFILES) return t.profiles.grading_path;
  if (op === GRADE_JOBS) return t.jobs.grading_path;
  return op.path;
}
export const LISTS = [SEARCH_PROFILES, SEARCH_JOBS, SCORE_PROFILES, SCORE_JOBS];
export const SCORING = [SCORE_PROFILES, SCORE_JOBS];
export const ALL_OPERATIONS = [...GRADING, ...LISTS];

export const MINIMAL_FIELDS: Record<'profiles' | 'jobs', string[]> = {
  profiles: ['key', 'reference', 'source_key', 'created_at', 'updated_at'],
  jobs: ['key', 'reference', 'board_key', 'created_at', 'updated_at'],
};

/** The flag that asks grading for full objects. */
export function fullFlag(op: SuiteOperation): 'return_profile' | 'return_job' {
  return op.list === 'profiles' ? 'return_profile' : 'return_job';
}

/** The keys grading was asked for, in request order. */
export function requestedKeys(op: SuiteOperation, t: Target): string[] {
  return op.list === 'profiles'
    ? t.profiles.profile_ids.map((i) => i.profile_key)
    : t.jobs.job_ids.map((i) => i.job_key);
}

/**
 * Profiles and jobs mirror each other: every operation on one side has its twin on the other,
 * with the parameter names swapped. One table of names lets the operations be written once.
 */
export type Kind = 'profile' | 'job';

export type KindNames = {
  kind: Kind;
  plural: 'profiles' | 'jobs';
  container: 'source' | 'board';
  containerKey: 'source_key' | 'board_key';
  containerKeys: 'source_keys' | 'board_keys';
  key: 'profile_key' | 'job_key';
  reference: 'profile_reference' | 'job_reference';
  ids: 'profile_ids' | 'job_ids';
  returnFull: 'return_profile' | 'return_job';
};

export const NAMES: Record<Kind, KindNames> = {
  profile: {
    kind: 'profile',
    plural: 'profiles',
    container: 'source',
    containerKey: 'source_key',
    containerKeys: 'source_keys',
    key: 'profile_key',
    reference: 'profile_reference',
    ids: 'profile_ids',
    returnFull: 'return_profile',
  },
  job: {
    kind: 'job',
    plural: 'jobs',
    container: 'board',
    containerKey: 'board_key',
    containerKeys: 'board_keys',
    key: 'job_key',
    reference: 'job_reference',
    ids: 'job_ids',
    returnFull: 'return_job',
  },
};

/** The side an operation on `kind` is measured against: jobs for profiles, profiles for jobs. */
export function otherKind(kind: Kind): Kind {
  return kind === 'profile' ? 'job' : 'profile';
}

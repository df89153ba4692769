// The parameter names of each side, as the contract spells them: profiles live in sources, jobs
// in boards, and every operation of one side has its twin on the other with the names swapped.

export type Kind = 'profile' | 'job';

export const NAMES = {
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
} as const;

/** The side an operation is measured against: jobs for profiles, profiles for jobs. */
export function otherKind(kind: Kind): Kind {
  return kind === 'profile' ? 'job' : 'profile';
}

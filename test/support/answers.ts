import type { components } from '../../src/generated/contract.ts';
import { nth } from './json-reads.ts';

// The contract's answers under short names, for tests that read an answer they asked for.
type Schemas = components['schemas'];

export type ProfilesGrading = Schemas['ProfilesGradingResponse'];
export type JobsGrading = Schemas['JobsGradingResponse'];
export type ProfilesSearching = Schemas['ProfilesSearchingResponse'];
export type JobsSearching = Schemas['JobsSearchingResponse'];
export type ProfilesScoring = Schemas['ProfilesScoringResponse'];
export type JobsScoring = Schemas['JobsScoringResponse'];
export type ErrorAnswer = Schemas['Error'];

/** An answer of either side, its list read as `data[side.plural]`. */
export type EitherSide<P extends { data: object }, J extends { data: object }> = Omit<P, 'data'> &
  Omit<J, 'data'> & { data: P['data'] & J['data'] };

export type Grading = EitherSide<ProfilesGrading, JobsGrading>;
export type Searching = EitherSide<ProfilesSearching, JobsSearching>;
export type Scoring = EitherSide<ProfilesScoring, JobsScoring>;

/** The first error detail of a refusal: throws when there is none. */
export function firstError(body: ErrorAnswer): Schemas['ErrorDetail'] {
  return nth(body.errors ?? [], 0);
}

/** The parameters a refusal names, in its order: none when it has no error details. */
export function errorParams(body: ErrorAnswer): string[] {
  return (body.errors ?? []).map((e) => e.param);
}

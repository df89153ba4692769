import type { components } from '../generated/contract.ts';

// Names for the contract's schemas, so domain code reads naturally; the shapes live in the contract.
export type Profile = components['schemas']['Profile'];
export type Job = components['schemas']['Job'];
export type Container = components['schemas']['Container'];
export type ProfileMinimal = components['schemas']['ProfileMinimal'];
export type JobMinimal = components['schemas']['JobMinimal'];
export type Meta = components['schemas']['Meta'];
export type ScorePair = components['schemas']['ScorePair'];

/** The objects a store serves. */
export type StoreData = {
  sources: Container[];
  boards: Container[];
  profiles: Profile[];
  jobs: Job[];
};

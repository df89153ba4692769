import type { components } from '../generated/contract.ts';

// Names for the contract's schemas, so the code reads naturally; the shapes live in the contract.
export type Profile = components['schemas']['Profile'];
export type Job = components['schemas']['Job'];
export type Container = components['schemas']['Container'];
export type ProfileMinimal = components['schemas']['ProfileMinimal'];
export type JobMinimal = components['schemas']['JobMinimal'];
export type Meta = components['schemas']['Meta'];
export type ScorePair = components['schemas']['ScorePair'];

/**
 * A list read by position. A plain array is one; so is a list that builds object i each time it
 * is asked for it, which keeps 100,000 full profiles out of memory.
 */
export type ObjectList<T> = {
  readonly length: number;
  at(index: number): T | undefined;
};

/** The objects a store serves. */
export type StoreData = {
  sources: Container[];
  boards: Container[];
  profiles: ObjectList<Profile>;
  jobs: ObjectList<Job>;
};

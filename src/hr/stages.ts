import type { Collection } from '../store/store.ts';

/** The stages a recruiter puts a profile at for a job; `new` (no label) is not among them. */
export const GIVEN_STAGES = ['yes', 'later', 'no'] as const;

const byJob = new WeakMap<Collection, Map<string, Set<string>>>();

/** Every stage profiles gave each job, by `boardKey/jobKey`; built once per collection. */
export function stagesByJob(profiles: Collection): Map<string, Set<string>> {
  let stages = byJob.get(profiles);
  if (stages === undefined) {
    stages = new Map();
    const { labels } = profiles.extras;
    for (let i = 0; i < profiles.docs.length; i++) {
      for (const [job, stage] of labels.of(i)) {
        const set = stages.get(job) ?? new Set<string>();
        set.add(stage as string);
        stages.set(job, set);
      }
    }
    byJob.set(profiles, stages);
  }
  return stages;
}

/** The distinct stages profile `i` was given, over every job. */
export function stagesOfProfile(profiles: Collection, i: number): Set<string> {
  return new Set([...profiles.extras.labels.of(i)].map(([, stage]) => stage as string));
}

import { jobRef } from '../store/extras.ts';
import type { Doc, Store } from '../store/store.ts';
import { gradingPathOf } from './routes.ts';
import { GIVEN_STAGES, stagesByJob, stagesOfProfile } from './stages.ts';

/**
 * The keys `hrmock check` may use on this mock, as `/_mock/target` serves them. The suite keeps
 * its own definition (it never imports the mock); `test/types.test.ts` holds the two together.
 */
export type Target = {
  profiles: {
    algorithm_key: string;
    /** Absent: the mock scores with any algorithm key, `algorithm_key` included. */
    scoring_algorithm_key?: string | null;
    source_keys: string[];
    board_key: string;
    job_key: string;
    profile_ids: { source_key: string; profile_key: string }[];
    grading_path: `${'/profiles' | '/profile'}/grading`;
  };
  jobs: {
    algorithm_key: string;
    scoring_algorithm_key?: string | null;
    board_keys: string[];
    source_key: string;
    profile_key: string;
    job_ids: { board_key: string; job_key: string }[];
    grading_path: `${'/jobs' | '/job'}/grading`;
  };
};

const BATCH = 12;

/**
 * A target over the store: batches spread over every container, with an ungradable profile in
 * the profile batch so that the per-item error path is exercised too. The jobs it names are the
 * ones with profiles at the most stages (every stage in the generated sets of 1,000 profiles and
 * more), and its profile the one given the most stages, so that the SDKs' `stage` calls find items.
 */
export function targetOf(store: Store): Target {
  const profiles = store.profile.docs;
  const staged = jobsByStages(store);
  const job = staged.flat().find((d) => d.gradable);
  const profile = mostStagedProfile(store);
  if (job === undefined || profile === undefined) {
    throw new Error('a target needs at least one gradable profile and one job');
  }
  const ungradable = profiles.find((d) => !d.gradable);
  const profileBatch = spread(
    profiles.filter((d) => d.gradable),
    ungradable ? BATCH - 1 : BATCH,
  );
  if (ungradable) profileBatch.splice(3, 0, ungradable);
  return {
    profiles: {
      algorithm_key: 'grader-hrflow-profiles-cosmic5',
      source_keys: [...store.profile.containers.keys()],
      board_key: job.containerKey,
      job_key: job.key,
      profile_ids: profileBatch.map((d) => ({ source_key: d.containerKey, profile_key: d.key })),
      grading_path: gradingPathOf('profile') as Target['profiles']['grading_path'],
    },
    jobs: {
      algorithm_key: 'grader-hrflow-jobs-cosmic5',
      board_keys: [...store.job.containers.keys()],
      source_key: profile.containerKey,
      profile_key: profile.key,
      job_ids: takeSpread(staged, BATCH).map((d) => ({
        board_key: d.containerKey,
        job_key: d.key,
      })),
      grading_path: gradingPathOf('job') as Target['jobs']['grading_path'],
    },
  };
}

/** The jobs grouped by how many stages profiles were given for them, most first, each in order. */
function jobsByStages(store: Store): Doc[][] {
  const stages = stagesByJob(store.profile);
  const groups: Doc[][] = GIVEN_STAGES.map(() => []);
  groups.push([]);
  for (const doc of store.job.docs) {
    const given = stages.get(jobRef(doc.containerKey, doc.key))?.size ?? 0;
    groups[GIVEN_STAGES.length - given]?.push(doc);
  }
  return groups;
}

/** The first gradable profile given every stage, else the one given the most. */
function mostStagedProfile(store: Store): Doc | undefined {
  let best: Doc | undefined;
  let most = -1;
  const docs = store.profile.docs;
  for (let i = 0; i < docs.length && most < GIVEN_STAGES.length; i++) {
    const doc = docs[i] as Doc;
    if (!doc.gradable) continue;
    const given = stagesOfProfile(store.profile, i).size;
    if (given > most) [best, most] = [doc, given];
  }
  return best;
}

/** `count` docs from the groups in turn, spread through the last group taken from, in order. */
function takeSpread(groups: Doc[][], count: number): Doc[] {
  const taken: Doc[] = [];
  for (const group of groups) {
    taken.push(...spread(group, count - taken.length));
    if (taken.length === count) break;
  }
  return taken.sort((a, b) => a.index - b.index);
}

/** `count` docs taken at even steps through the list, so every container shows up. */
function spread(docs: Doc[], count: number): Doc[] {
  if (docs.length <= count) return [...docs];
  const step = docs.length / count;
  return Array.from({ length: count }, (_, i) => docs[Math.floor(i * step)] as Doc);
}

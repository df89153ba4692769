import { ALGORITHMS, nothingToGrade } from './scores.ts';
import type { Store, Target } from './types.ts';

/**
 * The objects hrmock check may use: both sources and boards, a job of the first board, and ten
 * profiles of which exactly one has nothing to grade.
 */
export const makeTarget = (store: Store): Target => {
  const [source0, source1] = store.sources;
  const [board0, board1] = store.boards;
  if (!source0 || !source1 || !board0 || !board1) throw new Error('the store has no containers');
  const of = <T extends { key: string }>(list: T[], test: (item: T) => boolean) =>
    list.filter(test);
  const first = of(store.profiles, (p) => p.source_key === source0.key);
  const second = of(store.profiles, (p) => p.source_key === source1.key);
  const profileIds = [...first.slice(0, 6), ...second.slice(0, 4)].map((p) => ({
    source_key: p.source_key,
    profile_key: p.key,
  }));
  const ungradable = [...first.slice(0, 6), ...second.slice(0, 4)].filter((p) => nothingToGrade(p));
  if (ungradable.length !== 1)
    throw new Error('the target must hold exactly one profile with nothing to grade');
  const jobIds = [
    ...of(store.jobs, (j) => j.board_key === board0.key).slice(0, 6),
    ...of(store.jobs, (j) => j.board_key === board1.key).slice(0, 4),
  ].map((j) => ({ board_key: j.board_key, job_key: j.key }));
  const job = of(store.jobs, (j) => j.board_key === board0.key)[0];
  const profile = first[0];
  if (job === undefined || profile === undefined) throw new Error('the store is empty');
  return {
    headers: {},
    profiles: {
      algorithm_key: ALGORITHMS.gradeProfiles,
      scoring_algorithm_key: ALGORITHMS.scoreProfiles,
      source_keys: store.sources.map((s) => s.key),
      board_key: board0.key,
      job_key: job.key,
      profile_ids: profileIds,
    },
    jobs: {
      algorithm_key: ALGORITHMS.gradeJobs,
      scoring_algorithm_key: ALGORITHMS.scoreJobs,
      board_keys: store.boards.map((b) => b.key),
      source_key: source0.key,
      profile_key: profile.key,
      job_ids: jobIds,
    },
  };
};

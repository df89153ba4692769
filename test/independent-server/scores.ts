import { unitOf } from './random.ts';
import type { Job, Profile } from './types.ts';

/** This server's own algorithms, by the side they grade or score. */
export const ALGORITHMS = {
  gradeProfiles: 'ind-grader-profiles',
  gradeJobs: 'ind-grader-jobs',
  scoreProfiles: 'ind-scorer-profiles',
  scoreJobs: 'ind-scorer-jobs',
} as const;

/** Grading accepts the graders; scoring the scorers and `default`, the source's own. */
export const GRADERS = {
  profiles: [ALGORITHMS.gradeProfiles],
  jobs: [ALGORITHMS.gradeJobs],
} as const;

export const SCORERS = {
  profiles: [ALGORITHMS.scoreProfiles, 'default'],
  jobs: [ALGORITHMS.scoreJobs, 'default'],
} as const;

/** A profile with no experience, education, skill or summary has nothing to grade. */
export const nothingToGrade = (profile: Profile): string | null =>
  profile.experiences.length === 0 &&
  profile.educations.length === 0 &&
  profile.skills.length === 0 &&
  profile.info.summary === null
    ? `Profile ${profile.key} has nothing to grade: it holds contact details only.`
    : null;

const lower = (items: { name: string }[]) => items.map((item) => item.name.toLowerCase());

/**
 * The score in [0, 1], four decimals, kept as an integer of ten-thousandths: the share of the
 * job's skills the profile has, plus a little of a hash of the algorithm and both keys.
 */
export const scoreOf = (algorithm: string, profile: Profile, job: Job): number => {
  const wanted = lower(job.skills);
  const held = lower(profile.skills);
  const overlap = wanted.filter((name) => held.includes(name)).length / Math.max(1, wanted.length);
  const noise = unitOf(`${algorithm}|${profile.key}|${job.key}`);
  return Math.round(10000 * Math.min(1, 0.1 + 0.6 * overlap + 0.3 * noise));
};

/** `[1 - s, s]` from a score in ten-thousandths. */
export const pairOf = (tenThousandths: number): [number, number] => [
  (10000 - tenThousandths) / 10000,
  tenThousandths / 10000,
];

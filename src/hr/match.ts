import { distanceKm } from '../engine/geo.ts';
import { sortedHas } from '../engine/int-lists.ts';
import type { Collection, Doc } from '../store/store.ts';
import type { ScorePair } from '../store/types.ts';

/** Scores profile `profile` of one collection against job `job` of the other. */
export type Scorer = (profile: number, job: number) => number;

const FNV_OFFSET = 0x811c9dc5;

/**
 * How well a profile fits a job, in [0, 1]: mostly the job's hard skills the profile has, then
 * the same job family, a close seniority, a short distance, the years of experience the job asks
 * for, its languages and soft skills. The algorithm key moves the score a little (different
 * algorithms disagree at the margin), deterministically: the same inputs always give the same
 * score. The terms are added in a fixed order, so the rounding, and the score, never change.
 */
export function matchScorer(profiles: Collection, jobs: Collection, algorithmKey: string): Scorer {
  const p = profiles.columns;
  const j = jobs.columns;
  const profileDocs = profiles.docs;
  const jobDocs = jobs.docs;
  // FNV-1a runs left to right, so the shared start of `${algorithmKey}|${profile}|${job}` is hashed once.
  const prefix = fnv(FNV_OFFSET, `${algorithmKey}|`);
  return (profile, job) => {
    const have = p.skills;
    const haveFrom = have.starts[profile] as number;
    const haveTo = have.starts[profile + 1] as number;
    const skills = share(have.values, haveFrom, haveTo, j.hardSkills, job, 0);
    const ownFamily = p.family[profile] as number;
    const family = ownFamily >= 0 && ownFamily === j.family[job] ? 1 : 0;
    const profileLevel = p.seniority[profile] as number;
    const jobLevel = j.seniority[job] as number;
    const gap = profileLevel < 0 || jobLevel < 0 ? 2 : Math.abs(profileLevel - jobLevel);
    const seniority = gap === 0 ? 1 : gap === 1 ? 0.5 : 0;
    const lat1 = p.lat[profile] as number;
    const lng1 = p.lng[profile] as number;
    const lat2 = j.lat[job] as number;
    const lng2 = j.lng[job] as number;
    const nearness =
      Number.isNaN(lat1) || Number.isNaN(lng1) || Number.isNaN(lat2) || Number.isNaN(lng2)
        ? 0.3
        : Math.exp(-distanceKm(lat1, lng1, lat2, lng2) / 200);
    const experience = experienceFit(
      p.years[profile] as number,
      j.years[job] as number,
      j.yearsMax[job] as number,
    );
    const spoken = p.languages;
    const languages = share(
      spoken.values,
      spoken.starts[profile] as number,
      spoken.starts[profile + 1] as number,
      j.languages,
      job,
      1,
    );
    const soft = share(have.values, haveFrom, haveTo, j.softSkills, job, 0);
    const raw =
      0.45 * skills +
      0.15 * family +
      0.12 * seniority +
      0.1 * nearness +
      0.1 * experience +
      0.05 * languages +
      0.03 * soft;
    const profileKey = (profileDocs[profile] as Doc).key;
    const hash = fnv(fnv(fnv(prefix, profileKey), '|'), (jobDocs[job] as Doc).key);
    const jitter = ((hash >>> 0) / 2 ** 32 - 0.5) * 0.04;
    return round4(Math.min(0.999, Math.max(0.001, raw + jitter)));
  };
}

/** `[1 - s, s]`, both rounded to 4 decimals so they print cleanly and sum to 1. */
export function scorePair(score: number): ScorePair {
  return [round4(1 - score), score];
}

/**
 * The share of the job's wanted ids (repeats counted) found among the sorted ids the profile
 * has; `none` when the job wants none.
 */
function share(
  have: Int32Array,
  haveFrom: number,
  haveTo: number,
  wanted: { starts: Int32Array; values: Int32Array },
  job: number,
  none: number,
): number {
  const from = wanted.starts[job] as number;
  const to = wanted.starts[job + 1] as number;
  if (to === from) return none;
  let count = 0;
  for (let w = from; w < to; w++) {
    if (sortedHas(have, haveFrom, haveTo, wanted.values[w] as number)) count++;
  }
  return count / (to - from);
}

/** NaN stands for "not given". */
function experienceFit(years: number, min: number, max: number): number {
  if (Number.isNaN(years) || Number.isNaN(min)) return 0.5;
  if (years >= min && (Number.isNaN(max) || years <= max)) return 1;
  const gap = years < min ? min - years : years - (Number.isNaN(max) ? years : max);
  return Math.exp(-gap / 3);
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** FNV-1a over `text`, continuing from `hash`: a cheap, stable hash for the jitter. */
function fnv(start: number, text: string): number {
  let hash = start;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash;
}

import type { ScorePair } from '../../../src/store/types.ts';
import { distanceKm } from '../../support/sides.ts';
import type { Doc } from './scan-store.ts';

/**
 * How well a profile fits a job, in [0, 1]: mostly the job's hard skills the profile has, then
 * the same job family, a close seniority, a short distance, the years of experience the job asks
 * for, its languages and soft skills. The algorithm key moves the score a little (different
 * algorithms disagree at the margin), deterministically: the same inputs always give the same
 * score.
 */
export function matchScore(profile: Doc, job: Doc, algorithmKey: string): number {
  const skills =
    job.hardSkills.length === 0
      ? 0
      : overlap(profile.skills, job.hardSkills) / job.hardSkills.length;
  const family = profile.family !== null && profile.family === job.family ? 1 : 0;
  const gap =
    profile.seniority === null || job.seniority === null
      ? 2
      : Math.abs(profile.seniority - job.seniority);
  const seniority = gap === 0 ? 1 : gap === 1 ? 0.5 : 0;
  const nearness =
    profile.lat === null || profile.lng === null || job.lat === null || job.lng === null
      ? 0.3
      : Math.exp(
          -distanceKm({ lat: profile.lat, lng: profile.lng }, { lat: job.lat, lng: job.lng }) / 200,
        );
  const experience = experienceFit(profile.years, job.years, job.yearsMax);
  const languages =
    job.languages.size === 0
      ? 1
      : overlapKeys(profile.languages, job.languages) / job.languages.size;
  const soft =
    job.softSkills.length === 0
      ? 0
      : overlap(profile.skills, job.softSkills) / job.softSkills.length;
  const raw =
    0.45 * skills +
    0.15 * family +
    0.12 * seniority +
    0.1 * nearness +
    0.1 * experience +
    0.05 * languages +
    0.03 * soft;
  const jitter = (unitHash(`${algorithmKey}|${profile.key}|${job.key}`) - 0.5) * 0.04;
  return round4(Math.min(0.999, Math.max(0.001, raw + jitter)));
}

/** `[1 - s, s]`, both rounded to 4 decimals so they print cleanly and sum to 1. */
export function scorePair(score: number): ScorePair {
  return [round4(1 - score), score];
}

function experienceFit(years: number | null, min: number | null, max: number | null): number {
  if (years === null || min === null) return 0.5;
  if (years >= min && (max === null || years <= max)) return 1;
  const gap = years < min ? min - years : years - (max ?? years);
  return Math.exp(-gap / 3);
}

function overlap(have: Set<string>, wanted: string[]): number {
  let count = 0;
  for (const name of wanted) if (have.has(name)) count++;
  return count;
}

function overlapKeys(have: Map<string, unknown>, wanted: Map<string, unknown>): number {
  let count = 0;
  for (const name of wanted.keys()) if (have.has(name)) count++;
  return count;
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** FNV-1a, scaled to [0, 1): a cheap, stable hash for the per-algorithm jitter. */
function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) / 2 ** 32;
}

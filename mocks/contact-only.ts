import type { Profile } from './contract-types.ts';

/** About one profile in fifty holds contact details only; index 7 so even small sets have one. */
export function isContactOnlyIndex(index: number): boolean {
  return index % 50 === 7;
}

/** A profile nothing can be graded on: no summary, experience, education or skill. */
export function isContactOnly(profile: Profile): boolean {
  return (
    profile.info.summary == null &&
    profile.experiences.length === 0 &&
    profile.educations.length === 0 &&
    profile.skills.length === 0
  );
}

import type { NamedValue, Skill } from './contract-types.ts';

/*
 * Fixtures are read-only once built. Values that repeat across profiles (skills, tags, empty
 * lists) are therefore one frozen object each instead of one copy per profile: at 100,000
 * profiles that halves the heap and the garbage collector's work. Freezing turns an accidental
 * write into a TypeError instead of a silent change to thousands of profiles.
 */

/** The empty list every empty array field points at. */
export const NONE = Object.freeze([]) as unknown as never[];

const skills = new Map<string, Skill>();
const namedValues = new Map<string, NamedValue>();

export function sharedSkill(name: string, type: Skill['type']): Skill {
  const id = `${type}\u0000${name}`;
  let skill = skills.get(id);
  if (skill === undefined) {
    skill = Object.freeze({ name, type, value: null });
    skills.set(id, skill);
  }
  return skill;
}

export function sharedNamedValue(name: string, value: string | null): NamedValue {
  const id = value === null ? `${name}\u0001` : `${name}\u0000${value}`;
  let entry = namedValues.get(id);
  if (entry === undefined) {
    entry = Object.freeze({ name, value });
    namedValues.set(id, entry);
  }
  return entry;
}

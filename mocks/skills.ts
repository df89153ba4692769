import type { Faker } from '@faker-js/faker';
import type { Skill } from './contract-types.ts';
import { sharedSkill } from './shared-values.ts';
import { FAMILIES, familyById } from './vocabularies/families.ts';
import type { FamilyVocabulary } from './vocabularies/family-vocabulary.ts';

const neighbourSkills = new Map<string, readonly string[]>(
  FAMILIES.map((family) => {
    const own = new Set<string>(family.hardSkills);
    const borrowed = new Set<string>();
    for (const id of family.neighbours) {
      for (const skill of familyById(id)?.hardSkills ?? []) {
        if (!own.has(skill)) borrowed.add(skill);
      }
    }
    return [family.id, [...borrowed]];
  }),
);

/** Hard skills of neighbouring families that this family does not list itself. */
export function neighbourSkillsOf(family: FamilyVocabulary): readonly string[] {
  return neighbourSkills.get(family.id) ?? [];
}

/** 4–10 hard skills of the family, one of them sometimes borrowed from a neighbour, and 1–3 soft. */
export function profileSkills(faker: Faker, family: FamilyVocabulary): Skill[] {
  const hard = faker.helpers.arrayElements(family.hardSkills, { min: 4, max: 10 });
  const borrowed = neighbourSkillsOf(family);
  if (borrowed.length > 0 && hard.length > 4 && faker.number.int(99) < 30) {
    hard[hard.length - 1] = faker.helpers.arrayElement(borrowed);
  }
  const soft = faker.helpers.arrayElements(family.softSkills, { min: 1, max: 3 });
  return [...hard.map(hardSkill), ...soft.map(softSkill)];
}

/** 4–8 hard skills of the family and 1–2 soft: what an opening asks for. */
export function jobSkills(faker: Faker, family: FamilyVocabulary): Skill[] {
  const hard = faker.helpers.arrayElements(family.hardSkills, { min: 4, max: 8 });
  const soft = faker.helpers.arrayElements(family.softSkills, { min: 1, max: 2 });
  return [...hard.map(hardSkill), ...soft.map(softSkill)];
}

export function hardSkill(name: string): Skill {
  return sharedSkill(name, 'hard');
}

function softSkill(name: string): Skill {
  return sharedSkill(name, 'soft');
}

import { containerFor } from './containers.ts';
import type { Container, Job } from './contract-types.ts';
import { keyOf } from './keys.ts';
import { jitteredLocation, pickCity } from './places.ts';
import { createSeededFaker, STREAMS } from './seeded-faker.ts';
import { NONE, sharedNamedValue } from './shared-values.ts';
import { jobSkills } from './skills.ts';
import { jobLanguages } from './spoken-languages.ts';
import { timestamps } from './timestamps.ts';
import { FAMILIES } from './vocabularies/families.ts';
import { SENIORITIES, SENIORITY_WEIGHTS, SENIORITY_YEARS } from './vocabularies/seniority.ts';
import { CONTRACT_VALUES, METADATA_NAMES, REMOTE_VALUES, TAG_NAMES } from './vocabularies/tags.ts';
import { BENEFITS, CULTURES, INTERVIEWS } from './vocabularies/workplace.ts';

const faker = createSeededFaker();

const SENIORITY_CHOICES = SENIORITIES.map((value) => ({ value, weight: SENIORITY_WEIGHTS[value] }));
const CONTRACT_CHOICES = [
  { weight: 70, value: CONTRACT_VALUES[0] },
  { weight: 20, value: CONTRACT_VALUES[1] },
  { weight: 10, value: CONTRACT_VALUES[2] },
];

/** The reference of job `index`: what a client's ATS would call it. */
export function jobReference(index: number): string {
  return `J-${String(index).padStart(6, '0')}`;
}

/** Job `index` of the set built from `seed`; like profiles, a pure function of its position. */
export function jobAt(seed: number, index: number, boards: readonly Container[]): Job {
  faker.seed([seed, STREAMS.job, index]);
  const board = containerFor(boards, index);
  const reference = jobReference(index);
  const family = faker.helpers.arrayElement(FAMILIES);
  const seniority = faker.helpers.weightedArrayElement(SENIORITY_CHOICES);
  const name = faker.helpers.arrayElement(family.titles[seniority]);
  const city = pickCity(faker);
  const summary = faker.helpers.arrayElement(family.jobSummaries);
  const skills = jobSkills(faker, family);
  const duties = faker.helpers.arrayElements(family.responsibilities, 3);
  const [yearsMin, yearsMax] = SENIORITY_YEARS[seniority];
  const hardSkills = skills.filter((skill) => skill.type === 'hard').map((skill) => skill.name);
  const requirements = [
    yearsMin === 0
      ? `Up to ${yearsMax} years of experience`
      : `${yearsMin} to ${yearsMax} years of experience`,
    hardSkills.slice(0, 3).join(', '),
    faker.helpers.arrayElement(family.requirements),
  ].join('; ');
  const responsibilities = duties.join('; ');
  const [salaryFloor, salaryCeiling] = family.salary[seniority];
  // The band starts in the lower half of the family's table and spans up to 15 thousand.
  const salaryMin =
    salaryFloor + 1000 * faker.number.int(Math.floor((salaryCeiling - salaryFloor) / 2000));
  const salaryMax = Math.min(
    salaryCeiling,
    salaryMin + 1000 * faker.number.int({ min: 3, max: 15 }),
  );
  const location = jitteredLocation(faker, city);
  const languages = jobLanguages(faker, city);
  const dates = timestamps(faker);
  return {
    id: index + 1,
    key: keyOf(seed, 'job', index),
    reference,
    board_key: board.key,
    board,
    name,
    url: `https://careers.hrmock.example/jobs/${reference.toLowerCase()}`,
    summary,
    location,
    sections: [
      { name: 'description', title: 'The role', description: `${summary} ${responsibilities}.` },
      { name: 'requirements', title: 'What you bring', description: `${requirements}.` },
    ],
    culture: faker.helpers.arrayElement(CULTURES),
    benefits: `${faker.helpers.arrayElements(BENEFITS, 3).join(', ')}.`,
    responsibilities: `${responsibilities}.`,
    requirements: `${requirements}.`,
    interviews: faker.helpers.arrayElement(INTERVIEWS),
    skills,
    languages,
    certifications: NONE,
    courses: NONE,
    tasks: duties.map((duty) => sharedNamedValue(duty, null)),
    tags: [
      sharedNamedValue(TAG_NAMES.family, family.id),
      sharedNamedValue(TAG_NAMES.remote, faker.helpers.arrayElement(REMOTE_VALUES)),
      sharedNamedValue(TAG_NAMES.contract, faker.helpers.weightedArrayElement(CONTRACT_CHOICES)),
    ],
    metadatas: [sharedNamedValue(METADATA_NAMES.seniority, seniority)],
    ranges_float: [
      { name: 'salary', value_min: salaryMin, value_max: salaryMax, unit: 'EUR' },
      { name: 'experience', value_min: yearsMin, value_max: yearsMax, unit: 'years' },
    ],
    ranges_date: NONE,
    created_at: dates.created_at,
    updated_at: dates.updated_at,
    archived_at: null,
  };
}

import type { Faker } from '@faker-js/faker';
import { type Career, careerFor } from './career.ts';
import { isContactOnlyIndex } from './contact-only.ts';
import { containerFor } from './containers.ts';
import type { Attachment, Container, Info, Location, Profile } from './contract-types.ts';
import { flat } from './flat.ts';
import { keyOf } from './keys.ts';
import { type JobSet, labelsFor } from './labels.ts';
import { type Person, personIn, profileUrls } from './person.ts';
import { jitteredLocation, pickCity } from './places.ts';
import { profileText, summaryOf } from './profile-text.ts';
import { monthStart } from './reference-date.ts';
import { createSeededFaker, STREAMS } from './seeded-faker.ts';
import { NONE, sharedNamedValue } from './shared-values.ts';
import { profileSkills } from './skills.ts';
import { profileLanguages } from './spoken-languages.ts';
import { timestamps } from './timestamps.ts';
import type { City } from './vocabularies/cities.ts';
import { FAMILIES } from './vocabularies/families.ts';
import { SENIORITIES, SENIORITY_WEIGHTS } from './vocabularies/seniority.ts';
import {
  CONTACT_ONLY,
  METADATA_NAMES,
  NOTICE_PERIODS,
  REMOTE_VALUES,
  STATUS_VALUES,
  TAG_NAMES,
} from './vocabularies/tags.ts';
import { INTERESTS } from './vocabularies/workplace.ts';

const faker = createSeededFaker();

const SENIORITY_CHOICES = SENIORITIES.map((value) => ({ value, weight: SENIORITY_WEIGHTS[value] }));
const CODING_FAMILIES = new Set<string>(['software', 'data']);
const REMOTE_CHOICES = [
  { weight: 50, value: REMOTE_VALUES[2] },
  { weight: 30, value: REMOTE_VALUES[1] },
  { weight: 20, value: REMOTE_VALUES[0] },
];
const STATUS_CHOICES = [
  { weight: 45, value: STATUS_VALUES[0] },
  { weight: 25, value: STATUS_VALUES[1] },
  { weight: 20, value: STATUS_VALUES[2] },
  { weight: 10, value: STATUS_VALUES[3] },
];

/** What differs between a gradable and a contact-only profile. */
type Body = Required<
  Omit<Profile, 'id' | 'key' | 'reference' | 'source_key' | 'source' | 'text_language'>
>;

/**
 * Profile `index` of the set built from `seed`. It reseeds its own stream first, so a profile
 * never depends on which profiles were generated before it: any subset can be built lazily.
 */
export function profileAt(
  seed: number,
  index: number,
  sources: readonly Container[],
  jobs?: JobSet,
): Profile {
  faker.seed([seed, STREAMS.profile, index]);
  const source = containerFor(sources, index);
  const key = keyOf(seed, 'profile', index);
  const city = pickCity(faker);
  const person = personIn(faker, city);
  const location = jitteredLocation(faker, city);
  const body = isContactOnlyIndex(index)
    ? contactOnlyBody(person, location)
    : gradableBody(seed, index, key, person, city, location, jobs);
  // One literal, no spreads: every profile gets the same hidden class, which keeps building and
  // reading 100,000 of them fast (a spread followed by 25 keys reallocates as it grows).
  return {
    id: index + 1,
    key,
    reference: `P-${String(index).padStart(7, '0')}`,
    source_key: source.key,
    source,
    info: body.info,
    text_language: 'en',
    text: body.text,
    created_at: body.created_at,
    updated_at: body.updated_at,
    archived_at: body.archived_at,
    experiences_duration: body.experiences_duration,
    educations_duration: body.educations_duration,
    experiences: body.experiences,
    educations: body.educations,
    attachments: body.attachments,
    skills: body.skills,
    languages: body.languages,
    certifications: body.certifications,
    courses: body.courses,
    tasks: body.tasks,
    interests: body.interests,
    tags: body.tags,
    metadatas: body.metadatas,
    labels: body.labels,
  };
}

function gradableBody(
  seed: number,
  index: number,
  key: string,
  person: Person,
  city: City,
  location: Location,
  jobs: JobSet | undefined,
): Body {
  const family = faker.helpers.arrayElement(FAMILIES);
  const seniority = faker.helpers.weightedArrayElement(SENIORITY_CHOICES);
  const skills = profileSkills(faker, family);
  const hardSkills = skills.filter((skill) => skill.type === 'hard').map((skill) => skill.name);
  const career = careerFor(faker, {
    family,
    seniority,
    home: city,
    hardSkills,
    seed,
    keyPath: ['profile', index],
  });
  const currentTitle = career.experiences[0]?.title ?? family.titles[seniority][0];
  const summary = summaryOf(
    currentTitle,
    career.experienceMonths,
    faker.helpers.arrayElement(family.focus),
    skills,
  );
  const languages = profileLanguages(faker, city);
  const [salaryMin, salaryMax] = family.salary[seniority];
  const { created_at, updated_at } = timestamps(faker);
  return {
    info: infoOf(person, location, {
      date_birth: birthDate(faker, career),
      driving_license: faker.number.int(9) < 6 ? 'B' : null,
      summary,
      urls: profileUrls(person, key, CODING_FAMILIES.has(family.id)),
    }),
    text: profileText({
      fullName: person.full_name,
      summary,
      experiences: career.experiences,
      educations: career.educations,
      skills,
      languages,
    }),
    created_at,
    updated_at,
    archived_at: null,
    experiences_duration: years(career.experienceMonths),
    educations_duration: years(career.educationMonths),
    experiences: career.experiences,
    educations: career.educations,
    attachments: faker.number.int(9) < 6 ? [resumeOf(key, person, created_at)] : NONE,
    skills,
    languages,
    certifications: NONE,
    courses: NONE,
    tasks: NONE,
    interests: faker.helpers
      .arrayElements(INTERESTS, { min: 0, max: 2 })
      .map((name) => sharedNamedValue(name, null)),
    tags: [
      sharedNamedValue(TAG_NAMES.family, family.id),
      sharedNamedValue(TAG_NAMES.remote, faker.helpers.weightedArrayElement(REMOTE_CHOICES)),
      sharedNamedValue(TAG_NAMES.status, faker.helpers.weightedArrayElement(STATUS_CHOICES)),
    ],
    metadatas: [
      sharedNamedValue(METADATA_NAMES.seniority, seniority),
      sharedNamedValue(
        METADATA_NAMES.expectedSalary,
        String(faker.number.int({ min: salaryMin, max: salaryMax, multipleOf: 1000 })),
      ),
      sharedNamedValue(METADATA_NAMES.noticePeriod, faker.helpers.arrayElement(NOTICE_PERIODS)),
    ],
    // Drawn last, so that the fields above are what they were before profiles had labels.
    labels: labelsFor(faker, seed, jobs, created_at),
  };
}

/** Name, email, phone and place: enough to call someone, nothing to grade them on. */
function contactOnlyBody(person: Person, location: Location): Body {
  const { created_at, updated_at } = timestamps(faker);
  return {
    info: infoOf(person, location, {
      date_birth: null,
      driving_license: null,
      summary: null,
      urls: NONE,
    }),
    text: flat`${person.full_name} ${person.email}`,
    created_at,
    updated_at,
    archived_at: null,
    experiences_duration: 0,
    educations_duration: 0,
    experiences: NONE,
    educations: NONE,
    attachments: NONE,
    skills: NONE,
    languages: NONE,
    certifications: NONE,
    courses: NONE,
    tasks: NONE,
    interests: NONE,
    tags: [
      sharedNamedValue(TAG_NAMES.status, STATUS_VALUES[0]),
      sharedNamedValue(TAG_NAMES.completeness, CONTACT_ONLY),
    ],
    metadatas: NONE,
    labels: NONE,
  };
}

type InfoExtras = Pick<Info, 'date_birth' | 'driving_license' | 'summary' | 'urls'>;

function infoOf(person: Person, location: Location, extras: InfoExtras): Info {
  return {
    full_name: person.full_name,
    first_name: person.first_name,
    last_name: person.last_name,
    email: person.email,
    phone: person.phone,
    date_birth: extras.date_birth,
    driving_license: extras.driving_license,
    gender: person.gender,
    picture: null,
    summary: extras.summary,
    location,
    urls: extras.urls,
  };
}

/** Born 18 to 19 years before starting the first degree. */
function birthDate(faker: Faker, career: Career): string {
  return monthStart(career.studiesStart - 18 * 12 - faker.number.int(11));
}

function resumeOf(key: string, person: Person, uploadedAt: string): Attachment {
  return {
    type: 'resume',
    alt: flat`Resume of ${person.full_name}`,
    file_size: 40_000 + (Number.parseInt(key.slice(0, 4), 16) % 200) * 1000,
    file_name: flat`${key}.pdf`,
    original_file_name: flat`${person.first_name}_${person.last_name}_CV.pdf`,
    extension: '.pdf',
    public_url: flat`https://files.hrmock.example/resumes/${key}.pdf`,
    created_at: uploadedAt,
    updated_at: uploadedAt,
  };
}

function years(months: number): number {
  return Math.round((months / 12) * 10) / 10;
}

import type { Faker } from '@faker-js/faker';
import type { Education, Experience } from './contract-types.ts';
import { keyOf } from './keys.ts';
import { cityCentre, nearbyCity } from './places.ts';
import { monthEnd, monthStart, REFERENCE_MONTH } from './reference-date.ts';
import { NONE, sharedNamedValue } from './shared-values.ts';
import { hardSkill } from './skills.ts';
import type { City } from './vocabularies/cities.ts';
import type { FamilyVocabulary } from './vocabularies/family-vocabulary.ts';
import { SENIORITIES, SENIORITY_YEARS, type Seniority } from './vocabularies/seniority.ts';

export type Career = {
  /** Newest first, the current job (open-ended) at the head. */
  experiences: Experience[];
  /** Newest first, all finished before the first job started. */
  educations: Education[];
  experienceMonths: number;
  educationMonths: number;
  /** The month the first degree started, to date a birth from. */
  studiesStart: number;
};

export type CareerInput = {
  family: FamilyVocabulary;
  seniority: Seniority;
  home: City;
  hardSkills: readonly string[];
  /** Names the object the career belongs to, so its experience and education keys are stable. */
  keyPath: readonly (string | number)[];
  seed: number;
};

/** A job spans the months [start, end). */
type Span = { start: number; end: number; level: Seniority };

const MIN_JOB_MONTHS = 3;

const JOB_COUNTS = {
  junior: { min: 1, max: 2 },
  mid: { min: 1, max: 3 },
  senior: { min: 2, max: 4 },
  lead: { min: 2, max: 5 },
} as const satisfies Record<Seniority, { min: number; max: number }>;

/** A junior has worked at least a few months: an experience needs a start before its end. */
const CAREER_MONTHS: Record<Seniority, { min: number; max: number }> = {
  junior: { min: MIN_JOB_MONTHS, max: SENIORITY_YEARS.junior[1] * 12 },
  mid: { min: SENIORITY_YEARS.mid[0] * 12, max: SENIORITY_YEARS.mid[1] * 12 },
  senior: { min: SENIORITY_YEARS.senior[0] * 12, max: SENIORITY_YEARS.senior[1] * 12 },
  lead: { min: SENIORITY_YEARS.lead[0] * 12, max: SENIORITY_YEARS.lead[1] * 12 },
};

/** Academic years end in July, so a degree's exclusive end month is an August. */
const AUGUST = 7;
const DEGREES = {
  bachelorThenMaster: [
    { degree: 'master', months: 23 },
    { degree: 'bachelor', months: 35 },
  ],
  bachelor: [{ degree: 'bachelor', months: 35 }],
  longMaster: [{ degree: 'master', months: 59 }],
} as const;

/**
 * Plans a career backwards from the reference month: the current job ends "now", each older job
 * ends before the next one starts, and degrees end before the first job. Titles rise with the
 * months worked so far, capped at the profile's seniority, which the current job holds.
 */
export function careerFor(faker: Faker, input: CareerInput): Career {
  const { family, seniority, seed, keyPath } = input;
  const total = faker.number.int(CAREER_MONTHS[seniority]);
  const count = Math.min(faker.number.int(JOB_COUNTS[seniority]), total / MIN_JOB_MONTHS);
  const spans = plan(faker, seniority, total, Math.floor(count));
  const experiences = spans.map((span, j): Experience => {
    const city = nearbyCity(faker, input.home);
    const current = j === spans.length - 1;
    return {
      key: keyOf(seed, ...keyPath, 'experience', j),
      company: employer(faker, family, city),
      logo: null,
      title: faker.helpers.arrayElement(family.titles[span.level]),
      description: faker.helpers.arrayElement(family.achievements),
      location: cityCentre(city),
      date_start: monthStart(span.start),
      date_end: current ? null : monthEnd(span.end - 1),
      skills: faker.helpers.arrayElements(input.hardSkills, { min: 1, max: 3 }).map(hardSkill),
      certifications: NONE,
      courses: NONE,
      tasks: faker.helpers
        .arrayElements(family.responsibilities, { min: 0, max: 2 })
        .map((name) => sharedNamedValue(name, null)),
      languages: NONE,
      interests: NONE,
    };
  });
  experiences.reverse();
  const studies = educationsBefore(faker, input, spans[0]?.start ?? REFERENCE_MONTH);
  return {
    experiences,
    educations: studies.educations,
    experienceMonths: total,
    educationMonths: studies.months,
    studiesStart: studies.start,
  };
}

/** Splits `total` months into `count` jobs, oldest first, with short gaps between them. */
function plan(faker: Faker, seniority: Seniority, total: number, count: number): Span[] {
  const weights = Array.from({ length: count }, () => faker.number.int({ min: 1, max: 5 }));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const spare = total - MIN_JOB_MONTHS * count;
  const lengths = weights.map((w) => MIN_JOB_MONTHS + Math.floor((spare * w) / weightSum));
  // Rounding leftovers go to the current job, so the lengths add up to `total` exactly.
  lengths[count - 1] = (lengths[count - 1] ?? 0) + total - lengths.reduce((a, b) => a + b, 0);

  const gaps = lengths.map(() =>
    faker.datatype.boolean() ? 0 : faker.number.int({ min: 1, max: 4 }),
  );
  const cap = SENIORITIES.indexOf(seniority);
  const spans: Span[] = new Array(count);
  let end = REFERENCE_MONTH;
  let worked = total;
  for (let j = count - 1; j >= 0; j--) {
    const length = lengths[j] ?? MIN_JOB_MONTHS;
    worked -= length;
    const level = j === count - 1 ? seniority : levelAfter(worked, cap);
    spans[j] = { start: end - length, end, level };
    end -= length + (gaps[j] ?? 0);
  }
  return spans;
}

/** The seniority reached after `months` of work, by the lower bound of each band, capped. */
function levelAfter(months: number, cap: number): Seniority {
  let level: Seniority = 'junior';
  for (const [i, name] of SENIORITIES.entries()) {
    if (i <= cap && months >= SENIORITY_YEARS[name][0] * 12) level = name;
  }
  return level;
}

function educationsBefore(
  faker: Faker,
  input: CareerInput,
  firstJobStart: number,
): { educations: Education[]; months: number; start: number } {
  const { family, home, seed, keyPath } = input;
  const degrees = faker.datatype.boolean({ probability: 0.4 })
    ? DEGREES.bachelorThenMaster
    : faker.datatype.boolean()
      ? DEGREES.bachelor
      : DEGREES.longMaster;
  let end = firstJobStart - ((((firstJobStart - AUGUST) % 12) + 12) % 12);
  let months = 0;
  const educations = degrees.map(({ degree, months: length }, j): Education => {
    const city = nearbyCity(faker, home);
    const start = end - length;
    const education = {
      key: keyOf(seed, ...keyPath, 'education', j),
      school: city.university,
      logo: null,
      title: faker.helpers.arrayElement(family.degrees[degree]),
      description: null,
      location: cityCentre(city),
      date_start: monthStart(start),
      date_end: monthEnd(end - 1),
      skills: NONE,
      certifications: NONE,
      courses: NONE,
      tasks: NONE,
      languages: NONE,
      interests: NONE,
    };
    months += length;
    // The earlier degree ends the summer before the later one starts.
    end = start - 1;
    return education;
  });
  return { educations, months, start: end + 1 };
}

function employer(faker: Faker, family: FamilyVocabulary, city: City): string {
  const pattern = faker.helpers.arrayElement(family.employers);
  if (pattern.includes('{last}')) return pattern.replace('{last}', faker.person.lastName());
  return pattern.replace('{city}', city.name);
}

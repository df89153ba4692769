import type { Job, JobMinimal, Profile, ProfileMinimal } from './types.ts';

const SENIORITY_LEVELS: Record<string, number> = { junior: 0, mid: 1, senior: 2, lead: 3 };

/**
 * What search, scoring and grading need of one profile or job, read once from the object:
 * lowercased text and names, coordinates, dates as numbers, the family and seniority the object
 * declares. The store turns these into compact columns and drops the object.
 */
export type DocFeatures = {
  key: string;
  containerKey: string;
  reference: string | null;
  minimal: ProfileMinimal | JobMinimal;
  /** Grading needs something beyond contact details. */
  gradable: boolean;
  created: number;
  updated: number;
  text: string;
  /** In the object's order, repeats kept: scoring counts each one. */
  hardSkills: string[];
  softSkills: string[];
  /** Lowercased name → lowercased value; a repeated name keeps its last value. */
  languages: Map<string, string | null>;
  tags: Map<string, Set<string | null>>;
  lat: number | null;
  lng: number | null;
  /** Profiles: years of experience. Jobs: the fewest years the job asks for. */
  years: number | null;
  /** Jobs: the most years the job asks for. */
  yearsMax: number | null;
  family: string | null;
  seniority: number | null;
};

export function profileFeatures(profile: Profile): DocFeatures {
  const location = profile.info.location;
  return {
    key: profile.key,
    containerKey: profile.source_key,
    reference: profile.reference,
    minimal: {
      key: profile.key,
      reference: profile.reference,
      source_key: profile.source_key,
      created_at: profile.created_at,
      updated_at: profile.updated_at,
    },
    gradable:
      profile.experiences.length > 0 ||
      profile.educations.length > 0 ||
      profile.skills.length > 0 ||
      Boolean(profile.info.summary),
    created: Date.parse(profile.created_at),
    updated: Date.parse(profile.updated_at),
    text: profile.text.toLowerCase(),
    ...skillsOf(profile.skills),
    languages: named(profile.languages),
    tags: tagsOf(profile.tags),
    lat: location.lat,
    lng: location.lng,
    years: profile.experiences_duration ?? null,
    yearsMax: null,
    family: namedValue(profile.tags, 'family'),
    seniority: levelOf(namedValue(profile.metadatas, 'seniority')),
  };
}

export function jobFeatures(job: Job): DocFeatures {
  const experience = job.ranges_float.find((r) => r.name === 'experience');
  return {
    key: job.key,
    containerKey: job.board_key,
    reference: job.reference,
    minimal: {
      key: job.key,
      reference: job.reference,
      board_key: job.board_key,
      created_at: job.created_at,
      updated_at: job.updated_at,
    },
    gradable: true,
    created: Date.parse(job.created_at),
    updated: Date.parse(job.updated_at),
    text: jobText(job),
    ...skillsOf(job.skills),
    languages: named(job.languages),
    tags: tagsOf(job.tags),
    lat: job.location.lat,
    lng: job.location.lng,
    years: experience?.value_min ?? null,
    yearsMax: experience?.value_max ?? null,
    family: namedValue(job.tags, 'family'),
    seniority: levelOf(namedValue(job.metadatas, 'seniority')),
  };
}

/** The words a keyword search finds in a job: everything a candidate would read. */
function jobText(job: Job): string {
  return [
    job.name,
    job.summary,
    job.location.text,
    ...job.sections.flatMap((s) => [s.title, s.description]),
    job.culture,
    job.benefits,
    job.responsibilities,
    job.requirements,
    ...job.skills.map((s) => s.name),
    ...job.languages.map((l) => l.name),
  ]
    .filter(Boolean)
    .join(' \n')
    .toLowerCase();
}

function lower(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : value.toLowerCase();
}

function named(
  items: { name: string; value?: string | null }[] | undefined,
): Map<string, string | null> {
  return new Map((items ?? []).map((i) => [i.name.toLowerCase(), lower(i.value)]));
}

function tagsOf(
  items: { name: string; value: string | null }[] | undefined,
): Map<string, Set<string | null>> {
  const tags = new Map<string, Set<string | null>>();
  for (const tag of items ?? []) {
    const name = tag.name.toLowerCase();
    const values = tags.get(name) ?? new Set();
    values.add(lower(tag.value));
    tags.set(name, values);
  }
  return tags;
}

function namedValue(
  items: { name: string; value: string | null }[] | undefined,
  name: string,
): string | null {
  return items?.find((i) => i.name === name)?.value ?? null;
}

function skillsOf(skills: { name: string; type: string }[]) {
  const hard = skills.filter((s) => s.type === 'hard').map((s) => s.name.toLowerCase());
  const soft = skills.filter((s) => s.type === 'soft').map((s) => s.name.toLowerCase());
  return { hardSkills: hard, softSkills: soft };
}

function levelOf(seniority: string | null): number | null {
  // Own keys only: "constructor" is not a seniority (and scored as none before, too).
  return seniority !== null && Object.hasOwn(SENIORITY_LEVELS, seniority)
    ? (SENIORITY_LEVELS[seniority] as number)
    : null;
}

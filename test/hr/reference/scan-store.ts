import type {
  Container,
  Job,
  JobMinimal,
  Profile,
  ProfileMinimal,
} from '../../../src/store/types.ts';
import type { Kind } from './names.ts';

/** Everything in memory, as the store used to take it. */
export type ScanData = {
  sources: Container[];
  boards: Container[];
  profiles: Profile[];
  jobs: Job[];
};

const SENIORITY_LEVELS: Record<string, number> = { junior: 0, mid: 1, senior: 2, lead: 3 };

/**
 * What search, scoring and grading need of one profile or job, computed once: lowercased text
 * and names, coordinates, dates as numbers, the family and seniority the object declares.
 */
export type Doc = {
  kind: Kind;
  index: number;
  key: string;
  containerKey: string;
  reference: string | null;
  created: number;
  updated: number;
  text: string;
  hardSkills: string[];
  softSkills: string[];
  skills: Set<string>;
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
  /** Grading needs something beyond contact details. */
  gradable: boolean;
  full: Profile | Job;
  minimal: ProfileMinimal | JobMinimal;
};

export type Collection = {
  kind: Kind;
  containers: Map<string, Container>;
  docs: Doc[];
  byKey: Map<string, Doc>;
  byReference: Map<string, Doc>;
};

export type Store = { profile: Collection; job: Collection };

/**
 * The store as it was before indexes: one object per doc holding the full object, searched by a
 * linear scan. The indexed store must answer exactly as this one does.
 */
export function createScanStore(data: ScanData): Store {
  return {
    profile: collect('profile', data.sources, data.profiles.map(profileDoc)),
    job: collect('job', data.boards, data.jobs.map(jobDoc)),
  };
}

/** `containerKey/key`: keys are unique per container, as the API names objects. */
export function refId(containerKey: string, keyOrReference: string): string {
  return `${containerKey}/${keyOrReference}`;
}

function collect(kind: Kind, containers: Container[], docs: Doc[]): Collection {
  const byKey = new Map<string, Doc>();
  const byReference = new Map<string, Doc>();
  for (const doc of docs) {
    byKey.set(refId(doc.containerKey, doc.key), doc);
    if (doc.reference !== null) byReference.set(refId(doc.containerKey, doc.reference), doc);
  }
  return { kind, containers: new Map(containers.map((c) => [c.key, c])), docs, byKey, byReference };
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
  return { hardSkills: hard, softSkills: soft, skills: new Set([...hard, ...soft]) };
}

function levelOf(seniority: string | null): number | null {
  return seniority === null ? null : (SENIORITY_LEVELS[seniority] ?? null);
}

function profileDoc(profile: Profile, index: number): Doc {
  const location = profile.info.location;
  return {
    kind: 'profile',
    index,
    key: profile.key,
    containerKey: profile.source_key,
    reference: profile.reference,
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
    gradable:
      profile.experiences.length > 0 ||
      profile.educations.length > 0 ||
      profile.skills.length > 0 ||
      Boolean(profile.info.summary),
    full: profile,
    minimal: {
      key: profile.key,
      reference: profile.reference,
      source_key: profile.source_key,
      created_at: profile.created_at,
      updated_at: profile.updated_at,
    },
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

function jobDoc(job: Job, index: number): Doc {
  const experience = job.ranges_float.find((r) => r.name === 'experience');
  return {
    kind: 'job',
    index,
    key: job.key,
    containerKey: job.board_key,
    reference: job.reference,
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
    gradable: true,
    full: job,
    minimal: {
      key: job.key,
      reference: job.reference,
      board_key: job.board_key,
      created_at: job.created_at,
      updated_at: job.updated_at,
    },
  };
}

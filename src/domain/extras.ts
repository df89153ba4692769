import type { Collection } from './store.ts';
import type { Job, Profile } from './types.ts';

/**
 * What the SDKs' older filters and orders read (names, emails, sections of a profile, interests,
 * places of experiences and educations, labels), kept out of the columns every store builds:
 * most servers never see these filters, and 100,000 profiles' sections would cost ~50 MB. Built
 * from the full objects the first time a query needs them, then kept with the collection.
 */
export type Extras = {
  /** Lowercased: a profile's `info.full_name`, a job's `name`. */
  names: string[];
  /** Lowercased `info.email`, or '' (jobs: always ''). */
  emails: string[];
  /** Lowercased summary: `info.summary`, a job's `summary`. */
  summaries: string[];
  /** Profiles: lowercased titles, companies and descriptions of the experiences. */
  experiences: string[];
  /** Profiles: lowercased titles, schools and descriptions of the educations. */
  educations: string[];
  /** Profiles: lowercased interest name → lowercased value. */
  interests: Map<string, string | null>[];
  /** Profiles: `educations_duration`, NaN for none. */
  educationYears: Float64Array;
  /** Profiles: `[lat, lng, lat, lng, …]` of the located experiences / educations. */
  experiencePlaces: Float64Array[];
  educationPlaces: Float64Array[];
  /** Profiles: each label as `boardKey/jobKey` and its stage. */
  labels: { job: string; stage: string }[][];
};

const built = new WeakMap<Collection, Extras>();
const NOWHERE = new Float64Array(0);
const NO_INTERESTS = new Map<string, string | null>();

export function extrasOf(collection: Collection): Extras {
  let extras = built.get(collection);
  if (extras === undefined) {
    extras = build(collection);
    built.set(collection, extras);
  }
  return extras;
}

/** `boardKey/jobKey`: how a label names its job. */
export function jobRef(boardKey: string, jobKey: string): string {
  return `${boardKey}/${jobKey}`;
}

function build(collection: Collection): Extras {
  const count = collection.docs.length;
  const extras: Extras = {
    names: new Array(count),
    emails: new Array(count),
    summaries: new Array(count),
    experiences: new Array(count),
    educations: new Array(count),
    interests: new Array(count),
    educationYears: new Float64Array(count).fill(Number.NaN),
    experiencePlaces: new Array(count),
    educationPlaces: new Array(count),
    labels: new Array(count),
  };
  for (let i = 0; i < count; i++) {
    const object = collection.full(i);
    if (collection.kind === 'job') addJob(extras, i, object as Job);
    else addProfile(extras, i, object as Profile);
  }
  return extras;
}

function addJob(extras: Extras, i: number, job: Job): void {
  extras.names[i] = job.name.toLowerCase();
  extras.emails[i] = '';
  extras.summaries[i] = (job.summary ?? '').toLowerCase();
  extras.experiences[i] = '';
  extras.educations[i] = '';
  extras.interests[i] = NO_INTERESTS;
  extras.experiencePlaces[i] = NOWHERE;
  extras.educationPlaces[i] = NOWHERE;
  extras.labels[i] = [];
}

function addProfile(extras: Extras, i: number, profile: Profile): void {
  const { info } = profile;
  extras.names[i] = (info.full_name ?? '').toLowerCase();
  extras.emails[i] = (info.email ?? '').toLowerCase();
  extras.summaries[i] = (info.summary ?? '').toLowerCase();
  const experiences = profile.experiences ?? [];
  const educations = profile.educations ?? [];
  extras.experiences[i] = sectionText(experiences.map((e) => [e.title, e.company, e.description]));
  extras.educations[i] = sectionText(educations.map((e) => [e.title, e.school, e.description]));
  const interests = profile.interests ?? [];
  extras.interests[i] =
    interests.length === 0
      ? NO_INTERESTS
      : new Map(interests.map((t) => [t.name.toLowerCase(), lowerValue(t.value)]));
  if (profile.educations_duration != null) extras.educationYears[i] = profile.educations_duration;
  extras.experiencePlaces[i] = placesOf(experiences);
  extras.educationPlaces[i] = placesOf(educations);
  extras.labels[i] = (profile.labels ?? []).map((label) => ({
    job: jobRef(label.board_key, label.job_key),
    stage: label.stage,
  }));
}

/** The parts of each entry, one entry a line, so a keyword never spans two entries. */
function sectionText(entries: (string | null | undefined)[][]): string {
  return entries
    .map((parts) => parts.filter(Boolean).join(' '))
    .join('\n')
    .toLowerCase();
}

function lowerValue(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value).toLowerCase();
}

function placesOf(entries: { location?: { lat?: number | null; lng?: number | null } | null }[]) {
  const coordinates: number[] = [];
  for (const { location } of entries) {
    if (location?.lat != null && location.lng != null) coordinates.push(location.lat, location.lng);
  }
  return coordinates.length === 0 ? NOWHERE : Float64Array.from(coordinates);
}

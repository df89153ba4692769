import type { Kind } from '../store/kinds.ts';
import { cappedItems, cappedKeywords } from './list-caps.ts';
import { type GeoPoint, type ItemFilter, ParamReader } from './params.ts';
import { DEFAULT_DISTANCE_KM, type Filters, STAGES } from './queries.ts';

/**
 * The filters of the API's public record that its SDKs still send (HrFlow's docs list them for
 * profile searching and scoring; `tags` and `timestamp_*` come from the JS SDK). Profiles only
 * where the object has the field: on jobs, `email`, `interests` and the experience and education
 * filters are unknown names, ignored as any other.
 */
export function readSdkFilters(read: ParamReader, kind: Kind, filters: Filters): void {
  // Most requests send none of them: a look at the few names sent, not ~20 lookups of absent ones.
  if (read.holdsAny(SDK_FILTER_NAMES[kind])) readEverySdkFilter(read, kind, filters);
}

function readEverySdkFilter(read: ParamReader, kind: Kind, filters: Filters): void {
  const name = read.string('name');
  if (name !== undefined) filters.name = name.trim().toLowerCase();
  const summary = lowered(keywordsOf(read, 'summary_keywords'));
  if (summary !== undefined) filters.summaryKeywords = summary;
  const tags = cappedItems(read, 'tags', read.itemFilters('tags'));
  if (tags !== undefined && tags.length > 0) {
    filters.tagsIncluded = [...(filters.tagsIncluded ?? []), ...tags.map((tag) => [tag])];
  }
  if (read.has('stage')) filters.stage = { stage: read.oneOf('stage', STAGES, 'new') };
  readTimestamps(read, filters);
  if (kind === 'job') return;

  const email = read.string('email');
  if (email !== undefined) filters.email = email.trim().toLowerCase();
  const experience = lowered(keywordsOf(read, 'experience_keywords'));
  if (experience !== undefined) filters.experienceKeywords = experience;
  const education = lowered(keywordsOf(read, 'education_keywords'));
  if (education !== undefined) filters.educationKeywords = education;
  const interests: ItemFilter[] | undefined = cappedItems(
    read,
    'interests',
    read.itemFilters('interests'),
  );
  if (interests !== undefined && interests.length > 0) filters.interests = interests;
  const [low, high] = readRange(read, 'educations_duration', 'years');
  if (low !== undefined) filters.educationYearsMin = low;
  if (high !== undefined) filters.educationYearsMax = high;
  const experienceNear = readPlace(read, 'experience_location');
  if (experienceNear !== undefined) filters.experienceNear = experienceNear;
  const educationNear = readPlace(read, 'education_location');
  if (educationNear !== undefined) filters.educationNear = educationNear;
}

const NO_RANGE: [undefined, undefined] = [undefined, undefined];

/** `{prefix}_min` and `{prefix}_max`, at least 0, the first not above the second. */
export function readRange(
  read: ParamReader,
  prefix: string,
  unit: string,
): [number | undefined, number | undefined] {
  const [min, max] = RANGE_NAMES.of(prefix);
  if (!read.has(min) && !read.has(max)) return NO_RANGE;
  const low = read.number(min, { min: 0, unit });
  const high = read.number(max, { min: 0, unit });
  if (low !== undefined && high !== undefined && low > high) {
    read.error(min, `${min} is above ${max}: swap them`);
  }
  return [low, high];
}

/**
 * `{prefix}_geopoint` and `{prefix}_distance`: a point, and a radius in km (50 when the point
 * comes alone); a radius without its point says what it is missing.
 */
export function readPlace(
  read: ParamReader,
  prefix: string,
): { point: GeoPoint; km: number } | undefined {
  const [geopoint, distance] = PLACE_NAMES.of(prefix);
  const point = read.geoPoint(geopoint);
  const km = read.number(distance, { above: 0, unit: 'kilometres' });
  if (km !== undefined && !read.has(geopoint)) {
    read.error(distance, `${distance} needs ${geopoint}={"lat":…,"lng":…} to measure from`);
  }
  return point === undefined ? undefined : { point, km: km ?? DEFAULT_DISTANCE_KM };
}

/** `timestamp_start` / `timestamp_end` bound the creation date, with `created_at_*`: the tighter wins. */
function readTimestamps(read: ParamReader, filters: Filters): void {
  const start = read.instant('timestamp_start');
  const end = read.instant('timestamp_end');
  if (start !== undefined) filters.createdMin = Math.max(start, filters.createdMin ?? start);
  if (end !== undefined) filters.createdMax = Math.min(end, filters.createdMax ?? end);
  const { createdMin, createdMax } = filters;
  if (
    (start !== undefined || end !== undefined) &&
    createdMin !== undefined &&
    createdMax !== undefined &&
    createdMin > createdMax
  ) {
    const param = start !== undefined ? 'timestamp_start' : 'timestamp_end';
    read.error(
      param,
      `${param} leaves no time between the creation bounds: the start is after the end`,
    );
  }
}

function keywordsOf(read: ParamReader, name: string): string[] | undefined {
  return cappedKeywords(read, name, read.keywords(name));
}

function lowered(keywords: string[] | undefined): string[] | undefined {
  return keywords === undefined || keywords.length === 0
    ? undefined
    : keywords.map((k) => k.toLowerCase());
}

/** Parameter names made from a prefix and two suffixes, each made once. */
class SuffixedNames {
  readonly #first: string;
  readonly #second: string;
  readonly #names = new Map<string, readonly [string, string]>();

  constructor(first: string, second: string) {
    this.#first = first;
    this.#second = second;
  }

  /**
   * `{prefix}{first}` and `{prefix}{second}`, made once per prefix: a name built per request is
   * a new string, hashed again at every lookup.
   */
  of(prefix: string): readonly [string, string] {
    let names = this.#names.get(prefix);
    if (names === undefined) {
      names = [`${prefix}${this.#first}`, `${prefix}${this.#second}`];
      this.#names.set(prefix, names);
    }
    return names;
  }
}

const RANGE_NAMES = new SuffixedNames('_min', '_max');
const PLACE_NAMES = new SuffixedNames('_geopoint', '_distance');

/**
 * Every name `readEverySdkFilter` reads, per kind, recorded by running it on no parameters: it
 * reads each name unless another one was sent, so with none of these sent it reads nothing.
 */
const SDK_FILTER_NAMES: Record<Kind, ReadonlySet<string>> = {
  profile: namesRead('profile'),
  job: namesRead('job'),
};

function namesRead(kind: Kind): ReadonlySet<string> {
  const names = new Set<string>();
  const nothingSent = new (class extends Map<string, unknown> {
    override get(name: string): undefined {
      names.add(name);
      return undefined;
    }
  })();
  readEverySdkFilter(new ParamReader(nothingSent), kind, {});
  return names;
}

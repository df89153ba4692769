import { type Kind, NAMES } from './names.ts';
import { keywords, namedList, tagGroups } from './read-lists.ts';
import type { Named, Point, Reading } from './read-values.ts';

// Searching's parameters (scoring takes them too), read as the contract states them: paging,
// order and every filter, with their defaults and bounds.

export type Place = { point: Point; km: number };
export type Stage = 'new' | 'yes' | 'later' | 'no';

/** Every filter of searching and scoring; each one sent narrows the results. */
export type ScanFilters = {
  keywords?: string[];
  skills?: Named[];
  languages?: Named[];
  tagsIncluded?: Named[][];
  tagsExcluded?: Named[][];
  near?: Place;
  createdMin?: number;
  createdMax?: number;
  yearsMin?: number;
  yearsMax?: number;
  name?: string;
  email?: string;
  summaryKeywords?: string[];
  experienceKeywords?: string[];
  educationKeywords?: string[];
  interests?: Named[];
  educationYearsMin?: number;
  educationYearsMax?: number;
  experienceNear?: Place;
  educationNear?: Place;
  stage?: Stage;
};

export type SortBy =
  | 'created_at'
  | 'updated_at'
  | 'searching'
  | 'location'
  | 'location_experience'
  | 'location_education'
  | 'scoring';

export type ScanSearch = {
  containerKeys: string[];
  page: number;
  limit: number;
  sortBy: SortBy;
  orderBy: 'desc' | 'asc';
  filters: ScanFilters;
  /** What a `location*` order measures from. */
  sortPoint?: Point;
};

/** The sort names `sort_by` takes, as the order each one means (the JS SDK's older names too). */
const SORTS: Record<string, SortBy> = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  searching: 'searching',
  location: 'location',
  location_experience: 'location_experience',
  location_education: 'location_education',
  scoring: 'scoring',
  date: 'created_at',
  date_reception: 'created_at',
  date_creation: 'created_at',
  score_semantic: 'searching',
  score_predictive: 'scoring',
};

const STAGES = ['new', 'yes', 'later', 'no'] as const;

/** Paging, order and filters: `page` 1, `limit` 30 (1 to 100), `created_at`, `desc`. */
export function searchOf(read: Reading, kind: Kind): ScanSearch {
  const names = NAMES[kind];
  const containerKeys = read.keys(names.containerKeys) ?? read.bad(names.containerKeys) ?? [];
  const page = read.whole('page', 1, 1);
  const limit = read.whole('limit', 30, 1, 100);
  const sortBy = SORTS[read.choice('sort_by', Object.keys(SORTS), 'created_at')] as SortBy;
  const orderBy = read.choice('order_by', ['desc', 'asc'] as const, 'desc');
  const filters = filtersOf(read, kind);
  const search: ScanSearch = { containerKeys, page, limit, sortBy, orderBy, filters };
  if (!sortBy.startsWith('location')) return search;
  // A `location*` order measures from its own point, else `location_geopoint`'s; with neither
  // it has nothing to measure from and orders as the default.
  const own = {
    location_experience: filters.experienceNear,
    location_education: filters.educationNear,
  };
  const point = (own[sortBy as keyof typeof own] ?? filters.near)?.point;
  if (point === undefined) search.sortBy = 'created_at';
  else search.sortPoint = point;
  return search;
}

function filtersOf(read: Reading, kind: Kind): ScanFilters {
  const tags = namedList(read, 'tags')?.map((tag) => [tag]);
  const included = tagGroups(read, 'tags_included');
  const filters: ScanFilters = {
    keywords: keywords(read, 'text_keywords'),
    skills: namedList(read, 'skills'),
    languages: namedList(read, 'languages'),
    // `tags` (the JS SDK's name) is a flat `tags_included`, combined with it.
    tagsIncluded: included || tags ? [...(included ?? []), ...(tags ?? [])] : undefined,
    tagsExcluded: tagGroups(read, 'tags_excluded'),
    near: place(read, 'location'),
    name: read.text('name'),
    summaryKeywords: keywords(read, 'summary_keywords'),
    stage: read.sent('stage') ? read.choice('stage', STAGES, 'new') : undefined,
  };
  [filters.yearsMin, filters.yearsMax] = range(read, 'experiences_duration');
  createdBounds(read, filters);
  // Profiles only: on jobs these are unknown names, ignored as any other.
  if (kind === 'profile') profileFilters(read, filters);
  return withoutUndefined(filters);
}

function profileFilters(read: Reading, filters: ScanFilters): void {
  filters.email = read.text('email');
  filters.experienceKeywords = keywords(read, 'experience_keywords');
  filters.educationKeywords = keywords(read, 'education_keywords');
  filters.interests = namedList(read, 'interests');
  [filters.educationYearsMin, filters.educationYearsMax] = range(read, 'educations_duration');
  filters.experienceNear = place(read, 'experience_location');
  filters.educationNear = place(read, 'education_location');
}

/** `{prefix}_min` / `_max`, years from 0; a minimum above the maximum is refused, naming it. */
function range(read: Reading, prefix: string): [number | undefined, number | undefined] {
  const min = read.number(`${prefix}_min`, { min: 0 });
  const max = read.number(`${prefix}_max`, { min: 0 });
  if (min !== undefined && max !== undefined && min > max) read.bad(`${prefix}_min`);
  return [min, max];
}

/**
 * `{prefix}_geopoint` within `{prefix}_distance` km (above 0; 50 when the point comes alone).
 * A distance without its point is refused, naming the distance.
 */
function place(read: Reading, prefix: string): Place | undefined {
  const point = read.point(`${prefix}_geopoint`);
  const km = read.number(`${prefix}_distance`, { above: 0 });
  if (read.sent(`${prefix}_distance`) && !read.sent(`${prefix}_geopoint`))
    read.bad(`${prefix}_distance`);
  return point === undefined ? undefined : { point, km: km ?? 50 };
}

/**
 * `created_at_min` / `_max` (ISO 8601), and the older `timestamp_start` / `_end` (Unix seconds
 * or ISO 8601): with both, the tighter bound holds. A start after the end is refused, naming
 * `created_at_min`, or the timestamp that leaves no time.
 */
function createdBounds(read: Reading, filters: ScanFilters): void {
  const min = read.time('created_at_min');
  const max = read.time('created_at_max');
  if (min !== undefined && max !== undefined && min > max) read.bad('created_at_min');
  const start = read.seconds('timestamp_start');
  const end = read.seconds('timestamp_end');
  const low = start === undefined ? min : Math.max(start, min ?? start);
  const high = end === undefined ? max : Math.min(end, max ?? end);
  const stamped = start !== undefined || end !== undefined;
  if (stamped && low !== undefined && high !== undefined && low > high)
    read.bad(start !== undefined ? 'timestamp_start' : 'timestamp_end');
  filters.createdMin = low;
  filters.createdMax = high;
}

/** The filters sent, and only those: an absent filter is no field at all. */
function withoutUndefined(filters: ScanFilters): ScanFilters {
  return Object.fromEntries(
    Object.entries(filters).filter(([, value]) => value !== undefined),
  ) as ScanFilters;
}

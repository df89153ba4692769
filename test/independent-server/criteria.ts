import type { Defects } from './defects.ts';
import type { Filter, Point, Reader } from './params.ts';

export type Side = 'profiles' | 'jobs';
export type Near = Point & { km: number };
export type Stage = 'new' | 'yes' | 'later' | 'no';

/** What a searching (or scoring) request keeps, once its parameters are read. */
export type Criteria = {
  keywords: string[];
  skills: Filter[];
  languages: Filter[];
  tagGroups: Filter[][];
  tagsExcluded: Filter[];
  near: Near | undefined;
  createdMin: number | undefined;
  createdMax: number | undefined;
  experienceMin: number | undefined;
  experienceMax: number | undefined;
  stage: Stage | undefined;
  name: string | undefined;
  email: string | undefined;
  summaryKeywords: string[];
  experienceKeywords: string[];
  educationKeywords: string[];
  interests: Filter[];
  educationMin: number | undefined;
  educationMax: number | undefined;
  experienceNear: Near | undefined;
  educationNear: Near | undefined;
};

export const SORTS = [
  'created_at',
  'updated_at',
  'searching',
  'location',
  'scoring',
  'location_experience',
  'location_education',
  'date',
  'date_reception',
  'date_creation',
  'score_semantic',
  'score_predictive',
] as const;

const OLD_SORTS = {
  date: 'created_at',
  date_reception: 'created_at',
  date_creation: 'created_at',
  score_semantic: 'searching',
  score_predictive: 'scoring',
} as const;

export type SortBy = Exclude<(typeof SORTS)[number], keyof typeof OLD_SORTS>;

export type Paging = { sortBy: SortBy; order: 'asc' | 'desc'; page: number; limit: number };

/** A point and its radius: 50 km when the point comes alone, a 400 when the radius does. */
const nearOf = (r: Reader, point: string, distance: string, loose: boolean): Near | undefined => {
  const at = r.point(point);
  const km = r.number(distance, 0, Number.POSITIVE_INFINITY, true);
  if (km !== undefined && !r.has(point) && !loose)
    r.fail(distance, `${distance} needs ${point}: send the point too, or drop the distance`);
  return at === undefined ? undefined : { ...at, km: km ?? 50 };
};

const range = (r: Reader, low: string, high: string) => {
  const min = r.number(low, 0);
  const max = r.number(high, 0);
  if (min !== undefined && max !== undefined && min > max)
    r.fail(low, `${low} (${min}) is above ${high} (${max}); send a minimum at most the maximum`);
  return [min, max] as const;
};

/** The creation bounds from created_at_min/max and their older forms, the tighter winning. */
const createdRange = (r: Reader, defects: Defects) => {
  const min = r.instant('created_at_min');
  const max = r.instant('created_at_max');
  const start = r.timestamp('timestamp_start');
  const end = r.timestamp('timestamp_end');
  if (
    min !== undefined &&
    max !== undefined &&
    min > max &&
    !defects.has('created-range-unchecked')
  )
    r.fail(
      'created_at_min',
      'created_at_min is after created_at_max; send a range that is not empty',
    );
  const checkTimes = !defects.has('timestamp-range-unchecked');
  const firstEnd = Math.min(end ?? Number.POSITIVE_INFINITY, max ?? Number.POSITIVE_INFINITY);
  if (checkTimes && start !== undefined && start > firstEnd)
    r.fail(
      'timestamp_start',
      'timestamp_start is after the end of the range (timestamp_end or created_at_max)',
    );
  if (checkTimes && min !== undefined && end !== undefined && min > end)
    r.fail(
      'created_at_min',
      'created_at_min is after timestamp_end; send a range that is not empty',
    );
  const lows = [min, start].filter((v) => v !== undefined);
  const highs = [max, end].filter((v) => v !== undefined);
  return [
    lows.length > 0 ? Math.max(...lows) : undefined,
    highs.length > 0 ? Math.min(...highs) : undefined,
  ] as const;
};

/**
 * Reads every searching filter. The profile-only ones are read and checked on jobs too (both
 * sides' POST bodies document them, so a job search refuses what a profile search refuses);
 * only profiles are filtered by them.
 */
export const readCriteria = (r: Reader, defects: Defects): Criteria => {
  const skills = r.filters('skills') ?? [];
  const languages = r.filters('languages') ?? [];
  const included = r.tagGroups('tags_included') ?? [];
  const excluded = (r.tagGroups('tags_excluded') ?? []).flat();
  const tags = (r.filters('tags') ?? []).map((tag) => [tag]);
  const near = nearOf(
    r,
    'location_geopoint',
    'location_distance',
    defects.has('distance-without-point-accepted'),
  );
  const [createdMin, createdMax] = createdRange(r, defects);
  const [experienceMin, experienceMax] = range(
    r,
    'experiences_duration_min',
    'experiences_duration_max',
  );
  const stage = r.choice('stage', ['new', 'yes', 'later', 'no'] as const);
  const name = r.text('name');
  const email = r.text('email');
  const summaryKeywords = r.keywords('summary_keywords') ?? [];
  const [educationMin, educationMax] = range(
    r,
    'educations_duration_min',
    'educations_duration_max',
  );
  return {
    keywords: r.keywords('text_keywords') ?? [],
    skills: defects.has('skills-ignored') ? [] : skills,
    languages: defects.has('languages-ignored') ? [] : languages,
    tagGroups: defects.has('tags-ignored') ? [] : [...included, ...tags],
    tagsExcluded: defects.has('tags-ignored') ? [] : excluded,
    near: defects.has('geo-ignored') ? undefined : near,
    createdMin,
    createdMax,
    experienceMin,
    experienceMax,
    stage: defects.has('stage-ignored') ? undefined : stage,
    name,
    email,
    summaryKeywords,
    experienceKeywords: r.keywords('experience_keywords') ?? [],
    educationKeywords: r.keywords('education_keywords') ?? [],
    interests: r.filters('interests') ?? [],
    educationMin,
    educationMax,
    experienceNear: nearOf(
      r,
      'experience_location_geopoint',
      'experience_location_distance',
      false,
    ),
    educationNear: nearOf(r, 'education_location_geopoint', 'education_location_distance', false),
  };
};

/** Paging and order; `defaults` are what this endpoint assumes when a value is not sent. */
export const readPaging = (r: Reader, defaults: Paging, defects: Defects): Paging => {
  const asked = r.choice('sort_by', SORTS);
  const old = asked !== undefined && asked in OLD_SORTS;
  if (old && defects.has('old-sort-names-refused'))
    r.fail(
      'sort_by',
      `sort_by ${asked} is not supported; use created_at, updated_at, searching or scoring`,
    );
  const sortBy = old ? OLD_SORTS[asked as keyof typeof OLD_SORTS] : (asked as SortBy | undefined);
  return {
    sortBy: sortBy ?? defaults.sortBy,
    order: r.choice('order_by', ['desc', 'asc'] as const) ?? defaults.order,
    page: r.integer('page', 1, Number.MAX_SAFE_INTEGER) ?? defaults.page,
    limit: r.integer('limit', 1, 100) ?? defaults.limit,
  };
};

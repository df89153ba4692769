import type { Kind } from '../store/kinds.ts';
import type { GeoPoint, ItemFilter } from './params.ts';

// What a parsed request is: the queries the operations take, their orders and bounds.

/**
 * The orders. `location_experience` / `location_education`: closeness of a profile's nearest
 * experience / education to the searched point (a job's own location, for jobs).
 */
export const SEARCH_SORTS = [
  'created_at',
  'updated_at',
  'searching',
  'location',
  'location_experience',
  'location_education',
] as const;
export const SCORING_SORTS = [...SEARCH_SORTS, 'scoring'] as const;
export type SortBy = (typeof SCORING_SORTS)[number];

/** A label's stage: where a recruiter put a profile for a job; `new` is no label at all. */
export const STAGES = ['new', 'yes', 'later', 'no'] as const;
export type Stage = (typeof STAGES)[number];
export type OrderBy = 'desc' | 'asc';

/**
 * The scoring algorithm of a request that names none: the SDKs' scoring calls send no
 * `algorithm_key` (some send the older `agent_key`, which is read in its place).
 */
export const DEFAULT_SCORING_ALGORITHM = 'default';

export const MAX_LIMIT = 100;
export const MAX_BATCH = 100;
export const DEFAULT_DISTANCE_KM = 50;

export type Filters = {
  keywords?: string[];
  skills?: ItemFilter[];
  languages?: ItemFilter[];
  tagsIncluded?: ItemFilter[][];
  tagsExcluded?: ItemFilter[][];
  near?: { point: GeoPoint; km: number };
  createdMin?: number;
  createdMax?: number;
  yearsMin?: number;
  yearsMax?: number;
  /** Lowercased; kept when the name (a profile's `info.full_name`, a job's `name`) contains it. */
  name?: string;
  /** Lowercased; kept when a profile's `info.email` equals it, ignoring case. */
  email?: string;
  /** Lowercased; each must appear in the summary (`info.summary`, a job's `summary`). */
  summaryKeywords?: string[];
  /** Profiles, lowercased: each must appear in the experiences (title, company, description). */
  experienceKeywords?: string[];
  /** Profiles, lowercased: each must appear in the educations (title, school, description). */
  educationKeywords?: string[];
  /** Profiles: every interest named must be there (its value too, when given). */
  interests?: ItemFilter[];
  /** Profiles: bounds on `educations_duration`, in years. */
  educationYearsMin?: number;
  educationYearsMax?: number;
  /** Profiles: some experience located within `km` of `point`. */
  experienceNear?: { point: GeoPoint; km: number };
  /** Profiles: some education located within `km` of `point`. */
  educationNear?: { point: GeoPoint; km: number };
  /**
   * The stage of the labels profiles carry for jobs. With `against` (scoring: the one object of
   * the other kind), only the label between each item and that object counts; without it
   * (searching), any label of the item does. `new` keeps the items without such a label. The
   * scoring operation sets `against` once it has found its target.
   */
  stage?: { stage: Stage; against?: { containerKey: string; key: string } };
};

export type SearchQuery = {
  kind: Kind;
  containerKeys: string[];
  page: number;
  limit: number;
  sortBy: SortBy;
  orderBy: OrderBy;
  filters: Filters;
  /** What `location`, `location_experience` and `location_education` measure from. */
  sortPoint?: GeoPoint;
};

/** One object named by its container and its key or reference. */
export type ObjectRef = { containerKey: string; key?: string; reference?: string };

export type ScoreQuery = SearchQuery & {
  algorithmKey: string;
  /** The one object of the other kind every item is scored against. */
  against: ObjectRef;
  useAlgorithm: boolean;
  threshold?: number;
};

export type GradeQuery = {
  kind: Kind;
  algorithmKey: string;
  against: ObjectRef;
  /** Batch mode: the items in request order. */
  batch?: ObjectRef[];
  /** Single mode (deprecated): one item. */
  single?: ObjectRef;
  returnFull: boolean;
};

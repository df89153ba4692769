import { PARAMETER_DEFAULTS } from '../generated/defaults.ts';
import { type Kind, NAMES, otherKind } from '../store/kinds.ts';
import { cappedItems, cappedKeywords } from './list-caps.ts';
import { type GeoPoint, ParamReader, type RawParams } from './params.ts';
import {
  DEFAULT_SCORING_ALGORITHM,
  type Filters,
  type GradeQuery,
  MAX_BATCH,
  MAX_LIMIT,
  type ObjectRef,
  SCORING_SORTS,
  type ScoreQuery,
  SEARCH_SORTS,
  type SearchQuery,
  type SortBy,
} from './queries.ts';
import type { Result } from './result.ts';
import { readPlace, readRange, readSdkFilters } from './sdk-filters.ts';
import { readSortBy } from './sort-names.ts';

export * from './queries.ts';

export function parseSearch(kind: Kind, raw: RawParams): Result<SearchQuery> {
  const read = new ParamReader(raw);
  return read.finish(readSearch(read, kind, SEARCH_SORTS));
}

export function parseScoring(kind: Kind, raw: RawParams): Result<ScoreQuery> {
  const read = new ParamReader(raw);
  // `agent_key` and `use_agent` are the older names, still sent by the SDKs; the new ones win.
  const algorithmKey = read.has('algorithm_key')
    ? read.string('algorithm_key')
    : (read.string('agent_key') ?? DEFAULT_SCORING_ALGORITHM);
  const against = readObjectRef(read, otherKind(kind), true);
  const search = readSearch(read, kind, SCORING_SORTS);
  const switchName =
    read.has('use_algorithm') || !read.has('use_agent') ? 'use_algorithm' : 'use_agent';
  const useAlgorithm = read.boolean(switchName, true);
  const threshold = read.number('score_threshold', { min: 0, max: 1 });
  if (!useAlgorithm && search.sortBy === 'scoring') {
    read.error(
      'sort_by',
      `sort_by=scoring needs scores: drop ${switchName}=0 or sort by another field`,
    );
  }
  if (!useAlgorithm && threshold !== undefined) {
    read.error(
      'score_threshold',
      `score_threshold needs scores: drop ${switchName}=0 or drop score_threshold`,
    );
  }
  // Added to the search's own object, not spread into a new one: under load V8 promoted every
  // spread copy out of the young generation (~0.9 KB a request, 33 MB of old space per 40,000
  // scorings until the next full collection; none with the copy avoided).
  const query: ScoreQuery = Object.assign(search, {
    algorithmKey: algorithmKey ?? '',
    against: against ?? { containerKey: '' },
    useAlgorithm,
  });
  if (threshold !== undefined) query.threshold = threshold;
  return read.finish(query);
}

export function parseGrading(kind: Kind, raw: RawParams): Result<GradeQuery> {
  const read = new ParamReader(raw);
  const names = NAMES[kind];
  const algorithmKey = read.string('algorithm_key', {
    required: true,
    hint: 'send the key of the grading algorithm',
  });
  const against = readObjectRef(read, otherKind(kind), true);
  const ids = read.idList(names.ids, [names.containerKey, names.key], MAX_BATCH);
  const singleNamed =
    read.has(names.containerKey) || read.has(names.key) || read.has(names.reference);
  const returnFull = read.boolean(names.returnFull, false);
  const query: GradeQuery = {
    kind,
    algorithmKey: algorithmKey ?? '',
    against: against ?? { containerKey: '' },
    returnFull,
  };
  if (read.has(names.ids) && singleNamed) {
    read.error(
      names.ids,
      `send either ${names.ids} (batch) or ${names.containerKey} with ${names.key} or ${names.reference} (single), not both`,
    );
  } else if (read.has(names.ids)) {
    if (ids !== undefined) query.batch = ids.map(([containerKey, key]) => ({ containerKey, key }));
  } else if (singleNamed) {
    const single = readObjectRef(read, kind, true);
    if (single !== undefined) query.single = single;
  } else {
    read.error(
      names.ids,
      `${names.ids} is required: send ${names.ids}=[{"${names.containerKey}":"…","${names.key}":"…"}], or ${names.containerKey} with ${names.key} for a single ${kind}`,
    );
  }
  return read.finish(query);
}

function readSearch(read: ParamReader, kind: Kind, sorts: readonly SortBy[]): SearchQuery {
  const names = NAMES[kind];
  const containerKeys =
    read.keyList(names.containerKeys, names.container, { required: true }) ?? [];
  const page = read.integer('page', { min: 1, fallback: PARAMETER_DEFAULTS.page });
  const limit = read.integer('limit', {
    min: 1,
    max: MAX_LIMIT,
    fallback: PARAMETER_DEFAULTS.limit,
  });
  const sortBy = readSortBy(read, sorts);
  const orderBy = read.oneOf('order_by', ['desc', 'asc'] as const, PARAMETER_DEFAULTS.order_by);
  const filters = readFilters(read, kind);
  const query: SearchQuery = { kind, containerKeys, page, limit, sortBy, orderBy, filters };
  const sortPoint = pointToSortBy(sortBy, filters);
  if (sortPoint !== undefined) query.sortPoint = sortPoint;
  // A `location*` order with no point to measure from (the Python SDK lets one through) is the
  // operation's default order; a point sent but malformed has already been named as an error.
  else if (isLocationSort(sortBy)) query.sortBy = DEFAULT_SORT;
  return query;
}

const DEFAULT_SORT: SortBy = PARAMETER_DEFAULTS.sort_by;

function isLocationSort(sortBy: SortBy): boolean {
  return (
    sortBy === 'location' || sortBy === 'location_experience' || sortBy === 'location_education'
  );
}

/** Where `location*` orders measure from: their own point, else `location_geopoint`'s. */
function pointToSortBy(sortBy: SortBy, filters: Filters): GeoPoint | undefined {
  if (!isLocationSort(sortBy)) return undefined;
  return (
    (sortBy === 'location_experience' ? filters.experienceNear?.point : undefined) ??
    (sortBy === 'location_education' ? filters.educationNear?.point : undefined) ??
    filters.near?.point
  );
}

function readFilters(read: ParamReader, kind: Kind): Filters {
  const filters: Filters = {};
  const keywords = cappedKeywords(read, 'text_keywords', read.keywords('text_keywords'));
  if (keywords !== undefined) filters.keywords = keywords;
  const skills = cappedItems(read, 'skills', read.itemFilters('skills'));
  if (skills !== undefined && skills.length > 0) filters.skills = skills;
  const languages = cappedItems(read, 'languages', read.itemFilters('languages'));
  if (languages !== undefined && languages.length > 0) filters.languages = languages;
  const included = cappedItems(read, 'tags_included', read.tagGroups('tags_included'));
  if (included !== undefined && included.length > 0) filters.tagsIncluded = included;
  const excluded = cappedItems(read, 'tags_excluded', read.tagGroups('tags_excluded'));
  if (excluded !== undefined && excluded.length > 0) filters.tagsExcluded = excluded;

  const near = readPlace(read, 'location');
  if (near !== undefined) filters.near = near;

  const createdMin = read.dateTime('created_at_min');
  const createdMax = read.dateTime('created_at_max');
  if (createdMin !== undefined) filters.createdMin = createdMin;
  if (createdMax !== undefined) filters.createdMax = createdMax;
  if (createdMin !== undefined && createdMax !== undefined && createdMin > createdMax) {
    read.error('created_at_min', 'created_at_min is after created_at_max: swap them');
  }
  const [yearsMin, yearsMax] = readRange(read, 'experiences_duration', 'years');
  if (yearsMin !== undefined) filters.yearsMin = yearsMin;
  if (yearsMax !== undefined) filters.yearsMax = yearsMax;
  readSdkFilters(read, kind, filters);
  return filters;
}

/** A container key and one of key/reference, e.g. board_key + job_key | job_reference. */
function readObjectRef(read: ParamReader, kind: Kind, required: boolean): ObjectRef | undefined {
  const names = NAMES[kind];
  const containerKey = read.key(names.containerKey, names.container, { required });
  const key = read.key(names.key, kind);
  const reference = read.string(names.reference);
  if (!read.has(names.key) && !read.has(names.reference)) {
    read.error(
      names.key,
      `${names.key} or ${names.reference} is required: send the key or the reference of the ${kind}`,
    );
    return undefined;
  }
  if (containerKey === undefined || (key === undefined && reference === undefined))
    return undefined;
  const ref: ObjectRef = { containerKey };
  if (key !== undefined) ref.key = key;
  else if (reference !== undefined) ref.reference = reference;
  return ref;
}

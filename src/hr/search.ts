import {
  CHORD_A_ERROR,
  cosLatitude,
  distanceKm,
  distanceOfA,
  distanceWithCosines,
} from '../engine/geo.ts';
import { Scratch } from '../engine/int-lists.ts';
import { mapIds } from '../engine/map-ids.ts';
import { kthSmallest, pageByKeys, pageByRank } from '../engine/page.ts';
import type { Collection } from '../store/store.ts';
import type { Meta } from '../store/types.ts';
import { nearestKm } from './extra-filters.ts';
import type { Found } from './find-docs.ts';
import type { GeoPoint } from './params.ts';
import { relevanceOf } from './relevance.ts';
import type { SearchQuery, SortBy } from './requests.ts';

/**
 * The page of found docs, sorted by the chosen field, where larger means newer, more relevant,
 * nearer or better scored, so `desc` puts the best first. Ties break on the key, ascending,
 * whatever the order, so pages of the same query never overlap. `scores` are the found docs'
 * scores, position for position.
 */
export function sortedPage(
  collection: Collection,
  found: Found,
  query: Pick<SearchQuery, 'sortBy' | 'orderBy' | 'filters' | 'page' | 'limit' | 'sortPoint'>,
  scores?: Float64Array,
): number[] {
  const { orders } = collection;
  const start = (query.page - 1) * query.limit;
  const desc = query.orderBy === 'desc';
  if (query.sortBy === 'created_at') {
    return pageByRank(found.ids, desc ? orders.createdDesc : orders.createdAsc, start, query.limit);
  }
  if (query.sortBy === 'updated_at') {
    return pageByRank(found.ids, desc ? orders.updatedDesc : orders.updatedAsc, start, query.limit);
  }
  const near = query.filters.near;
  if (query.sortBy === 'location' && near !== undefined) {
    return pageByNearness(collection, found, near.point, desc, start, query.limit);
  }
  const values = sortValues(collection, found, query.sortBy, query, scores);
  const ids = found.ids;
  const keyRank = orders.byKey.rank;
  // Larger values first for `desc`: their negation, smallest first; ties by key.
  const keys = PAGE_KEYS.take(ids.length);
  const ranks = PAGE_RANKS.take(ids.length);
  for (let k = 0; k < ids.length; k++) {
    keys[k] = desc ? -(values[k] as number) : (values[k] as number);
    ranks[k] = keyRank[ids[k] as number] as number;
  }
  const positions = pageByKeys(keys, ranks, start, query.limit);
  return positions.map((p) => ids[p] as number);
}

function sortValues(
  collection: Collection,
  found: Found,
  sortBy: Exclude<SortBy, 'created_at' | 'updated_at'>,
  query: Pick<SearchQuery, 'filters' | 'sortPoint'>,
  scores: Float64Array | undefined,
): Float64Array {
  const { ids } = found;
  switch (sortBy) {
    case 'searching':
      return relevanceOf(collection, ids, query.filters.keywords);
    case 'location':
      // No point searched (`pageByNearness` pages the rest): every doc ties, ordered by key.
      return new Float64Array(ids.length).fill(Number.NEGATIVE_INFINITY);
    case 'scoring':
      return scores ?? new Float64Array(ids.length);
    case 'location_experience':
    case 'location_education':
      return nearness(collection, ids, sortBy, query.sortPoint);
  }
}

/** Relative slack for rounding in `asin` when a doc's distance is bounded by its `a`. */
const ASIN_SLACK = 1e-12;

/**
 * The page by distance from `point` (`nearestFirst`, else farthest first; ties by key), the
 * distances being `distanceWithCosines`' as a scan computes them, for the docs the page can hold
 * only: those whose nearness (within `CHORD_A_ERROR` of their `a`) is within twice that of the
 * page's last doc by nearness. Should a doc left out still be able to reach the page's last
 * exact distance, every found doc's distance is computed. For a location search of 30 among ~200
 * docs, ~40 distances instead of ~200 (each ~23 ns of sin, asin and √).
 */
function pageByNearness(
  collection: Collection,
  found: Found,
  point: GeoPoint,
  nearestFirst: boolean,
  start: number,
  limit: number,
): number[] {
  const { ids, nearness } = found;
  const count = ids.length;
  const wanted = Math.min(count, start + limit);
  if (start >= wanted) return [];
  // Smallest first: nearness for the nearest first, its negation for the farthest.
  const sign = nearestFirst ? 1 : -1;
  // Every doc a candidate (an infinite bound): nothing is left out to check. Every doc is on the
  // page or before it: each one's distance is needed.
  let bound = Number.POSITIVE_INFINITY;
  if (count > wanted) {
    const keys = PAGE_KEYS.take(count);
    for (let k = 0; k < count; k++) keys[k] = sign * (nearness[k] as number);
    bound = kthSmallest(keys, wanted - 1) + 2 * CHORD_A_ERROR;
  }
  return (
    pageOfCandidates(collection, found, point, sign, bound, start, limit) ??
    (pageOfCandidates(
      collection,
      found,
      point,
      sign,
      Number.POSITIVE_INFINITY,
      start,
      limit,
    ) as number[])
  );
}

/**
 * The page among the found docs whose signed nearness is at most `bound`, by exact distance; or
 * undefined when a doc beyond `bound` might still tie or beat the page's last distance.
 */
function pageOfCandidates(
  collection: Collection,
  found: Found,
  point: GeoPoint,
  sign: number,
  bound: number,
  start: number,
  limit: number,
): number[] | undefined {
  const { ids, nearness } = found;
  const { lat, lng, cosLat } = collection.columns;
  const keyRank = collection.orders.byKey.rank;
  const positions = CANDIDATES.take(ids.length);
  let kept = 0;
  for (let k = 0; k < ids.length; k++) {
    if (sign * (nearness[k] as number) <= bound) positions[kept++] = k;
  }
  const keys = NEAR_KEYS.take(kept);
  const ranks = NEAR_RANKS.take(kept);
  const pointCos = cosLatitude(point.lat);
  for (let c = 0; c < kept; c++) {
    const i = ids[positions[c] as number] as number;
    const distance = distanceWithCosines(
      point.lat,
      point.lng,
      pointCos,
      lat[i] as number,
      lng[i] as number,
      cosLat[i] as number,
    );
    keys[c] = sign * distance;
    ranks[c] = keyRank[i] as number;
  }
  const page = pageByKeys(keys, ranks, start, limit);
  if (kept < ids.length) {
    // A doc left out has sign·a > bound − CHORD_A_ERROR: its distance lies beyond the one of
    // that `a`, which must lie strictly beyond the page's last.
    const lastDistance = sign * (keys[page[page.length - 1] as number] as number);
    const edgeA = sign * (bound - CHORD_A_ERROR);
    const clear =
      sign > 0
        ? distanceOfA(edgeA) * (1 - ASIN_SLACK) > lastDistance
        : edgeA < 0 || distanceOfA(edgeA) * (1 + ASIN_SLACK) < lastDistance;
    if (!clear) return undefined;
  }
  return page.map((c) => ids[positions[c] as number] as number);
}

const CANDIDATES = new Scratch((length) => new Int32Array(length));
const NEAR_KEYS = new Scratch((length) => new Float64Array(length));
const NEAR_RANKS = new Scratch((length) => new Int32Array(length));
/** What a page by value is sorted on: keys, and the docs' ranks by key for ties. */
const PAGE_KEYS = new Scratch((length) => new Float64Array(length));
const PAGE_RANKS = new Scratch((length) => new Int32Array(length));

/**
 * Nearer is larger: minus the distance from `point` to a profile's nearest experience or
 * education (a job's own location); -Infinity for a doc with no place.
 */
function nearness(
  collection: Collection,
  ids: Int32Array,
  sortBy: 'location_experience' | 'location_education',
  point: GeoPoint | undefined,
): Float64Array {
  if (point === undefined) return new Float64Array(ids.length).fill(Number.NEGATIVE_INFINITY);
  if (collection.kind === 'job') {
    const { lat, lng } = collection.columns;
    return mapIds(ids, (i) => {
      const d = distanceKm(point.lat, point.lng, lat[i] as number, lng[i] as number);
      return Number.isNaN(d) ? Number.NEGATIVE_INFINITY : -d;
    });
  }
  const { extras } = collection;
  const places =
    sortBy === 'location_experience' ? extras.experiencePlaces : extras.educationPlaces;
  return mapIds(ids, (i) => -nearestKm(places, i, point));
}

/**
 * Paging of a list. `maxPage` is at least 1 and `page` at most `maxPage`: the Python SDK's
 * pagination model divides by `maxPage` and asserts `page <= maxPage`, and the public record of
 * the service says nothing of a page past the last. Such a page is answered empty, as the last
 * page's number (a page too large for JSON to carry exactly is never echoed).
 */
export function metaOf(total: number, page: number, limit: number, count: number): Meta {
  const maxPage = Math.max(1, Math.ceil(total / limit));
  return { page: Math.min(page, maxPage), maxPage, count, total };
}

import {
  CHORD_A_ERROR,
  chordA,
  cosLatitude,
  distanceKm,
  distanceOfA,
  distanceWithCosines,
  EARTH_RADIUS_KM,
  haversineA,
  haversineBounds,
  writeUnitVector,
} from '../engine/geo.ts';
import type { GeoCandidates } from '../engine/geo-grid.ts';
import { mapIds } from '../engine/map-ids.ts';
import { nearestKm } from './extra-filters.ts';
import { indexedFilters } from './filters.ts';

const RADIANS = Math.PI / 180;

import { FloatBuffer, IntBuffer, lowerBound, Scratch } from '../engine/int-lists.ts';

type Test = (index: number) => boolean;

import { kthSmallest, pageByKeys, pageByRank } from '../engine/page.ts';
import { NAMES } from './kinds.ts';
import type { GeoPoint } from './params.ts';
import { relevanceOf } from './relevance.ts';
import type { SearchQuery, SortBy } from './requests.ts';
import { fail, ok, type Result } from './result.ts';
import type { Collection } from './store.ts';
import type { Meta } from './types.ts';
import { overBudget } from './work-budget.ts';

/**
 * The docs that pass every filter, in no particular order, with how near each is to the searched
 * point when there is one (else `nearness` is empty): haversine's `a`, within `CHORD_A_ERROR` of
 * what `haversineA` gives (the chord of most docs; exact for the rest), growing with the
 * distance. Enough to rank the docs but for near-ties: `sortedPage` computes the exact distance
 * of the docs a page may hold. Views of lists `findDocs` fills again on its next call: an
 * operation reads them before it searches again, and copies what it keeps (a new typed array for
 * each search cost ~0.7 µs, its memory being outside the JavaScript heap).
 */
export type Found = { ids: Int32Array; nearness: Float64Array };

const NOTHING: Found = { ids: new Int32Array(0), nearness: new Float64Array(0) };

/**
 * The docs of the named containers that pass every filter. Filters with an index (keywords,
 * skills, languages, included tags, distance) give candidate lists; the shortest one is walked
 * and every other filter is tested on its docs only.
 */
export function findDocs(
  collection: Collection,
  query: SearchQuery,
  extra?: (index: number) => boolean,
): Result<Found> {
  const unknown = query.containerKeys.filter((k) => !collection.containers.has(k));
  if (unknown.length > 0) return fail([unknownContainer(collection, unknown)]);
  const { filters } = query;
  const { near } = filters;
  const geo = near === undefined ? undefined : collection.geo.candidates(near.point, near.km);
  const refused = overBudget(collection, filters, geo?.size ?? collection.docs.length);
  if (refused !== undefined) return fail(refused);
  const { required, unsure, excluded } = indexedFilters(collection, filters);
  if (required.some((set) => set.size === 0)) return ok(NOTHING);
  required.sort((a, b) => a.size - b.size);
  const shortest = required[0];
  const walkGeo = geo !== undefined && (shortest === undefined || geo.size <= shortest.size);
  // The cells' runs, restricted to the docs of the shortest set: both filters at once.
  const positions =
    geo !== undefined && shortest !== undefined ? collection.geo.positionsOf(shortest) : undefined;
  const tests = (walkGeo && positions === undefined ? required : required.slice(1)).map((set) =>
    set.tester(),
  );
  const exclusions = excluded.map((set) => set.tester());

  const { columns } = collection;
  const wanted = new Uint8Array(columns.containerIds.size);
  for (const key of query.containerKeys) {
    const id = columns.containerIds.find(key);
    if (id >= 0) wanted[id] = 1;
  }
  const { container, created, years, lat, lng, cosLat, unit, text } = columns;
  const pointLat = near?.point.lat ?? 0;
  const pointLng = near?.point.lng ?? 0;
  const pointCos = cosLatitude(pointLat);
  // No doc lies nearer than its latitude difference: far rows are dropped without trigonometry
  // (with slack, so that the exact distance alone decides near the radius).
  const latSlack =
    near === undefined ? 0 : (near.km * (1 + 1e-9) + 1e-6) / (EARTH_RADIUS_KM * RADIANS);
  const bounds = haversineBounds(near?.km ?? 0);
  // A chord this far inside or outside the bounds settles a doc with no trigonometry.
  const chordInside = bounds.inside - CHORD_A_ERROR;
  const chordOutside = bounds.outside + CHORD_A_ERROR;
  if (near !== undefined) writeUnitVector(pointLat, pointLng, POINT_UNIT, 0);
  const px = POINT_UNIT[0] as number;
  const py = POINT_UNIT[1] as number;
  const pz = POINT_UNIT[2] as number;
  const { createdMin, createdMax, yearsMin, yearsMax } = query.filters;
  // Lists kept between searches (they run one at a time), emptied here and returned as views.
  const found = FOUND;
  const nearness = NEARNESS;
  found.clear();
  nearness.clear();
  // A walk of the geo grid reads the coordinates and containers it copied in its own order, in
  // sequence (`at` counts along it); any other walk reads the columns at the doc (`at` = `i`).
  const byCell = (walkGeo || positions !== undefined) && geo !== undefined;
  const at = byCell ? geo.placed : { lat, lng, cosLat, unit, container };
  // The places walked (`j`), in order: the grid's runs, the shortest set's docs, or every doc
  // (undefined). One loop over them, not a closure called from a loop per kind of walk: made
  // per search and handed to esbuild's `__name` (tsx keeps function names), the closure and what
  // it captured lived on the heap, and searching took ~6% more CPU run from the sources.
  let walk: Int32Array | undefined;
  if (byCell) walk = cellWalk(geo, positions);
  else if (shortest !== undefined) walk = shortest.ids;
  const steps = walk === undefined ? collection.docs.length : walk.length;
  const placedDocs = byCell ? geo.docs : undefined;
  docs: for (let step = 0; step < steps; step++) {
    const j = walk === undefined ? step : (walk[step] as number);
    const i = placedDocs === undefined ? j : (placedDocs[j] as number);
    if (wanted[at.container[j] as number] !== 1) continue;
    // Indexed loops: this runs thousands of times a query, and for-of may allocate an iterator.
    for (let t = 0; t < tests.length; t++) if (!(tests[t] as Test)(i)) continue docs;
    for (let t = 0; t < exclusions.length; t++) if ((exclusions[t] as Test)(i)) continue docs;
    // NaN (none given) fails every comparison, as a missing value always did.
    if (createdMin !== undefined && !((created[i] as number) >= createdMin)) continue;
    if (createdMax !== undefined && !((created[i] as number) <= createdMax)) continue;
    if (yearsMin !== undefined && !((years[i] as number) >= yearsMin)) continue;
    if (yearsMax !== undefined && !((years[i] as number) <= yearsMax)) continue;
    let a = 0;
    if (near !== undefined) {
      const docLat = at.lat[j] as number;
      // (Only between real latitudes: haversine on coordinates off the globe bounds nothing.)
      const real = Math.abs(docLat) <= 90;
      if (real && Math.abs(docLat - pointLat) > latSlack) continue;
      // The chord settles all but the docs near the edge (NaN, off the globe, settles none).
      a = chordA(px, py, pz, at.unit, 3 * j);
      if (a > chordOutside) continue;
      if (!(a < chordInside)) {
        const docLng = at.lng[j] as number;
        const docCos = at.cosLat[j] as number;
        a = haversineA(pointLat, pointLng, pointCos, docLat, docLng, docCos);
        if (real && a > bounds.outside) continue;
        // The distance itself only where the edge is too close to call.
        if (!real || !(a < bounds.inside)) {
          // The `a` just made: the same number `distanceWithCosines` would make again.
          if (!(distanceOfA(a) <= near.km)) continue;
        }
      }
    }
    for (let k = 0; k < unsure.length; k++) {
      if (!(text[i] as string).includes(unsure[k] as string)) continue docs;
    }
    // The older filters, on what is left: they read strings built on first use.
    if (extra !== undefined && !extra(i)) continue;
    found.push(i);
    if (near !== undefined) nearness.push(a);
  }
  return ok({ ids: found.view(), nearness: near === undefined ? NO_NEARNESS : nearness.view() });
}

const FOUND = new IntBuffer(1024);
const NEARNESS = new FloatBuffer(1024);
const NO_NEARNESS = new Float64Array(0);
/** The searched point's unit vector (one search at a time). */
const POINT_UNIT = new Float64Array(3);
/** The grid places a walk of the cells visits, kept between searches (one at a time). */
const CELL_WALK = new IntBuffer(1024);

/**
 * The places of the grid's runs around the searched point, in order; with `positions` (the
 * places of the shortest indexed set's docs, sorted), only those. A view of `CELL_WALK`.
 */
function cellWalk(geo: GeoCandidates, positions: Int32Array | undefined): Int32Array {
  const walk = CELL_WALK;
  walk.clear();
  const { ranges } = geo;
  for (let r = 0; r < ranges.length; r += 2) {
    const from = ranges[r] as number;
    const to = ranges[r + 1] as number;
    if (positions === undefined) {
      for (let j = from; j < to; j++) walk.push(j);
      continue;
    }
    for (let k = lowerBound(positions, from); k < positions.length; k++) {
      const j = positions[k] as number;
      if (j >= to) break;
      walk.push(j);
    }
  }
  return walk.view();
}

function unknownContainer(collection: Collection, unknown: string[]) {
  const names = NAMES[collection.kind];
  const known = [...collection.containers.keys()];
  return {
    param: names.containerKeys,
    message: `Unable to find object: ${names.container} ${unknown.join(', ')}. Known ${names.container}s: ${known.join(', ')}`,
  };
}

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

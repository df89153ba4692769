import { nearestKm } from './extra-filters.ts';
import { extrasOf } from './extras.ts';
import { indexedFilters } from './filters.ts';
import {
  cosLatitude,
  distanceKm,
  distanceOfA,
  EARTH_RADIUS_KM,
  haversineA,
  haversineBounds,
} from './geo.ts';
import { mapIds } from './map-ids.ts';

const RADIANS = Math.PI / 180;

import { FloatBuffer, IntBuffer, lowerBound, Scratch } from './int-lists.ts';

type Test = (index: number) => boolean;

import { NAMES } from './kinds.ts';
import { pageByKeys, pageByRank } from './page.ts';
import type { GeoPoint } from './params.ts';
import type { SearchQuery, SortBy } from './requests.ts';
import { fail, ok, type Result } from './result.ts';
import type { Collection } from './store.ts';
import type { Meta } from './types.ts';

/**
 * The docs that pass every filter, in no particular order, with their distance to the searched
 * point when there is one (else `distances` is empty). Views of lists `findDocs` fills again on
 * its next call: an operation reads them before it searches again, and copies what it keeps (a
 * new typed array for each search cost ~0.7 µs, its memory being outside the JavaScript heap).
 */
export type Found = { ids: Int32Array; distances: Float64Array };

const NOTHING: Found = { ids: new Int32Array(0), distances: new Float64Array(0) };

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
  const { required, unsure, excluded } = indexedFilters(collection, query.filters);
  if (required.some((set) => set.size === 0)) return ok(NOTHING);
  const { near } = query.filters;
  const geo = near === undefined ? undefined : collection.geo.candidates(near.point, near.km);
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
  const { container, created, years, lat, lng, cosLat, text } = columns;
  const pointLat = near?.point.lat ?? 0;
  const pointLng = near?.point.lng ?? 0;
  const pointCos = cosLatitude(pointLat);
  // No doc lies nearer than its latitude difference: far rows are dropped without trigonometry
  // (with slack, so that the exact distance alone decides near the radius).
  const latSlack =
    near === undefined ? 0 : (near.km * (1 + 1e-9) + 1e-6) / (EARTH_RADIUS_KM * RADIANS);
  const bounds = haversineBounds(near?.km ?? 0);
  const needDistance = query.sortBy === 'location';
  const { createdMin, createdMax, yearsMin, yearsMax } = query.filters;
  // Lists kept between searches (they run one at a time), emptied here and returned as views.
  const found = FOUND;
  const distances = DISTANCES;
  found.clear();
  distances.clear();
  // A walk of the geo grid reads the coordinates and containers it copied in its own order, in
  // sequence (`at` counts along it); any other walk reads the columns at the doc (`at` = `i`).
  const byCell = (walkGeo || positions !== undefined) && geo !== undefined;
  const at = byCell ? geo.placed : { lat, lng, cosLat, container };
  const visit = (i: number, j: number): void => {
    if (wanted[at.container[j] as number] !== 1) return;
    // Indexed loops: this runs thousands of times a query, and for-of may allocate an iterator.
    for (let t = 0; t < tests.length; t++) if (!(tests[t] as Test)(i)) return;
    for (let t = 0; t < exclusions.length; t++) if ((exclusions[t] as Test)(i)) return;
    // NaN (none given) fails every comparison, as a missing value always did.
    if (createdMin !== undefined && !((created[i] as number) >= createdMin)) return;
    if (createdMax !== undefined && !((created[i] as number) <= createdMax)) return;
    if (yearsMin !== undefined && !((years[i] as number) >= yearsMin)) return;
    if (yearsMax !== undefined && !((years[i] as number) <= yearsMax)) return;
    let distance = 0;
    if (near !== undefined) {
      const docLat = at.lat[j] as number;
      // (Only between real latitudes: haversine on coordinates off the globe bounds nothing.)
      const real = Math.abs(docLat) <= 90;
      if (real && Math.abs(docLat - pointLat) > latSlack) return;
      const docLng = at.lng[j] as number;
      const docCos = at.cosLat[j] as number;
      const a = haversineA(pointLat, pointLng, pointCos, docLat, docLng, docCos);
      if (real && a > bounds.outside) return;
      // The distance itself only where it ranks the docs, or where the edge is too close to call.
      if (needDistance || !real || !(a < bounds.inside)) {
        // The `a` just made: the same number `distanceWithCosines` would make again.
        distance = distanceOfA(a);
        if (!(distance <= near.km)) return;
      }
    }
    for (let k = 0; k < unsure.length; k++) {
      if (!(text[i] as string).includes(unsure[k] as string)) return;
    }
    // The older filters, on what is left: they read strings built on first use.
    if (extra !== undefined && !extra(i)) return;
    found.push(i);
    if (near !== undefined) distances.push(distance);
  };

  if (byCell && positions !== undefined) {
    const { docs, ranges } = geo;
    for (let r = 0; r < ranges.length; r += 2) {
      const to = ranges[r + 1] as number;
      for (let k = lowerBound(positions, ranges[r] as number); k < positions.length; k++) {
        const j = positions[k] as number;
        if (j >= to) break;
        visit(docs[j] as number, j);
      }
    }
  } else if (byCell) {
    const { docs, ranges } = geo;
    for (let r = 0; r < ranges.length; r += 2) {
      const to = ranges[r + 1] as number;
      for (let j = ranges[r] as number; j < to; j++) visit(docs[j] as number, j);
    }
  } else if (shortest !== undefined) {
    const ids = shortest.ids;
    for (let j = 0; j < ids.length; j++) visit(ids[j] as number, ids[j] as number);
  } else {
    for (let i = 0; i < collection.docs.length; i++) visit(i, i);
  }
  return ok({ ids: found.view(), distances: near === undefined ? NO_DISTANCES : distances.view() });
}

const FOUND = new IntBuffer(1024);
const DISTANCES = new FloatBuffer(1024);
const NO_DISTANCES = new Float64Array(0);

function unknownContainer(collection: Collection, unknown: string[]) {
  const names = NAMES[collection.kind];
  const known = [...collection.containers.keys()];
  return {
    param: names.containerKeys,
    message: `Unable to find object: ${names.container} ${unknown.join(', ')}. Known ${names.container}s: ${known.join(', ')}`,
  };
}

/** How often the keywords occur in the text: the `searching` relevance. */
export function relevance(text: string, keywords: string[] | undefined): number {
  if (!keywords) return 0;
  let hits = 0;
  for (const keyword of keywords) {
    const needle = keyword.toLowerCase();
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length))
      hits++;
  }
  return hits;
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
  const { ids, distances } = found;
  switch (sortBy) {
    case 'searching': {
      const text = collection.columns.text;
      return mapIds(ids, (i) => relevance(text[i] as string, query.filters.keywords));
    }
    case 'location':
      // Found by distance, so every doc has one; nearer is larger.
      return distances.length === ids.length
        ? negated(distances)
        : new Float64Array(ids.length).fill(Number.NEGATIVE_INFINITY);
    case 'scoring':
      return scores ?? new Float64Array(ids.length);
    case 'location_experience':
    case 'location_education':
      return nearness(collection, ids, sortBy, query.sortPoint);
  }
}

/**
 * Minus each value, in a plain loop (`map` with a callback cost more than the page itself), into
 * values kept from page to page: they only order the page being made.
 */
function negated(values: Float64Array): Float64Array {
  const out = NEGATED.take(values.length);
  for (let k = 0; k < values.length; k++) out[k] = -(values[k] as number);
  return out;
}

const NEGATED = new Scratch((length) => new Float64Array(length));
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
  const extras = extrasOf(collection);
  const places =
    sortBy === 'location_experience' ? extras.experiencePlaces : extras.educationPlaces;
  return mapIds(ids, (i) => -nearestKm(places[i] as Float64Array, point));
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

import {
  CHORD_A_ERROR,
  chordA,
  cosLatitude,
  distanceOfA,
  EARTH_RADIUS_KM,
  haversineA,
  haversineBounds,
  writeUnitVector,
} from '../engine/geo.ts';
import type { GeoCandidates } from '../engine/geo-grid.ts';
import { FloatBuffer, IntBuffer, lowerBound } from '../engine/int-lists.ts';
import { NAMES } from '../store/kinds.ts';
import type { Collection } from '../store/store.ts';
import { indexedFilters } from './filters.ts';
import type { SearchQuery } from './requests.ts';
import { fail, ok, type Result } from './result.ts';
import { overBudget } from './work-budget.ts';

const RADIANS = Math.PI / 180;

type Test = (index: number) => boolean;

/**
 * The docs that pass every filter, in no particular order, with how near each is to the searched
 * point when there is one (else `nearness` is empty): haversine's `a`, within `CHORD_A_ERROR` of
 * what `haversineA` gives (the chord of most docs; exact for the rest), growing with the
 * distance. Enough to rank the docs but for near-ties: `sortedPage` computes the exact distance
 * of the docs a page may hold. Views of lists `findDocs` fills again on its next call: an
 * operation reads them before it searches again, and copies what it keeps.
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
  const plan = planWalk(collection, query);
  if (!plan.ok) return plan;
  if (plan.value === undefined) return ok(NOTHING);
  return ok(walkDocs(collection, query, plan.value, extra));
}

/** What `walkDocs` walks and tests: the places in order, and the filters left to test. */
type Walk = {
  /** Places walked (`j`), in order; undefined: every doc. */
  walk: Int32Array | undefined;
  /** The grid's candidates when the walk follows its cells (then `j` is a place of the grid). */
  byCell: GeoCandidates | undefined;
  tests: Test[];
  exclusions: Test[];
  unsure: string[];
};

/**
 * The cheapest walk: the grid's cells around the point or the shortest indexed set, whichever
 * holds fewer docs (both at once when there are both). Undefined when an indexed filter matches
 * no doc; a refusal when the work would pass the budget.
 */
function planWalk(collection: Collection, query: SearchQuery): Result<Walk | undefined> {
  const { filters } = query;
  const { near } = filters;
  const geo = near === undefined ? undefined : collection.geo.candidates(near.point, near.km);
  const refused = overBudget(collection, filters, geo?.size ?? collection.docs.length);
  if (refused !== undefined) return fail(refused);
  const { required, unsure, excluded } = indexedFilters(collection, filters);
  if (required.some((set) => set.size === 0)) return ok(undefined);
  required.sort((a, b) => a.size - b.size);
  const shortest = required[0];
  const walkGeo = geo !== undefined && (shortest === undefined || geo.size <= shortest.size);
  // The cells' runs, restricted to the docs of the shortest set: both filters at once.
  const positions =
    geo !== undefined && shortest !== undefined ? collection.geo.positionsOf(shortest) : undefined;
  const tests = (walkGeo && positions === undefined ? required : required.slice(1)).map((set) =>
    set.tester(),
  );
  const byCell = (walkGeo || positions !== undefined) && geo !== undefined ? geo : undefined;
  let walk: Int32Array | undefined;
  if (byCell !== undefined) walk = cellWalk(byCell, positions);
  else if (shortest !== undefined) walk = shortest.ids;
  return ok({ walk, byCell, tests, exclusions: excluded.map((set) => set.tester()), unsure });
}

/** The searched circle's numbers that settle most docs without trigonometry. */
function circleOf(near: SearchQuery['filters']['near']) {
  const lat = near?.point.lat ?? 0;
  const lng = near?.point.lng ?? 0;
  const bounds = haversineBounds(near?.km ?? 0);
  if (near !== undefined) writeUnitVector(lat, lng, POINT_UNIT, 0);
  return {
    lat,
    lng,
    cos: cosLatitude(lat),
    // No doc lies nearer than its latitude difference (with slack, so that the exact distance
    // alone decides near the radius).
    latSlack: near === undefined ? 0 : (near.km * (1 + 1e-9) + 1e-6) / (EARTH_RADIUS_KM * RADIANS),
    bounds,
    // A chord this far inside or outside the bounds settles a doc.
    chordInside: bounds.inside - CHORD_A_ERROR,
    chordOutside: bounds.outside + CHORD_A_ERROR,
  };
}

/**
 * One loop over the planned places, every test inline: this runs for each candidate of each
 * search, so it is one function with indexed loops, not closures per kind of walk (long for that
 * reason).
 */
function walkDocs(
  collection: Collection,
  query: SearchQuery,
  plan: Walk,
  extra: ((index: number) => boolean) | undefined,
): Found {
  const { walk, byCell, tests, exclusions, unsure } = plan;
  const { columns } = collection;
  const wanted = new Uint8Array(columns.containerIds.size);
  for (const key of query.containerKeys) {
    const id = columns.containerIds.find(key);
    if (id >= 0) wanted[id] = 1;
  }
  const { created, years, text } = columns;
  const { near, createdMin, createdMax, yearsMin, yearsMax } = query.filters;
  const circle = circleOf(near);
  const { lat: pointLat, lng: pointLng, cos: pointCos, latSlack, bounds } = circle;
  const { chordInside, chordOutside } = circle;
  const px = POINT_UNIT[0] as number;
  const py = POINT_UNIT[1] as number;
  const pz = POINT_UNIT[2] as number;
  const found = FOUND;
  const nearness = NEARNESS;
  found.clear();
  nearness.clear();
  // A walk of the grid reads the coordinates and containers it copied in its own order (`j`
  // counts along it); any other walk reads the columns at the doc (`j` = `i`).
  const at = byCell?.placed ?? columns;
  const placedDocs = byCell?.docs;
  const steps = walk === undefined ? collection.docs.length : walk.length;
  docs: for (let step = 0; step < steps; step++) {
    const j = walk === undefined ? step : (walk[step] as number);
    const i = placedDocs === undefined ? j : (placedDocs[j] as number);
    if (wanted[at.container[j] as number] !== 1) continue;
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
      // Only between real latitudes: haversine on coordinates off the globe bounds nothing.
      const real = Math.abs(docLat) <= 90;
      if (real && Math.abs(docLat - pointLat) > latSlack) continue;
      // The chord settles all but the docs near the edge (NaN, off the globe, settles none).
      a = chordA(px, py, pz, at.unit, 3 * j);
      if (a > chordOutside) continue;
      if (!(a < chordInside)) {
        a = haversineA(
          pointLat,
          pointLng,
          pointCos,
          docLat,
          at.lng[j] as number,
          at.cosLat[j] as number,
        );
        if (real && a > bounds.outside) continue;
        // The distance itself only where the edge is too close to call.
        if ((!real || !(a < bounds.inside)) && !(distanceOfA(a) <= near.km)) continue;
      }
    }
    for (let k = 0; k < unsure.length; k++)
      if (!(text[i] as string).includes(unsure[k] as string)) continue docs;
    // The SDKs' older filters, on what is left.
    if (extra !== undefined && !extra(i)) continue;
    found.push(i);
    if (near !== undefined) nearness.push(a);
  }
  return { ids: found.view(), nearness: near === undefined ? NO_NEARNESS : nearness.view() };
}

// Lists kept between searches (they run one at a time), emptied by each and returned as views.
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

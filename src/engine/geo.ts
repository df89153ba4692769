export const EARTH_RADIUS_KM = 6371.0088;

const RAD = Math.PI / 180;

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  return distanceWithCosines(lat1, lng1, Math.cos(lat1 * RAD), lat2, lng2, Math.cos(lat2 * RAD));
}

/**
 * `distanceKm` with each latitude's cosine given (a store keeps them, a query computes its
 * own once): the same operations in the same order, so the very same number.
 */
export function distanceWithCosines(
  lat1: number,
  lng1: number,
  cos1: number,
  lat2: number,
  lng2: number,
  cos2: number,
): number {
  return distanceOfA(haversineA(lat1, lng1, cos1, lat2, lng2, cos2));
}

/** The distance in kilometres of haversine's `a`: a caller that has `a` need not make it again. */
export function distanceOfA(a: number): number {
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Haversine's `a` for two points: the distance is `2R·asin(min(1, √a))`, growing with `a`, so
 * comparing `a` with the `a` of a radius tells inside from outside without `asin` or `√`.
 */
export function haversineA(
  lat1: number,
  lng1: number,
  cos1: number,
  lat2: number,
  lng2: number,
  cos2: number,
): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  return Math.sin(dLat / 2) ** 2 + cos1 * cos2 * Math.sin(dLng / 2) ** 2;
}

/** `a` below which a point is surely within `km`, and above which it surely is not. */
export function haversineBounds(km: number): { inside: number; outside: number } {
  const a = Math.sin(Math.min(Math.PI / 2, km / (2 * EARTH_RADIUS_KM))) ** 2;
  // Rounding in either formula moves a result by far less than this: near the edge, the exact
  // distance decides, as it always did.
  return {
    inside: a * (1 - 1e-9) - 1e-15,
    outside: km >= Math.PI * EARTH_RADIUS_KM ? 2 : a * (1 + 1e-9) + 1e-15,
  };
}

/**
 * How far `chordA` may be from `haversineA` for the same two points, at most: both are
 * sin²(θ/2) of the angle θ between them, each off by a few units of 1e-16 (a is at most 1);
 * this leaves a margin of ~100 times.
 */
export const CHORD_A_ERROR = 1e-12;

/**
 * Writes the unit vector of a point (x, y, z) into `out` at `at`; NaN for a point off the globe's
 * range, which only the exact formula may judge.
 */
export function writeUnitVector(lat: number, lng: number, out: Float64Array, at: number): void {
  const onGlobe = Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
  const cos = Math.cos(lat * RAD);
  out[at] = onGlobe ? cos * Math.cos(lng * RAD) : Number.NaN;
  out[at + 1] = onGlobe ? cos * Math.sin(lng * RAD) : Number.NaN;
  out[at + 2] = onGlobe ? Math.sin(lat * RAD) : Number.NaN;
}

/**
 * Haversine's `a` from the two points' unit vectors: a quarter of the squared chord between them,
 * the same sin²(θ/2) with no trigonometry, within `CHORD_A_ERROR` of `haversineA`. Ranks and
 * bounds points cheaply; the exact number still comes from `haversineA`.
 */
export function chordA(x: number, y: number, z: number, unit: Float64Array, at: number): number {
  const dx = (unit[at] as number) - x;
  const dy = (unit[at + 1] as number) - y;
  const dz = (unit[at + 2] as number) - z;
  return (dx * dx + dy * dy + dz * dz) * 0.25;
}

/** The cosine of a latitude in degrees, as `distanceKm` computes it. */
export function cosLatitude(lat: number): number {
  return Math.cos(lat * RAD);
}

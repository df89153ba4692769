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

/** The cosine of a latitude in degrees, as `distanceKm` computes it. */
export function cosLatitude(lat: number): number {
  return Math.cos(lat * RAD);
}

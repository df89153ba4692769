import type { Fixtures } from '../../../mocks/build-fixtures.ts';

type Point = { lat: number | null; lng: number | null };

/**
 * The fixtures with a share of the profiles and jobs moved all over the globe (near the poles,
 * both sides of the antimeridian and of the prime meridian, a few without coordinates or outside
 * the valid range), where the fixtures themselves never go: the geo grid must find them there too.
 */
export function scatterLocations(fixtures: Fixtures, random: () => number, share = 0.3): Fixtures {
  const point = (): Point => {
    const roll = random();
    if (roll < 0.05) return { lat: null, lng: null };
    if (roll < 0.07) return { lat: 90 + random() * 5, lng: 180 + random() * 30 };
    if (roll < 0.3)
      return { lat: random() * 170 - 85, lng: (random() < 0.5 ? 179 : -179) + random() * 2 - 1 };
    if (roll < 0.45) return { lat: random() * 170 - 85, lng: random() * 2 - 1 };
    if (roll < 0.55)
      return { lat: (random() < 0.5 ? 1 : -1) * (88 + random() * 2), lng: random() * 360 - 180 };
    return { lat: random() * 180 - 90, lng: random() * 360 - 180 };
  };
  return {
    ...fixtures,
    profiles: fixtures.profiles.map((p) =>
      random() < share
        ? { ...p, info: { ...p.info, location: { ...p.info.location, ...point() } } }
        : p,
    ),
    jobs: fixtures.jobs.map((j) =>
      random() < share ? { ...j, location: { ...j.location, ...point() } } : j,
    ),
  };
}

import type { Fixtures } from '../../mocks/build-fixtures.ts';
import type { Job, Profile } from '../../src/store/types.ts';

type Item = Profile | Job;

/** What differs between the profile side and the job side, for table-driven tests. */
export type Side = {
  kind: 'profile' | 'job';
  plural: 'profiles' | 'jobs';
  containerKeys: 'source_keys' | 'board_keys';
  containerKey: 'source_key' | 'board_key';
  items: (f: Fixtures) => Item[];
  containers: (f: Fixtures) => string[];
  location: (item: Item) => { lat: number | null; lng: number | null };
  years: (item: Item) => number | null;
  /** Text a keyword search must find words in. */
  text: (item: Item) => string;
};

export const PROFILE_SIDE: Side = {
  kind: 'profile',
  plural: 'profiles',
  containerKeys: 'source_keys',
  containerKey: 'source_key',
  items: (f) => f.profiles,
  containers: (f) => f.sources.map((s) => s.key),
  location: (item) => (item as Profile).info.location,
  years: (item) => (item as Profile).experiences_duration ?? null,
  text: (item) => (item as Profile).text,
};

export const JOB_SIDE: Side = {
  kind: 'job',
  plural: 'jobs',
  containerKeys: 'board_keys',
  containerKey: 'board_key',
  items: (f) => f.jobs,
  containers: (f) => f.boards.map((b) => b.key),
  location: (item) => (item as Job).location,
  years: (item) =>
    (item as Job).ranges_float.find((r) => r.name === 'experience')?.value_min ?? null,
  text: (item) => (item as Job).name,
};

export const SIDES = [PROFILE_SIDE, JOB_SIDE];

export function containerOf(side: Side, item: Item): string {
  return side.kind === 'profile' ? (item as Profile).source_key : (item as Job).board_key;
}

export function distanceKm(
  a: { lat: number; lng: number },
  b: { lat: number; lng: number },
): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

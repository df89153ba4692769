import { type Extras, extrasOf, jobRef } from './extras.ts';
import { distanceKm } from './geo.ts';
import type { Kind } from './kinds.ts';
import type { ItemFilter } from './params.ts';
import type { Filters } from './requests.ts';
import type { Collection, Store } from './store.ts';

type Test = (i: number) => boolean;

/**
 * One test for the SDKs' older filters on docs of `kind`, or undefined when the query has none
 * (then nothing is built). Each filter narrows; the stage may read the other collection.
 */
export function extraTest(store: Store, kind: Kind, filters: Filters): Test | undefined {
  const tests: Test[] = [];
  const collection = store[kind];
  const { name, email, summaryKeywords, experienceKeywords, educationKeywords } = filters;
  if (name !== undefined)
    tests.push(
      (
        (n) => (i) =>
          n[i]?.includes(name) === true
      )(extrasOf(collection).names),
    );
  if (email !== undefined)
    tests.push(
      (
        (e) => (i) =>
          e[i] === email
      )(extrasOf(collection).emails),
    );
  if (summaryKeywords) tests.push(containsAll(extrasOf(collection).summaries, summaryKeywords));
  if (experienceKeywords)
    tests.push(containsAll(extrasOf(collection).experiences, experienceKeywords));
  if (educationKeywords)
    tests.push(containsAll(extrasOf(collection).educations, educationKeywords));
  const { interests, educationYearsMin: low, educationYearsMax: high } = filters;
  if (interests) tests.push(hasAll(extrasOf(collection).interests, interests));
  if (low !== undefined)
    tests.push(
      (
        (y) => (i) =>
          (y[i] as number) >= low
      )(extrasOf(collection).educationYears),
    );
  if (high !== undefined)
    tests.push(
      (
        (y) => (i) =>
          (y[i] as number) <= high
      )(extrasOf(collection).educationYears),
    );
  const { experienceNear, educationNear, stage } = filters;
  if (experienceNear)
    tests.push(placedWithin(extrasOf(collection).experiencePlaces, experienceNear));
  if (educationNear) tests.push(placedWithin(extrasOf(collection).educationPlaces, educationNear));
  if (stage) tests.push(stageTest(store, kind, stage));
  if (tests.length === 0) return undefined;
  return (i) => tests.every((test) => test(i));
}

/** Distance from `point` to the nearest of `coordinates` (`[lat, lng, …]`), Infinity for none. */
export function nearestKm(coordinates: Float64Array, point: { lat: number; lng: number }): number {
  let nearest = Number.POSITIVE_INFINITY;
  for (let k = 0; k < coordinates.length; k += 2) {
    const d = distanceKm(
      point.lat,
      point.lng,
      coordinates[k] as number,
      coordinates[k + 1] as number,
    );
    if (d < nearest) nearest = d;
  }
  return nearest;
}

function containsAll(texts: string[], keywords: string[]): Test {
  return (i) => {
    const text = texts[i] as string;
    return keywords.every((keyword) => text.includes(keyword));
  };
}

function hasAll(items: Map<string, string | null>[], wanted: ItemFilter[]): Test {
  const lowered = wanted.map((w) => ({
    name: w.name.toLowerCase(),
    value: w.value === null ? null : w.value.toLowerCase(),
  }));
  return (i) => {
    const own = items[i] as Map<string, string | null>;
    return lowered.every(
      (w) => own.has(w.name) && (w.value === null || own.get(w.name) === w.value),
    );
  };
}

function placedWithin(places: Float64Array[], near: NonNullable<Filters['experienceNear']>): Test {
  return (i) => nearestKm(places[i] as Float64Array, near.point) <= near.km;
}

/**
 * Profiles: the label for the scored job (scoring) or any label (searching). Jobs: the scored
 * profile's label for the job (scoring) or any profile's (searching). `new`: no such label.
 */
function stageTest(store: Store, kind: Kind, stage: NonNullable<Filters['stage']>): Test {
  const wanted = stage.stage;
  const labels = extrasOf(store.profile).labels;
  if (kind === 'profile') {
    const against = stage.against;
    if (against !== undefined) {
      const job = jobRef(against.containerKey, against.key);
      return (i) => (labels[i]?.find((l) => l.job === job)?.stage ?? 'new') === wanted;
    }
    return (i) =>
      wanted === 'new'
        ? labels[i]?.length === 0
        : (labels[i] ?? []).some((label) => label.stage === wanted);
  }
  const jobs = store.job;
  const refOf = (i: number) => jobRef(jobs.docs[i]?.containerKey ?? '', jobs.docs[i]?.key ?? '');
  const against = stage.against;
  if (against !== undefined) {
    const profile = store.profile.byKey.find(against.containerKey, against.key);
    const own = new Map<string, string>();
    // The first label for a job counts, should a profile carry two.
    for (const label of profile === undefined ? [] : (labels[profile.index] ?? []))
      if (!own.has(label.job)) own.set(label.job, label.stage);
    return (i) => (own.get(refOf(i)) ?? 'new') === wanted;
  }
  const given = stagesByJob(store.profile, labels);
  return (i) => {
    const stages = given.get(refOf(i));
    return wanted === 'new' ? stages === undefined : stages?.has(wanted) === true;
  };
}

const byJob = new WeakMap<Collection, Map<string, Set<string>>>();

/** Every stage profiles gave each job, by `boardKey/jobKey`. */
function stagesByJob(profiles: Collection, labels: Extras['labels']): Map<string, Set<string>> {
  let stages = byJob.get(profiles);
  if (stages === undefined) {
    stages = new Map();
    for (const list of labels) {
      for (const label of list) {
        const set = stages.get(label.job) ?? new Set<string>();
        set.add(label.stage);
        stages.set(label.job, set);
      }
    }
    byJob.set(profiles, stages);
  }
  return stages;
}

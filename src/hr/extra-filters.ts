import { distanceKm } from '../engine/geo.ts';
import { jobRef, type PairColumn, type PlaceColumn, type TextColumn } from '../store/extras.ts';
import type { Kind } from '../store/kinds.ts';
import type { Store } from '../store/store.ts';
import type { ItemFilter } from './params.ts';
import type { Filters } from './requests.ts';
import { stagesByJob } from './stages.ts';

type Test = (i: number) => boolean;

/**
 * One test for the SDKs' older filters on docs of `kind`, or undefined when the query has none.
 * Each filter narrows; the stage may read the other collection.
 */
export function extraTest(store: Store, kind: Kind, filters: Filters): Test | undefined {
  const tests: Test[] = [];
  const { extras } = store[kind];
  const { name, email, summaryKeywords, experienceKeywords, educationKeywords } = filters;
  if (name !== undefined) tests.push((i) => extras.names.at(i).includes(name));
  if (email !== undefined) tests.push((i) => extras.emails.at(i) === email);
  if (summaryKeywords) tests.push(containsAll(extras.summaries, summaryKeywords));
  if (experienceKeywords) tests.push(containsAll(extras.experiences, experienceKeywords));
  if (educationKeywords) tests.push(containsAll(extras.educations, educationKeywords));
  const { interests, educationYearsMin: low, educationYearsMax: high } = filters;
  if (interests) tests.push(hasAll(extras.interests, interests));
  const years = extras.educationYears;
  if (low !== undefined) tests.push((i) => (years[i] as number) >= low);
  if (high !== undefined) tests.push((i) => (years[i] as number) <= high);
  const { experienceNear, educationNear, stage } = filters;
  if (experienceNear) tests.push(placedWithin(extras.experiencePlaces, experienceNear));
  if (educationNear) tests.push(placedWithin(extras.educationPlaces, educationNear));
  if (stage) tests.push(stageTest(store, kind, stage));
  if (tests.length === 0) return undefined;
  return (i) => tests.every((test) => test(i));
}

/** Distance from `point` to the nearest place of doc i, Infinity for none. */
export function nearestKm(
  places: PlaceColumn,
  i: number,
  point: { lat: number; lng: number },
): number {
  return places.nearest(i, (lat, lng) => distanceKm(point.lat, point.lng, lat, lng));
}

function containsAll(texts: TextColumn, keywords: string[]): Test {
  return (i) => {
    const text = texts.at(i);
    return keywords.every((keyword) => text.includes(keyword));
  };
}

/** Every wanted item present; a wanted value must be the last value given under its name. */
function hasAll(items: PairColumn, wanted: ItemFilter[]): Test {
  const lowered = wanted.map((w) => ({
    name: w.name.toLowerCase(),
    value: w.value === null ? null : w.value.toLowerCase(),
  }));
  return (i) =>
    lowered.every((w) => {
      const own = items.last(i, w.name);
      return own !== undefined && (w.value === null || own === w.value);
    });
}

function placedWithin(places: PlaceColumn, near: NonNullable<Filters['experienceNear']>): Test {
  return (i) => nearestKm(places, i, near.point) <= near.km;
}

/**
 * Profiles: the label for the scored job (scoring) or any label (searching). Jobs: the scored
 * profile's label for the job (scoring) or any profile's (searching). `new`: no such label.
 */
function stageTest(store: Store, kind: Kind, stage: NonNullable<Filters['stage']>): Test {
  const wanted = stage.stage;
  const labels = store.profile.extras.labels;
  if (kind === 'profile') {
    const against = stage.against;
    if (against !== undefined) {
      const job = jobRef(against.containerKey, against.key);
      return (i) => (labels.first(i, job) ?? 'new') === wanted;
    }
    return (i) => (wanted === 'new' ? labels.count(i) === 0 : labels.hasValue(i, wanted));
  }
  const jobs = store.job;
  const refOf = (i: number) => jobRef(jobs.docs[i]?.containerKey ?? '', jobs.docs[i]?.key ?? '');
  const against = stage.against;
  if (against !== undefined) {
    const profile = store.profile.byKey.find(against.containerKey, against.key);
    const own = new Map<string, string>();
    // The first label for a job counts, should a profile carry two.
    for (const [job, given] of profile === undefined ? [] : labels.of(profile.index))
      if (!own.has(job)) own.set(job, given as string);
    return (i) => (own.get(refOf(i)) ?? 'new') === wanted;
  }
  const given = stagesByJob(store.profile);
  return (i) => {
    const stages = given.get(refOf(i));
    return wanted === 'new' ? stages === undefined : stages?.has(wanted) === true;
  };
}

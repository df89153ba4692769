import type { Job, Profile } from '../../../src/store/types.ts';
import { distanceKm } from '../../support/sides.ts';
import type { ScanFilters, Stage } from './read-params.ts';
import type { Named, Point } from './read-values.ts';
import type { Doc, Store } from './scan-store.ts';

/**
 * The SDKs' older filters, written plainly from the full objects, as the oracle for the
 * indexed store's lazily built extras. `against` is the one object scoring measures against.
 */
export function sdkFilterTests(
  store: Store,
  filters: ScanFilters,
  against: Doc | undefined,
): ((doc: Doc) => boolean)[] {
  const tests: ((doc: Doc) => boolean)[] = [];
  const { name, email, summaryKeywords, experienceKeywords, educationKeywords } = filters;
  if (name !== undefined)
    tests.push((doc) => nameOf(doc).toLowerCase().includes(name.toLowerCase()));
  if (email !== undefined)
    tests.push((doc) => (profile(doc)?.info.email ?? '').toLowerCase() === email.toLowerCase());
  if (summaryKeywords) tests.push((doc) => hasWords(summaryOf(doc), summaryKeywords));
  if (experienceKeywords) {
    tests.push((doc) =>
      hasWords(
        (profile(doc)?.experiences ?? [])
          .map((e) => [e.title, e.company, e.description].filter(Boolean).join(' '))
          .join('\n'),
        experienceKeywords,
      ),
    );
  }
  if (educationKeywords) {
    tests.push((doc) =>
      hasWords(
        (profile(doc)?.educations ?? [])
          .map((e) => [e.title, e.school, e.description].filter(Boolean).join(' '))
          .join('\n'),
        educationKeywords,
      ),
    );
  }
  if (filters.interests) {
    const wanted = filters.interests;
    tests.push((doc) => wanted.every((w) => hasInterest(profile(doc)?.interests ?? [], w)));
  }
  const { educationYearsMin: low, educationYearsMax: high } = filters;
  if (low !== undefined) tests.push((doc) => (profile(doc)?.educations_duration ?? -1) >= low);
  if (high !== undefined)
    tests.push((doc) => (profile(doc)?.educations_duration ?? Number.POSITIVE_INFINITY) <= high);
  const { experienceNear, educationNear } = filters;
  if (experienceNear) {
    tests.push(
      (doc) => nearest(profile(doc)?.experiences ?? [], experienceNear.point) <= experienceNear.km,
    );
  }
  if (educationNear) {
    tests.push(
      (doc) => nearest(profile(doc)?.educations ?? [], educationNear.point) <= educationNear.km,
    );
  }
  if (filters.stage) tests.push(stageTest(store, filters.stage, against));
  return tests;
}

/** Distance from `point` to the nearest located entry, Infinity for none. */
export function nearest(
  entries: { location?: { lat?: number | null; lng?: number | null } | null }[],
  point: Point,
): number {
  let best = Number.POSITIVE_INFINITY;
  for (const entry of entries) {
    const lat = entry.location?.lat;
    const lng = entry.location?.lng;
    if (lat == null || lng == null) continue;
    best = Math.min(best, distanceKm(point, { lat, lng }));
  }
  return best;
}

export function profile(doc: Doc): Profile | undefined {
  return doc.kind === 'profile' ? (doc.full as Profile) : undefined;
}

function nameOf(doc: Doc): string {
  return doc.kind === 'profile'
    ? ((doc.full as Profile).info.full_name ?? '')
    : (doc.full as Job).name;
}

function summaryOf(doc: Doc): string {
  return doc.kind === 'profile'
    ? ((doc.full as Profile).info.summary ?? '')
    : ((doc.full as Job).summary ?? '');
}

function hasWords(text: string, keywords: string[]): boolean {
  const lowered = text.toLowerCase();
  return keywords.every((k) => lowered.includes(k.toLowerCase()));
}

function hasInterest(interests: { name: string; value?: unknown }[], wanted: Named): boolean {
  const match = interests.filter((i) => i.name.toLowerCase() === wanted.name.toLowerCase()).at(-1);
  if (match === undefined) return false;
  if (wanted.value === null) return true;
  return match.value != null && String(match.value).toLowerCase() === wanted.value.toLowerCase();
}

/** A stage names where a profile stands for a job; `new` is no label. */
function stageTest(store: Store, wanted: Stage, against: Doc | undefined): (doc: Doc) => boolean {
  const stageFor = (p: Profile, job: { board_key: string; key: string }) =>
    (p.labels ?? []).find((l) => l.board_key === job.board_key && l.job_key === job.key)?.stage ??
    'new';
  return (doc) => {
    if (doc.kind === 'profile') {
      const p = doc.full as Profile;
      if (against !== undefined) return stageFor(p, against.full as Job) === wanted;
      const labels = p.labels ?? [];
      return wanted === 'new' ? labels.length === 0 : labels.some((l) => l.stage === wanted);
    }
    const job = doc.full as Job;
    if (against !== undefined) return stageFor(against.full as Profile, job) === wanted;
    const stages = store.profile.docs.flatMap((d) =>
      ((d.full as Profile).labels ?? [])
        .filter((l) => l.board_key === job.board_key && l.job_key === job.key)
        .map((l) => l.stage),
    );
    return wanted === 'new' ? stages.length === 0 : stages.includes(wanted);
  };
}

import type { Meta } from '../../../src/store/types.ts';
import { distanceKm } from '../../support/sides.ts';
import { type Kind, NAMES } from './names.ts';
import type { Read, ScanFilters, ScanSearch, SortBy } from './read-params.ts';
import type { Named } from './read-values.ts';
import { nearest, profile, sdkFilterTests } from './scan-sdk-filters.ts';
import type { Doc, Store } from './scan-store.ts';

/** The docs of the named containers that pass every filter, in storage order. */
export function filterDocs(
  store: Store,
  kind: Kind,
  query: ScanSearch,
  against?: Doc,
): Read<Doc[]> {
  const collection = store[kind];
  const unknown = query.containerKeys.filter((k) => !collection.containers.has(k));
  if (unknown.length > 0)
    return { ok: false, status: 400, params: [NAMES[collection.kind].containerKeys] };
  const wanted = new Set(query.containerKeys);
  const base = compileFilters(query.filters);
  const more = sdkFilterTests(store, query.filters, against);
  const test = (doc: Doc) => base(doc) && more.every((t) => t(doc));
  const docs = collection.docs.filter((doc) => wanted.has(doc.containerKey) && test(doc));
  return { ok: true, value: docs };
}

/** One predicate for all filters; each filter narrows, none widens. */
export function compileFilters(filters: ScanFilters): (doc: Doc) => boolean {
  const tests: ((doc: Doc) => boolean)[] = [];
  const { keywords, skills, languages, tagsIncluded, tagsExcluded, near } = filters;
  if (keywords) {
    const lowered = keywords.map((k) => k.toLowerCase());
    tests.push((doc) => lowered.every((k) => doc.text.includes(k)));
  }
  if (skills) tests.push((doc) => skills.every((s) => doc.skills.has(s.name.toLowerCase())));
  if (languages) tests.push((doc) => languages.every((l) => hasNamed(doc.languages, l)));
  if (tagsIncluded)
    tests.push((doc) => tagsIncluded.every((group) => group.some((t) => hasTag(doc, t))));
  if (tagsExcluded)
    tests.push((doc) => !tagsExcluded.some((group) => group.some((t) => hasTag(doc, t))));
  if (near) {
    const { point, km } = near;
    tests.push(
      (doc) =>
        doc.lat !== null &&
        doc.lng !== null &&
        distanceKm(point, { lat: doc.lat, lng: doc.lng }) <= km,
    );
  }
  const { createdMin, createdMax, yearsMin, yearsMax } = filters;
  if (createdMin !== undefined) tests.push((doc) => doc.created >= createdMin);
  if (createdMax !== undefined) tests.push((doc) => doc.created <= createdMax);
  if (yearsMin !== undefined) tests.push((doc) => doc.years !== null && doc.years >= yearsMin);
  if (yearsMax !== undefined) tests.push((doc) => doc.years !== null && doc.years <= yearsMax);
  return (doc) => tests.every((t) => t(doc));
}

function hasNamed(items: Map<string, string | null>, filter: Named): boolean {
  const name = filter.name.toLowerCase();
  if (!items.has(name)) return false;
  return filter.value === null || items.get(name) === filter.value.toLowerCase();
}

function hasTag(doc: Doc, filter: Named): boolean {
  const values = doc.tags.get(filter.name.toLowerCase());
  if (values === undefined) return false;
  return filter.value === null || values.has(filter.value.toLowerCase());
}

/**
 * The `searching` relevance: over the keywords, how often each occurs in the text, counted in the
 * text's words (runs of letters and digits) without overlap; a keyword of several words counts
 * its least frequent one, a keyword with no letter or digit nothing.
 */
export function relevance(doc: Doc, keywords: string[] | undefined): number {
  if (!keywords) return 0;
  const words = doc.text.match(WORDS) ?? [];
  let hits = 0;
  for (const keyword of keywords) {
    const runs = keyword.toLowerCase().match(WORDS);
    if (runs === null) continue;
    hits += Math.min(...runs.map((run) => words.reduce((n, word) => n + timesIn(word, run), 0)));
  }
  return hits;
}

const WORDS = /[\p{L}\p{N}]+/gu;

function timesIn(word: string, run: string): number {
  let times = 0;
  for (let at = word.indexOf(run); at !== -1; at = word.indexOf(run, at + run.length)) times++;
  return times;
}

/**
 * Sorts by the chosen field, where larger means newer, more relevant, nearer or better scored,
 * so `desc` puts the best first. Ties break on the key, ascending, whatever the order, so pages
 * of the same query never overlap.
 */
export function sortDocs(
  docs: Doc[],
  query: Pick<ScanSearch, 'sortBy' | 'orderBy' | 'filters' | 'sortPoint'>,
  scores?: Map<Doc, number>,
): Doc[] {
  const value = sortValue(query.sortBy, query, scores);
  const keyed = docs.map((doc) => ({ doc, value: value(doc) }));
  const direction = query.orderBy === 'desc' ? -1 : 1;
  keyed.sort(
    (a, b) =>
      direction * (a.value - b.value) ||
      (a.doc.key < b.doc.key ? -1 : a.doc.key > b.doc.key ? 1 : 0),
  );
  return keyed.map((k) => k.doc);
}

function sortValue(
  sortBy: SortBy,
  { filters, sortPoint }: Pick<ScanSearch, 'filters' | 'sortPoint'>,
  scores?: Map<Doc, number>,
): (doc: Doc) => number {
  switch (sortBy) {
    case 'created_at':
      return (doc) => doc.created;
    case 'updated_at':
      return (doc) => doc.updated;
    case 'searching':
      return (doc) => relevance(doc, filters.keywords);
    case 'location': {
      const point = filters.near?.point;
      return (doc) =>
        point === undefined || doc.lat === null || doc.lng === null
          ? Number.NEGATIVE_INFINITY
          : -distanceKm(point, { lat: doc.lat, lng: doc.lng });
    }
    case 'scoring':
      return (doc) => scores?.get(doc) ?? 0;
    case 'location_experience':
    case 'location_education':
      return (doc) => {
        const point = sortPoint;
        if (point === undefined) return Number.NEGATIVE_INFINITY;
        const p = profile(doc);
        if (p === undefined) {
          return doc.lat === null || doc.lng === null
            ? Number.NEGATIVE_INFINITY
            : -distanceKm(point, { lat: doc.lat, lng: doc.lng });
        }
        return -nearest(sortBy === 'location_experience' ? p.experiences : p.educations, point);
      };
  }
}

export type Page<T> = { items: T[]; meta: Meta };

export function pageOf<T>(items: T[], page: number, limit: number): Page<T> {
  const start = (page - 1) * limit;
  const slice = items.slice(start, start + limit);
  const maxPage = Math.max(1, Math.ceil(items.length / limit));
  return {
    items: slice,
    meta: {
      page: Math.min(page, maxPage),
      maxPage,
      count: slice.length,
      total: items.length,
    },
  };
}

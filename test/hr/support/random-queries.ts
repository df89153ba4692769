import type { Fixtures } from '../../../mocks/build-fixtures.ts';
import { seededRandom } from '../../../src/http/chaos.ts';
import type { Kind } from '../../../src/store/kinds.ts';
import type { Job, Profile } from '../../../src/store/types.ts';
import { sortSpelled } from './odd-params.ts';

/** The same seeded generator the mock's --fail-rate uses: the same seed draws the same queries. */
export const randomSource = seededRandom;

type Named = { name: string; value: string | null };
type Item = {
  text: string;
  /** The full object, for the SDKs' older filters. */
  full: Profile | Job;
  skills: Named[];
  languages: Named[];
  tags: Named[];
  created: string;
  lat: number | null;
  lng: number | null;
};

/** Keywords no text has, or that only a scan can answer (no letter or digit). */
const ODD_KEYWORDS = ['c++', 'node.js', '-', '.', 'ytho', 'PYTHON', 'Sql', 'e', '2021', 'zzqx'];
/** Points that make the grid work: poles, both sides of the antimeridian, the prime meridian. */
const ODD_POINTS = [
  { lat: 0, lng: 0 },
  { lat: 51.5, lng: -0.1 },
  { lat: 10, lng: 179.9 },
  { lat: -35, lng: -179.95 },
  { lat: 89.9, lng: 20 },
  { lat: -89.5, lng: -120 },
  { lat: 64, lng: 180 },
];
const RADII = [0.001, 0.5, 3, 25, 25, 100, 100, 100, 400, 400, 1500, 6000, 12000, 20100];

/**
 * Random searching and scoring parameters over real values of the fixtures: keywords from the
 * texts (words, pieces of words, phrases, odd case and punctuation), skills, languages and tags
 * the items have (or not), points and radii, date and year ranges, every sort and order, pages.
 */
export function randomParams(
  fixtures: Fixtures,
  kind: Kind,
  random: () => number,
  operation: 'searching' | 'scoring',
): Map<string, unknown> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const chance = (p: number) => random() < p;
  const items = itemsOf(fixtures, kind);
  // Most filters are drawn from one item, so that the query finds something more often than not.
  const anchor = pick(items);
  const item = () => (chance(0.75) ? anchor : pick(items));
  const params: Record<string, unknown> = {};
  const containers = (kind === 'profile' ? fixtures.sources : fixtures.boards).map((c) => c.key);
  params[kind === 'profile' ? 'source_keys' : 'board_keys'] = chance(0.7)
    ? containers
    : containers.filter(() => chance(0.5)).concat(pick(containers));

  if (chance(0.6)) {
    const text = item().text;
    params.text_keywords = Array.from({ length: chance(0.8) ? 1 : 2 }, () =>
      keyword(text, random, pick, chance),
    );
  }
  if (chance(0.2)) {
    params.skills = Array.from({ length: chance(0.7) ? 1 : 2 }, () =>
      chance(0.95)
        ? { name: cased(pick(item().skills)?.name ?? 'cobol', chance), value: null }
        : { name: 'No Such Skill', value: null },
    );
  }
  if (chance(0.2)) {
    params.languages = [
      chance(0.5)
        ? { name: cased(pick(item().languages)?.name ?? 'English', chance), value: null }
        : { ...(pick(item().languages) ?? { name: 'English', value: 'fluent' }) },
    ];
  }
  if (chance(0.25)) params.tags_included = tagFilter(item, pick, chance);
  if (chance(0.15)) params.tags_excluded = tagFilter(item, pick, chance);
  if (chance(0.5)) {
    const near = item();
    params.location_geopoint =
      chance(0.75) && near.lat !== null && near.lng !== null
        ? { lat: near.lat + random() * 0.2 - 0.1, lng: near.lng + random() * 0.2 - 0.1 }
        : chance(0.6)
          ? pick(ODD_POINTS)
          : { lat: random() * 180 - 90, lng: random() * 360 - 180 };
    if (chance(0.9)) params.location_distance = pick(RADII) * (0.5 + random());
  }
  if (chance(0.2)) {
    const a = Date.parse(item().created);
    const b = Date.parse(item().created);
    if (chance(0.7)) params.created_at_min = new Date(Math.min(a, b)).toISOString();
    if (chance(0.7)) params.created_at_max = new Date(Math.max(a, b)).toISOString();
  }
  if (chance(0.15)) {
    const low = Math.floor(random() * 10);
    if (chance(0.7)) params.experiences_duration_min = low;
    if (chance(0.7)) params.experiences_duration_max = low + random() * 8;
  }
  if (chance(0.55)) Object.assign(params, sdkParams(item().full, kind, random, pick, chance));
  const sorts = ['created_at', 'updated_at', 'searching', 'location'];
  if (operation === 'scoring') sorts.push('scoring', 'scoring');
  if (params.location_geopoint === undefined && chance(0.9)) sorts.splice(3, 1);
  if (chance(0.3)) sorts.push('location_experience', 'location_education');
  if (chance(0.9)) params.sort_by = sortSpelled(pick(sorts), { pick, chance });
  if (chance(0.7)) params.order_by = pick(['asc', 'desc']);
  if (chance(0.5)) params.page = 1 + Math.floor(random() * (chance(0.8) ? 3 : 40));
  if (chance(0.7)) params.limit = pick([1, 5, 10, 30, 100]);
  if (operation === 'scoring')
    Object.assign(params, scoringParams(fixtures, kind, pick, chance, random));
  return new Map(Object.entries(params));
}

/**
 * The older filters the SDKs send, drawn from one object so that they find it: part of its name
 * or email, words of its summary, experiences and educations, an interest, a stage of its
 * labels, bounds around its education years, places near its experiences and educations, and
 * Unix-time bounds around its creation.
 */
function sdkParams(
  full: Profile | Job,
  kind: Kind,
  random: () => number,
  pick: <T>(list: readonly T[]) => T,
  chance: (p: number) => boolean,
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const word = (text: string | null | undefined) =>
    pick((text ?? 'nothing').split(/\W+/).filter((w) => w.length > 2)) ?? 'nothing';
  const name = kind === 'profile' ? ((full as Profile).info.full_name ?? '') : (full as Job).name;
  if (chance(0.3)) {
    const at = Math.floor(random() * Math.max(1, name.length - 4));
    // Whether white space around `name` counts is not in the contract (the code trims it): a
    // question for the contract, so the name drawn has none until it is answered.
    params.name = chance(0.4)
      ? word(name)
      : chance(0.8)
        ? name.slice(at, at + 4).trim()
        : name.toUpperCase();
  }
  const summary = kind === 'profile' ? (full as Profile).info.summary : (full as Job).summary;
  if (chance(0.3)) params.summary_keywords = [word(summary)];
  if (chance(0.25)) params.stage = pick(['new', 'yes', 'later', 'no', 'new']);
  const created = Date.parse(full.created_at) / 1000;
  if (chance(0.15)) params.timestamp_start = Math.floor(created - random() * 3e7);
  if (chance(0.15)) params.timestamp_end = String(Math.ceil(created + random() * 3e7));
  if (kind === 'job') {
    if (chance(0.2)) params.email = 'ignored@example.com';
    return params;
  }
  const profile = full as Profile;
  if (chance(0.2)) params.email = chance(0.8) ? profile.info.email : 'nobody@example.com';
  const experiences = profile.experiences ?? [];
  const educations = profile.educations ?? [];
  if (chance(0.3)) params.experience_keywords = [word(pick(experiences)?.title)];
  if (chance(0.2)) params.education_keywords = [word(pick(educations)?.school)];
  const interest = pick(profile.interests ?? []);
  if (chance(0.2))
    params.interests = [{ name: interest?.name ?? 'Chess', value: chance(0.8) ? null : 'x' }];
  if (chance(0.15)) {
    const years = profile.educations_duration ?? 0;
    if (chance(0.7)) params.educations_duration_min = Math.max(0, years - random() * 2);
    if (chance(0.7)) params.educations_duration_max = years + random() * 2;
  }
  const places: [string, { location: Profile['info']['location'] }[]][] = [
    ['experience_location', experiences],
    ['education_location', educations],
  ];
  for (const [prefix, entries] of places) {
    if (!chance(0.25)) continue;
    const place = pick(entries)?.location;
    params[`${prefix}_geopoint`] =
      place?.lat != null && place.lng != null && chance(0.8)
        ? { lat: place.lat + random() * 0.2 - 0.1, lng: place.lng + random() * 0.2 - 0.1 }
        : { lat: random() * 180 - 90, lng: random() * 360 - 180 };
    if (chance(0.8)) params[`${prefix}_distance`] = pick([5, 50, 300, 2000]);
  }
  return params;
}

const itemCache = new WeakMap<Fixtures, Record<Kind, Item[]>>();

/** What queries are drawn from, read once per fixture set (not once per query). */
function itemsOf(fixtures: Fixtures, kind: Kind): Item[] {
  let items = itemCache.get(fixtures);
  if (items === undefined) {
    items = {
      profile: fixtures.profiles.map((p) => ({
        ...p,
        full: p,
        lat: p.info.location.lat,
        lng: p.info.location.lng,
        created: p.created_at,
      })),
      job: fixtures.jobs.map((j) => ({
        full: j,
        text: `${j.name} ${j.summary ?? ''} ${j.sections.map((s) => s.description).join(' ')}`,
        skills: j.skills,
        languages: j.languages,
        tags: j.tags,
        created: j.created_at,
        lat: j.location.lat,
        lng: j.location.lng,
      })),
    };
    itemCache.set(fixtures, items);
  }
  return items[kind];
}

function keyword(
  text: string,
  random: () => number,
  pick: <T>(list: readonly T[]) => T,
  chance: (p: number) => boolean,
): string {
  const words = text.split(/\s+/).filter(Boolean);
  if (chance(0.12)) return pick(ODD_KEYWORDS);
  const at = Math.floor(random() * words.length);
  const word = words[at] ?? 'python';
  if (chance(0.2)) return `${word} ${words[at + 1] ?? ''}`.trim();
  if (chance(0.15) && word.length > 3) return word.slice(1, -1);
  if (chance(0.1)) return word.toUpperCase();
  return word.replace(/[.,]$/, '');
}

function cased(name: string, chance: (p: number) => boolean): string {
  return chance(0.3) ? name.toUpperCase() : name;
}

function tagFilter(
  item: () => Item,
  pick: <T>(list: readonly T[]) => T,
  chance: (p: number) => boolean,
): unknown[] {
  const tag = (): Named => {
    const t = pick(item().tags) ?? { name: 'remote', value: 'yes' };
    return chance(0.3) ? { name: t.name, value: null } : { name: t.name, value: t.value };
  };
  if (chance(0.5)) return Array.from({ length: chance(0.7) ? 1 : 2 }, tag);
  return Array.from({ length: chance(0.6) ? 1 : 2 }, () =>
    Array.from({ length: chance(0.5) ? 1 : 3 }, tag),
  );
}

function scoringParams(
  fixtures: Fixtures,
  kind: Kind,
  pick: <T>(list: readonly T[]) => T,
  chance: (p: number) => boolean,
  random: () => number,
): Record<string, unknown> {
  const params: Record<string, unknown> = { algorithm_key: pick(['scorer', 'grader-x', 'ai']) };
  if (kind === 'profile') {
    const job = pick(fixtures.jobs);
    params.board_key = job.board_key;
    if (chance(0.8)) params.job_key = job.key;
    else params.job_reference = job.reference;
  } else {
    const profile = pick(fixtures.profiles);
    params.source_key = profile.source_key;
    if (chance(0.8)) params.profile_key = profile.key;
    else params.profile_reference = profile.reference;
  }
  if (chance(0.3)) params.score_threshold = Math.round(random() * 50) / 100;
  if (chance(0.1)) params.use_algorithm = 0;
  return params;
}

import { asArray, at } from '../json-shape.ts';

/**
 * How FILTERS probes each filter the contract documents on searching and scoring: what value to
 * take from an item of an unfiltered page, and, where the contract states the filter's meaning
 * exactly, whether an item satisfies it (undefined: the item lacks the field, so it is not judged).
 * A probe without `holds` is judged only by the item it came from being found (text may be
 * stemmed or ranked); `excludes` filters must not find it.
 */
export type Probe = {
  pick: (item: unknown, side: Side) => Record<string, unknown> | undefined;
  holds?: (item: unknown, sent: Record<string, unknown>) => boolean | undefined;
  excludes?: true;
};

export type Side = { list: 'profiles' | 'jobs'; scoring: boolean; jobKey?: string };

/** Parameters of searching and scoring that are not filters (paging, keys, options). */
export const NOT_FILTERS = new Set([
  'source_keys',
  'board_keys',
  'page',
  'limit',
  'sort_by',
  'order_by',
  'algorithm_key',
  'agent_key',
  'board_key',
  'job_key',
  'job_reference',
  'source_key',
  'profile_key',
  'profile_reference',
  'use_algorithm',
  'use_agent',
  'score_threshold',
  // Sent with their points, by the probes of the points.
  'location_distance',
  'experience_location_distance',
  'education_location_distance',
]);

const RADIUS_KM = 25;
const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);
const sameText = (a: unknown, b: unknown) => lower(a) === lower(b);

/** A word of letters only (any script), long enough to mean something. */
function wordOf(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const words = text.split(/[^\p{L}]+/u).filter((w) => w.length >= 4);
  return words.sort((a, b) => b.length - a.length)[0];
}

const named = (list: unknown): unknown[] => asArray(list) ?? [];

/** A list filter `[{name, value: null}]` on the first entry of a list of `{name, …}`. */
function byName(field: string): Probe {
  return {
    pick: (item) => {
      const name = at(
        named(at(item, field)).find((e) => typeof at(e, 'name') === 'string'),
        'name',
      );
      return name === undefined ? undefined : { [field]: [{ name, value: null }] };
    },
    holds: (item, sent) => {
      const list = asArray(at(item, field));
      if (list === undefined) return undefined;
      const wanted = (sent[field] as { name: string }[])[0]?.name;
      return list.some((e) => sameText(at(e, 'name'), wanted));
    },
  };
}

/** A tag filter on the item's first tag, name and value. */
function byTag(param: string, excludes = false): Probe {
  const carries = (item: unknown, tag: { name: string; value: unknown }) =>
    named(at(item, 'tags')).some(
      (t) =>
        sameText(at(t, 'name'), tag.name) &&
        (tag.value === null || sameText(at(t, 'value'), tag.value)),
    );
  return {
    pick: (item) => {
      const tag = named(at(item, 'tags')).find((t) => typeof at(t, 'name') === 'string');
      return tag === undefined
        ? undefined
        : { [param]: [{ name: at(tag, 'name'), value: at(tag, 'value') ?? null }] };
    },
    holds: (item, sent) => {
      if (!Array.isArray(at(item, 'tags'))) return undefined;
      // The tag `pick` sent: always one.
      const [tag] = sent[param] as [{ name: string; value: unknown }];
      return excludes ? !carries(item, tag) : carries(item, tag);
    },
    ...(excludes ? { excludes: true as const } : {}),
  };
}

/** Great-circle distance in km. */
export function km(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

const pointOf = (location: unknown) => {
  const lat = at(location, 'lat');
  const lng = at(location, 'lng');
  return typeof lat === 'number' && typeof lng === 'number' ? { lat, lng } : undefined;
};

/** A point filter at the item's location (`places` lists the item's located things). */
function near(point: string, distance: string, places: (item: unknown) => unknown[]): Probe {
  return {
    pick: (item) => {
      const at = places(item).map(pointOf).find(Boolean);
      return at === undefined ? undefined : { [point]: at, [distance]: RADIUS_KM };
    },
    holds: (item, sent) => {
      const located = places(item)
        .map(pointOf)
        .filter((p) => p !== undefined);
      if (located.length === 0) return undefined;
      // A kilometre of slack for the other side's idea of the Earth's radius.
      const centre = sent[point] as { lat: number; lng: number };
      return located.some((p) => km(p, centre) <= RADIUS_KM + 1);
    },
  };
}

/** How a bound reads an item's value and writes it as a parameter (and reads it back). */
type Scale = {
  read: (item: unknown) => number | undefined;
  write: (value: number) => unknown;
  unwrite: (sent: unknown) => number;
};

/** A bound on a number or an instant the item has, at the item's own value. */
function bound(param: string, scale: Scale, atLeast: boolean): Probe {
  return {
    pick: (item) => {
      const value = scale.read(item);
      return value === undefined ? undefined : { [param]: scale.write(value) };
    },
    holds: (item, sent) => {
      const value = scale.read(item);
      const limit = scale.unwrite(sent[param]);
      if (value === undefined || Number.isNaN(limit)) return undefined;
      return atLeast ? value >= limit : value <= limit;
    },
  };
}

const years = (field: string): Scale => ({
  read: (item) => {
    const value = at(item, field);
    return typeof value === 'number' ? value : undefined;
  },
  write: (value) => value,
  unwrite: Number,
});

const createdMs = (item: unknown) => {
  const ms = Date.parse(String(at(item, 'created_at')));
  return Number.isNaN(ms) ? undefined : ms;
};

const ISO: Scale = {
  read: createdMs,
  write: (ms) => new Date(ms).toISOString(),
  unwrite: (sent) => Date.parse(String(sent)),
};

/** Unix seconds, rounded outwards so the item's own instant stays inside. */
const seconds = (round: (n: number) => number): Scale => ({
  read: createdMs,
  write: (ms) => round(ms / 1000),
  unwrite: (sent) => Number(sent) * 1000,
});

/** Keyword filters judged by the item being found: a word of the text the contract names. */
function keyword(param: string, text: (item: unknown, side: Side) => unknown): Probe {
  return {
    pick: (item, side) => {
      const word = wordOf(text(item, side));
      return word === undefined ? undefined : { [param]: [word] };
    },
  };
}

const labelsFor = (item: unknown, side: Side) =>
  named(at(item, 'labels')).filter((l) => !side.scoring || at(l, 'job_key') === side.jobKey);

export const PROBES: Record<string, Probe> = {
  text_keywords: keyword('text_keywords', (item, side) =>
    side.list === 'profiles' ? at(item, 'info', 'full_name') : at(item, 'name'),
  ),
  summary_keywords: keyword('summary_keywords', (item, side) =>
    side.list === 'profiles' ? at(item, 'info', 'summary') : at(item, 'summary'),
  ),
  experience_keywords: keyword('experience_keywords', (item) =>
    at(named(at(item, 'experiences'))[0], 'title'),
  ),
  education_keywords: keyword('education_keywords', (item) =>
    at(named(at(item, 'educations'))[0], 'title'),
  ),
  skills: byName('skills'),
  languages: byName('languages'),
  interests: byName('interests'),
  tags_included: byTag('tags_included'),
  tags: byTag('tags'),
  tags_excluded: byTag('tags_excluded', true),
  location_geopoint: near('location_geopoint', 'location_distance', (item) => [
    at(item, 'info', 'location') ?? at(item, 'location'),
  ]),
  experience_location_geopoint: near(
    'experience_location_geopoint',
    'experience_location_distance',
    (item) => named(at(item, 'experiences')).map((e) => at(e, 'location')),
  ),
  education_location_geopoint: near(
    'education_location_geopoint',
    'education_location_distance',
    (item) => named(at(item, 'educations')).map((e) => at(e, 'location')),
  ),
  created_at_min: bound('created_at_min', ISO, true),
  created_at_max: bound('created_at_max', ISO, false),
  timestamp_start: bound('timestamp_start', seconds(Math.floor), true),
  timestamp_end: bound('timestamp_end', seconds(Math.ceil), false),
  experiences_duration_min: bound('experiences_duration_min', years('experiences_duration'), true),
  experiences_duration_max: bound('experiences_duration_max', years('experiences_duration'), false),
  educations_duration_min: bound('educations_duration_min', years('educations_duration'), true),
  educations_duration_max: bound('educations_duration_max', years('educations_duration'), false),
  name: {
    pick: (item, side) => {
      const word = wordOf(
        side.list === 'profiles' ? at(item, 'info', 'full_name') : at(item, 'name'),
      );
      return word === undefined ? undefined : { name: word };
    },
    holds: (item, sent) => {
      const text = at(item, 'info', 'full_name') ?? at(item, 'name');
      if (typeof text !== 'string') return undefined;
      return text.toLowerCase().includes(String(sent.name).toLowerCase());
    },
  },
  email: {
    pick: (item) => {
      const email = at(item, 'info', 'email');
      return typeof email === 'string' ? { email } : undefined;
    },
    holds: (item, sent) => {
      const email = at(item, 'info', 'email');
      return typeof email === 'string' ? sameText(email, sent.email) : undefined;
    },
  },
  stage: {
    // Only profiles carry labels; on jobs the stage is another object's, so it is not judged.
    pick: (item, side) => {
      const stage = side.list === 'profiles' ? at(labelsFor(item, side)[0], 'stage') : undefined;
      return typeof stage === 'string' ? { stage } : undefined;
    },
    holds: (item, sent) =>
      asArray(at(item, 'labels'))?.some((l) => sameText(at(l, 'stage'), sent.stage)),
  },
};

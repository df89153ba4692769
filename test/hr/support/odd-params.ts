import type { Kind } from '../../../src/store/kinds.ts';

type Params = Record<string, unknown>;
type Draw = {
  kind: Kind;
  operation: 'searching' | 'scoring';
  /** Words to make keywords of: the query's own, else a few common ones. */
  words: string[];
  random: () => number;
  pick: <T>(list: readonly T[]) => T;
  chance: (p: number) => boolean;
};
/** One change to a drawn query: another spelling of a value, a value at or past a bound. */
type Twist = (params: Params, draw: Draw) => void;

const LATE = '2024-06-01T00:00:00Z';
const EARLY = '2023-01-01T00:00:00Z';

/**
 * How clients really send parameters, and the mistakes they make: text for numbers, any case,
 * older names, JSON text, `a,b`, `lon`, empty values, values at and past the bounds, bounds
 * that cross. Each twist changes one parameter, so that the reading of every parameter (its
 * default, its bounds, its spellings, the 400 naming it) is compared, not only the search.
 */
const TWISTS: Record<string, Twist> = {
  limitAsText: (p, d) => {
    p.limit = String(d.pick([1, 5, 30, 100]));
  },
  limitOutside: (p, d) => {
    p.limit = d.pick([0, 101, -3, 1.5, 'ten', '1e2', 1000]);
  },
  pageOdd: (p, d) => {
    p.page = d.pick(['2', '1', 0, -1, 'x', 2.5, 2 ** 60, '99999999999999999999']);
  },
  orderByCase: (p, d) => {
    p.order_by = d.pick(['ASC', 'Desc', 'DESC', 'up']);
  },
  sortByOther: (p, d) => {
    p.sort_by = d.pick(['CREATED_AT', 'Updated_At', 'date', 'date_reception', 'date_creation']);
    if (d.chance(0.5)) p.sort_by = d.pick(['score_semantic', 'score_predictive', 'newest']);
  },
  absentAsEmpty: (p, d) => {
    const name = d.pick(['order_by', 'sort_by', 'page', 'limit', 'location_distance', 'name']);
    p[name] = d.pick(['', null]);
  },
  pointSpelled: (p, d) => {
    const point = p.location_geopoint as { lat: number; lng: number } | undefined;
    if (point === undefined) return;
    p.location_geopoint = d.pick([
      { lat: point.lat, lon: point.lng },
      JSON.stringify(point),
      { lat: String(point.lat), lng: String(point.lng) },
    ]);
  },
  pointOutside: (p, d) => {
    p.location_geopoint = d.pick([{ lat: 91, lng: 0 }, { lat: 0, lng: 180.5 }, { lat: 'north' }]);
  },
  distanceAlone: (p, d) => {
    delete p.location_geopoint;
    p.location_distance = d.pick([25, '25', 0]);
  },
  distanceOdd: (p, d) => {
    if (p.location_geopoint !== undefined) p.location_distance = d.pick(['120', 0, -5, 'far']);
  },
  keywordsRepeated: (p, d) => {
    const word = d.pick(d.words) ?? 'data';
    p.text_keywords = [word, word.toUpperCase(), ...((p.text_keywords as string[]) ?? [])];
    if (d.chance(0.5)) p.sort_by = 'searching';
  },
  keywordsSpelled: (p, d) => {
    const list = (p.text_keywords as string[] | undefined) ?? [d.pick(d.words) ?? 'data'];
    p.text_keywords = d.chance(0.5) ? JSON.stringify(list) : list.join(',');
  },
  keywordsMany: (p, d) => {
    const count = d.pick([6, 12, 50, 51]);
    p.text_keywords = Array.from({ length: count }, (_, i) => d.words[i] ?? `w${i}`);
  },
  keywordTooLong: (p) => {
    p.text_keywords = ['x'.repeat(101)];
  },
  createdCrossed: (p, d) => {
    p.created_at_min = LATE;
    p.created_at_max = d.pick([EARLY, '2023-01-01', '2023-01-01T00:00:00 0000']);
  },
  createdSpelled: (p, d) => {
    p.created_at_min = d.pick(['2021-03-04', '2021-03-04T10:00:00+0100', '2021-03-04T10:00Z']);
  },
  yearsCrossed: (p, d) => {
    p.experiences_duration_min = d.pick([6, '6']);
    p.experiences_duration_max = d.pick([2, '9', -1]);
  },
  timestampsCrossed: (p) => {
    p.timestamp_start = 1_700_000_000;
    p.timestamp_end = '1600000000';
  },
  stageCase: (p, d) => {
    p.stage = d.pick(['YES', 'New', 'Later', 'maybe']);
  },
  containersSpelled: (p, d) => {
    const name = d.kind === 'profile' ? 'source_keys' : 'board_keys';
    const keys = p[name] as string[];
    p[name] = d.pick([JSON.stringify(keys), keys.join(','), [], ['abc'], ['f'.repeat(40)]]);
  },
  tagsAsTags: (p) => {
    const groups = p.tags_included as unknown[] | undefined;
    if (groups !== undefined && !Array.isArray(groups[0])) {
      p.tags = groups;
      delete p.tags_included;
    }
  },
  skillsAsText: (p) => {
    if (p.skills !== undefined) p.skills = JSON.stringify(p.skills);
  },
};

/** Scoring's own: its switch and threshold in every spelling, its older names. */
const SCORING_TWISTS: Record<string, Twist> = {
  useAlgorithm: (p, d) => {
    p.use_algorithm = d.pick(['1', '0', 'true', 'FALSE', 'True', true, false, 1, 0, 'yes', 2]);
  },
  useAgent: (p, d) => {
    delete p.use_algorithm;
    p.use_agent = d.pick(['0', '1', 0]);
  },
  noAlgorithmKey: (p, d) => {
    delete p.algorithm_key;
    if (d.chance(0.5)) p.agent_key = d.pick(['agent-a', '']);
  },
  thresholdOdd: (p, d) => {
    p.score_threshold = d.pick(['0.2', 1.5, -0.1, 'high', 1, 0]);
  },
};

/** The older names clients still send for an order, each meaning that order. */
const FORMER_SORTS: Record<string, readonly string[]> = {
  created_at: ['date', 'date_reception', 'date_creation'],
  searching: ['score_semantic'],
  scoring: ['score_predictive'],
};

/** An order as clients spell it: mostly its name, else an older name of it or its capitals. */
export function sortSpelled(sortBy: string, draw: Pick<Draw, 'pick' | 'chance'>): string {
  const former = FORMER_SORTS[sortBy];
  if (former !== undefined && draw.chance(0.3)) return draw.pick(former);
  return draw.chance(0.1) ? sortBy.toUpperCase() : sortBy;
}

const COMMON_WORDS = ['data', 'team', 'sales', 'care', 'and', 'with', 'the', 'of', 'senior'];

/**
 * Now and then (`p` of the time), a copy of a drawn query with one twist, else undefined.
 */
export function twistedParams(
  raw: Map<string, unknown>,
  side: { kind: Kind; operation: 'searching' | 'scoring'; random: () => number },
  p: number,
): Map<string, unknown> | undefined {
  const { random } = side;
  const chance = (q: number) => random() < q;
  if (!chance(p)) return undefined;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const params = Object.fromEntries(raw);
  const own = Array.isArray(params.text_keywords) ? (params.text_keywords as string[]) : [];
  const words = [...own.flatMap((k) => k.split(/\s+/)), ...COMMON_WORDS];
  const twists = Object.values(TWISTS);
  if (side.operation === 'scoring') twists.push(...Object.values(SCORING_TWISTS));
  pick(twists)(params, { ...side, words, pick, chance });
  return new Map(Object.entries(params));
}

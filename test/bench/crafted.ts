// The slowest search a small generator can build within the request limits: random requests
// over pools of costly choices (single letters, common fragments, punctuation, absent words, many
// keywords, relevance sorting, broad filters, big pages), then mutations of the slowest ones.
import { CITIES } from '../../mocks/vocabularies/cities.ts';
import { seededRandom } from '../../src/http/chaos.ts';

/** Keyword pools, from cheap to costly for a substring index. */
const POOLS = {
  letters: 'abcdefghijklmnopqrstuvwxyz0123456789'.split(''),
  fragments:
    'an er in on re ti at es en or te ar st ed is it al nt le ng ri ra ion ing ent ter'.split(' '),
  words: 'and the of with in to experience skills management data team'.split(' '),
  punctuation: ['.', ',', '-', ':', '(', "'", '/', 'c++', 'node.js', 'e.', 'a,'],
  absent: Array.from({ length: 50 }, (_, i) => `zq${i}x`),
} as const;

/** The caps a request must stay within (`LIST_CAPS` of src/hr). */
const MAX_KEYWORDS = 50;
const COUNTS = [1, 2, 3, 8, 20, 36, MAX_KEYWORDS];
const COPIES = [1, 1, 1, 10, 100];

export type Crafted = { body: Record<string, unknown>; ms: number; status: number };

function craft(next: () => number, sourceKeys: string[]): Record<string, unknown> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const pools = Object.values(POOLS);
  const count = pick(COUNTS);
  const keywords = new Set<string>();
  const mixed = next() < 0.3;
  const pool = pick(pools);
  for (let tries = 0; keywords.size < count && tries < count * 4; tries++) {
    const from = mixed ? pick(pools) : pool;
    // Sometimes several fragments in one keyword: each run is looked up.
    keywords.add(next() < 0.2 ? `${pick(from)} ${pick(from)} ${pick(from)}` : pick(from));
  }
  // Copies of the list: the caps count distinct keywords, so copies stay within them.
  const copies = pick(COPIES);
  const body: Record<string, unknown> = {
    source_keys: sourceKeys,
    text_keywords: Array.from({ length: copies }, () => [...keywords]).flat(),
    sort_by: pick(['searching', 'searching', 'created_at', 'location']),
    limit: pick([30, 100]),
    page: pick([1, 1, 2, 50]),
  };
  if (body.sort_by === 'location' || next() < 0.3) {
    const city = pick(CITIES);
    body.location_geopoint = { lat: city.lat, lng: city.lng };
    body.location_distance = pick([50, 500, 20_000]);
  }
  if (next() < 0.2) body.tags_excluded = [{ name: 'remote', value: 'no' }];
  if (next() < 0.2) body.summary_keywords = [pick(POOLS.letters), pick(POOLS.fragments)];
  return body;
}

/** One keyword of the request swapped for another from any pool, or one added. */
function mutate(next: () => number, body: Record<string, unknown>): Record<string, unknown> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const sent = body.text_keywords as string[];
  const keywords = [...new Set(sent)];
  const copies = sent.length / keywords.length;
  const fresh = pick(Object.values(POOLS));
  if (keywords.length < MAX_KEYWORDS && next() < 0.5) keywords.push(pick(fresh));
  else keywords[Math.floor(next() * keywords.length)] = pick(fresh);
  const distinct = [...new Set(keywords)];
  return { ...body, text_keywords: Array.from({ length: copies }, () => distinct).flat() };
}

async function timed(base: string, body: Record<string, unknown>): Promise<Crafted> {
  const started = performance.now();
  const response = await fetch(`${base}/profiles/searching`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return { body, ms: performance.now() - started, status: response.status };
}

/**
 * Times `tries` random requests, then `mutations` variations of the three slowest so far, one at
 * a time, and returns every try, slowest first.
 */
export async function craftedRequests(
  base: string,
  sourceKeys: string[],
  options: { seed?: number; tries?: number; mutations?: number } = {},
): Promise<Crafted[]> {
  const next = seededRandom(options.seed ?? 26);
  const tried: Crafted[] = [];
  for (let k = 0; k < (options.tries ?? 60); k++)
    tried.push(await timed(base, craft(next, sourceKeys)));
  for (let k = 0; k < (options.mutations ?? 30); k++) {
    tried.sort((a, b) => b.ms - a.ms);
    const parent = tried[Math.floor(next() * Math.min(3, tried.length))] as Crafted;
    tried.push(await timed(base, mutate(next, parent.body)));
  }
  return tried.sort((a, b) => b.ms - a.ms);
}

/**
 * Measures the store over 100,000 profiles: build time, resident memory after GC, and the time of
 * one searching or scoring operation, the answer's JSON included, over 1,000 distinct keyword +
 * location queries. Not a test; run with
 *   NODE_OPTIONS=--expose-gc npx tsx test/hr/measure-store.ts [--eager] [--profiles N]
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { lazyFixtures } from '../../mocks/lazy-fixtures.ts';
import { CITIES } from '../../mocks/vocabularies/cities.ts';
import type { Answer } from '../../src/hr/answer-json.ts';
import { scoringOperation, searchOperation } from '../../src/hr/operations.ts';
import type { RawParams } from '../../src/hr/params.ts';
import type { Result } from '../../src/hr/result.ts';
import type { Kind } from '../../src/store/kinds.ts';
import { createStore, type Store } from '../../src/store/store.ts';
import { randomSource } from './support/random-queries.ts';

type Operation = (store: Store, kind: Kind, raw: RawParams) => Result<Answer>;

const KEYWORDS = ['python', 'sql', 'excel', 'english', 'negotiation', 'patient', 'figma', 'budget'];
const QUERIES = 1000;

const args = process.argv.slice(2);
const eager = args.includes('--eager');
const profiles = args.includes('--profiles')
  ? Number(args[args.indexOf('--profiles') + 1])
  : 100_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with NODE_OPTIONS=--expose-gc to measure memory');

let started = performance.now();
const data = eager ? buildFixtures({ profiles }) : lazyFixtures({ profiles });
const fixturesMs = performance.now() - started;
started = performance.now();
const store = createStore(data);
const buildMs = performance.now() - started;
console.log(
  `${profiles} profiles (${eager ? 'eager array' : 'lazy list'}): fixtures ${seconds(fixturesMs)}, store build ${seconds(buildMs)}`,
);
memory('after build');

const sourceKeys = [...store.profile.containers.keys()];
const job = store.job.docs[0];
if (job === undefined) throw new Error('no job to score against');

/** Keyword + point near a city + 100 km, sorted by update or distance (or score), 30 a page. */
function queries(seed: number, scoring: boolean): RawParams[] {
  const random = randomSource(seed);
  return Array.from({ length: QUERIES }, () => {
    const city = CITIES[Math.floor(random() * CITIES.length)] ?? CITIES[0];
    const params: Record<string, unknown> = {
      source_keys: sourceKeys,
      text_keywords: [KEYWORDS[Math.floor(random() * KEYWORDS.length)]],
      // A few km off the centre, so that no two queries are the same.
      location_geopoint: {
        lat: city.lat + random() * 0.2 - 0.1,
        lng: city.lng + random() * 0.2 - 0.1,
      },
      location_distance: 100,
      sort_by: random() < 0.5 ? 'updated_at' : 'location',
      limit: 30,
    };
    if (scoring) {
      params.algorithm_key = 'scorer';
      params.board_key = job?.containerKey;
      params.job_key = job?.key;
      if (random() < 0.5) params.sort_by = 'scoring';
    }
    return new Map(Object.entries(params));
  });
}

/** Times each operation with the answer made as bytes (`body()`) or as text (`json`). */
function time(label: string, run: Operation, list: RawParams[], as: 'body' | 'json') {
  const times: number[] = [];
  let bytes = 0;
  for (const raw of list) {
    const start = performance.now();
    const result = run(store, 'profile', raw);
    if (!result.ok) throw new Error(`${label}: ${JSON.stringify(result.errors)}`);
    bytes += as === 'body' ? result.value.body().byteLength : result.value.json.length;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const p99 = times[Math.floor(times.length * 0.99)] ?? 0;
  console.log(
    `${`${label}, ${as}`.padEnd(46)} mean ${mean.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms (${(bytes / list.length / 1024).toFixed(0)} KB)`,
  );
}

// Queries never seen before: most of their objects are not in the JSON cache yet.
time('searching, new queries', searchOperation, queries(1, false), 'body');
time('scoring, new queries', scoringOperation, queries(2, true), 'body');
time('searching, new queries', searchOperation, queries(3, false), 'json');
time('scoring, new queries', scoringOperation, queries(4, true), 'json');
// The domain's own work: 100 queries whose objects were all served once already.
const warmSearching = queries(5, false).slice(0, 100);
const warmScoring = queries(6, true).slice(0, 100);
for (const raw of warmSearching) searchOperation(store, 'profile', raw);
for (const raw of warmScoring) scoringOperation(store, 'profile', raw);
time('searching, objects seen before', searchOperation, warmSearching, 'body');
time('scoring, objects seen before', scoringOperation, warmScoring, 'body');
time('searching, objects seen before', searchOperation, warmSearching, 'json');
time('scoring, objects seen before', scoringOperation, warmScoring, 'json');
memory('after the queries');

function memory(when: string) {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MB`;
  const old = getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
  console.log(
    `${when}, after GC: rss ${mb(m.rss)} (heap used ${mb(m.heapUsed)} of ${mb(m.heapTotal)}, old space ${mb(old?.space_used_size ?? 0)} of ${mb(old?.space_size ?? 0)}; array buffers ${mb(m.arrayBuffers)})`,
  );
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

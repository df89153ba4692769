import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { buildFixtures, jobAt, profileAt } from '../../mocks/build-fixtures.ts';
import type { Answer } from '../../src/hr/answer-json.ts';
import { gradingOperation, scoringOperation, searchOperation } from '../../src/hr/operations.ts';
import type { Result } from '../../src/hr/result.ts';
import { createStore } from '../../src/store/store.ts';
import type { ObjectList } from '../../src/store/types.ts';
import { randomParams, randomSource } from './support/random-queries.ts';

const SEED = 9;

/** The answer's JSON, or its errors as JSON. */
function jsonOf(result: Result<Answer>): string {
  return result.ok ? result.value.json : JSON.stringify(result.errors);
}
const fixtures = buildFixtures({ seed: SEED, profiles: 1500, jobs: 300 });

/** A list that rebuilds item i on each call, counting the calls. */
function lazyList<T>(length: number, make: (index: number) => T) {
  const list = {
    calls: 0,
    length,
    at(index: number): T | undefined {
      list.calls++;
      return index >= 0 && index < length ? make(index) : undefined;
    },
  };
  return list satisfies ObjectList<T>;
}

const jobSet = { count: fixtures.jobs.length, boards: fixtures.boards };
const profiles = lazyList(fixtures.profiles.length, (i) =>
  profileAt(SEED, i, fixtures.sources, jobSet),
);
const jobs = lazyList(fixtures.jobs.length, (i) => jobAt(SEED, i, fixtures.boards));
const lazy = createStore({ ...fixtures, profiles, jobs });
const eager = createStore(fixtures);

it('reads each object of a lazy list once to build the store', () => {
  expect(profiles.calls).toBe(fixtures.profiles.length);
  expect(jobs.calls).toBe(fixtures.jobs.length);
});

it('keeps no reference to the objects a lazy list made', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const made: WeakRef<object>[] = [];
  const list = lazyList(200, (i) => {
    const profile = profileAt(SEED, i, fixtures.sources);
    made.push(new WeakRef(profile));
    return profile;
  });
  const store = createStore({ ...fixtures, profiles: list, jobs: [] });
  // WeakRefs hold their object until the current job ends.
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  expect(store.profile.docs).toHaveLength(200);
  expect(made.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
});

it('answers from a lazy list byte for byte as from the array it stands for', () => {
  const random = randomSource(SEED);
  for (let q = 0; q < 60; q++) {
    const kind = q % 2 === 0 ? 'profile' : 'job';
    const operation = q % 4 < 2 ? 'searching' : 'scoring';
    const raw = randomParams(fixtures, kind, random, operation);
    const run = operation === 'searching' ? searchOperation : scoringOperation;
    expect(jsonOf(run(lazy, kind, raw)), JSON.stringify(Object.fromEntries(raw))).toBe(
      jsonOf(run(eager, kind, raw)),
    );
  }
  const grading = new Map<string, unknown>([
    ['algorithm_key', 'grader'],
    ['board_key', fixtures.jobs[0]?.board_key],
    ['job_key', fixtures.jobs[0]?.key],
    ['return_profile', true],
    [
      'profile_ids',
      fixtures.profiles.slice(0, 20).map((p) => ({ source_key: p.source_key, profile_key: p.key })),
    ],
  ]);
  expect(jsonOf(gradingOperation(lazy, 'profile', grading))).toBe(
    jsonOf(gradingOperation(eager, 'profile', grading)),
  );
});

it('serves full objects of a lazy list from its cache of JSON, not by rebuilding them', () => {
  const raw = new Map<string, unknown>([
    ['source_keys', fixtures.sources.map((s) => s.key)],
    ['limit', 30],
  ]);
  searchOperation(lazy, 'profile', raw);
  const before = profiles.calls;
  searchOperation(lazy, 'profile', raw);
  expect(profiles.calls).toBe(before);
});

it("answers the SDKs' older filters and orders without making any object again", () => {
  const profile = fixtures.profiles[7];
  if (profile === undefined) throw new Error('no profile 7');
  const place = profile.experiences.find((e) => e.location.lat != null)?.location;
  const raw = new Map<string, unknown>([
    ['source_keys', fixtures.sources.map((s) => s.key)],
    ['limit', 1],
    ['name', (profile.info.full_name ?? '').slice(0, 3)],
    ['summary_keywords', ['a']],
    ['experience_keywords', ['e']],
    ['education_keywords', ['e']],
    ['interests', [{ name: profile.interests?.[0]?.name ?? 'Chess', value: null }]],
    ['educations_duration_min', 0],
    ['stage', 'new'],
    ['experience_location_geopoint', { lat: place?.lat ?? 0, lng: place?.lng ?? 0 }],
    ['experience_location_distance', 20000],
    ['sort_by', 'location_experience'],
  ]);
  // A store no query has used yet: the first such query is the one that could wait.
  const made = lazyList(fixtures.profiles.length, (i) =>
    profileAt(SEED, i, fixtures.sources, jobSet),
  );
  const fresh = createStore({ ...fixtures, profiles: made, jobs });
  const before = made.calls;
  const answer = searchOperation(fresh, 'profile', raw);
  expect(answer.ok, JSON.stringify(answer)).toBe(true);
  // At most the one object answered; building these filters' data would remake all 1,500.
  expect(made.calls - before).toBeLessThanOrEqual(1);
  expect(jsonOf(answer)).toBe(jsonOf(searchOperation(eager, 'profile', raw)));
});

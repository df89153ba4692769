import { expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { scoringOperation } from '../../src/hr/operations.ts';
import { createStore } from '../../src/store/store.ts';

const fixtures = buildFixtures({ seed: 4, profiles: 800, jobs: 50 });
const [job, otherJob] = fixtures.jobs;
const base = {
  algorithm_key: 'scorer',
  board_key: job?.board_key,
  job_key: job?.key,
  source_keys: fixtures.sources.map((s) => s.key),
};
const params = (values: Record<string, unknown>) => new Map(Object.entries({ ...base, ...values }));
const jsonOf = (result: ReturnType<typeof scoringOperation>) =>
  result.ok ? result.value.json : JSON.stringify(result.errors);

it('scores against an object met before exactly as a fresh store does', () => {
  const warmed = createStore(fixtures);
  const other = { job_key: otherJob?.key, board_key: otherJob?.board_key };
  jsonOf(scoringOperation(warmed, 'profile', params({ ...other, sort_by: 'scoring' })));
  jsonOf(scoringOperation(warmed, 'profile', params({ text_keywords: ['english'], limit: 5 })));
  jsonOf(scoringOperation(warmed, 'profile', params({ sort_by: 'scoring', page: 3 })));
  for (const query of [
    { sort_by: 'scoring', score_threshold: 0.4, limit: 100 },
    { text_keywords: ['a'], sort_by: 'updated_at', limit: 50 },
  ]) {
    const answer = jsonOf(scoringOperation(warmed, 'profile', params(query)));
    expect(answer).toBe(jsonOf(scoringOperation(createStore(fixtures), 'profile', params(query))));
    expect(JSON.parse(answer).data.predictions.length).toBeGreaterThan(0);
  }
  expect(warmed.profile.scores.size).toBe(2);
});

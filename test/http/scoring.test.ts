import { describe, expect, it } from 'vitest';
import { targetOf } from '../../src/hr/target.ts';
import type { Job, Profile } from '../../src/store/types.ts';
import type { Scoring } from '../support/answers.ts';
import { get, mockApp, post } from '../support/mock-app.ts';
import { SIDES, type Side } from '../support/sides.ts';

const { app, fixtures } = mockApp();
const target = targetOf(app.state.store);

/** The parameters naming the one object of the other side every item is scored against. */
function against(side: Side): Record<string, unknown> {
  return side.kind === 'profile'
    ? {
        algorithm_key: 'scorer-test',
        board_key: target.profiles.board_key,
        job_key: target.profiles.job_key,
      }
    : {
        algorithm_key: 'scorer-test',
        source_key: target.jobs.source_key,
        profile_key: target.jobs.profile_key,
      };
}

describe.each(SIDES)('$plural/scoring', (side: Side) => {
  const path = `/${side.plural}/scoring`;
  const base = { ...against(side), [side.containerKeys]: side.containers(fixtures) };
  const scoresOf = (body: Scoring) => body.data.predictions.map((p) => p[1] as number);

  it('gives one prediction per item, each a pair in [0, 1] that sums to 1', async () => {
    const { body } = await get<Scoring>(app, path, { ...base, limit: 50 });
    expect(body.data.predictions.length).toBe(body.data[side.plural].length);
    expect(body.data.predictions.length).toBe(50);
    for (const [a, b] of body.data.predictions) {
      expect(a).toBeGreaterThanOrEqual(0);
      expect(b).toBeLessThanOrEqual(1);
      expect((a as number) + (b as number)).toBeCloseTo(1, 9);
    }
  });

  it('ranks by score, best first, with sort_by=scoring', async () => {
    const { body } = await get<Scoring>(app, path, { ...base, sort_by: 'scoring', limit: 100 });
    const scores = scoresOf(body);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    expect(new Set(scores).size).toBeGreaterThan(20);
  });

  it('ranks worst first with sort_by=scoring and order_by=asc', async () => {
    const { body } = await get<Scoring>(app, path, {
      ...base,
      sort_by: 'scoring',
      order_by: 'asc',
      limit: 100,
    });
    const scores = scoresOf(body);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => a - b));
  });

  it('gives the best scores to items of the same job family', async () => {
    const { body } = await get<Scoring>(app, path, { ...base, sort_by: 'scoring', limit: 10 });
    const family = (item: Profile | Job) => item.tags.find((t) => t.name === 'family')?.value;
    const other =
      side.kind === 'profile' ? app.state.store.job.byKey : app.state.store.profile.byKey;
    const anchorKey =
      side.kind === 'profile'
        ? `${target.profiles.board_key}/${target.profiles.job_key}`
        : `${target.jobs.source_key}/${target.jobs.profile_key}`;
    const anchorFamily = other.get(anchorKey)?.family;
    const same = body.data[side.plural].filter((i) => family(i) === anchorFamily).length;
    expect(same).toBeGreaterThanOrEqual(8);
  });

  it('keeps only the items scoring at least score_threshold', async () => {
    const all = await get<Scoring>(app, path, { ...base, limit: 100 });
    const { body } = await get<Scoring>(app, path, { ...base, score_threshold: 0.5, limit: 100 });
    expect(body.meta.total).toBeGreaterThan(0);
    expect(body.meta.total).toBeLessThan(all.body.meta.total);
    for (const score of scoresOf(body)) expect(score).toBeGreaterThanOrEqual(0.5);
  });

  it('gives the same scores to the same request', async () => {
    const once = await get(app, path, { ...base, limit: 30 });
    const twice = await get(app, path, { ...base, limit: 30 });
    expect(twice.body).toEqual(once.body);
  });

  it('searches only, with no predictions, when use_algorithm=0', async () => {
    const scored = await get<Scoring>(app, path, { ...base, limit: 20 });
    const { body } = await get<Scoring>(app, path, { ...base, use_algorithm: '0', limit: 20 });
    expect(body.data.predictions).toEqual([]);
    expect(body.data[side.plural]).toEqual(scored.body.data[side.plural]);
  });

  it('applies the searching filters before scoring', async () => {
    const { body } = await get<Scoring>(app, path, {
      ...base,
      tags_included: [{ name: 'remote', value: 'yes' }],
      limit: 100,
    });
    expect(body.meta.total).toBeGreaterThan(0);
    for (const item of body.data[side.plural]) {
      expect(item.tags).toContainEqual({ name: 'remote', value: 'yes' });
    }
  });

  it('answers POST with a JSON body exactly as GET with the same parameters', async () => {
    const params = { ...base, sort_by: 'scoring', score_threshold: 0.3, limit: 10, page: 2 };
    const viaGet = await get(app, path, params);
    const viaPost = await post(app, path, params);
    expect(viaPost.status).toBe(200);
    expect(viaPost.body).toEqual(viaGet.body);
  });

  it('finds the object to score against by its reference too', async () => {
    const byKey = await get(app, path, { ...base, limit: 5 });
    const other = side.kind === 'profile' ? app.state.store.job : app.state.store.profile;
    const refParam = side.kind === 'profile' ? 'job_reference' : 'profile_reference';
    const keyParam = side.kind === 'profile' ? 'job_key' : 'profile_key';
    const containerParam = side.kind === 'profile' ? 'board_key' : 'source_key';
    const doc = other.byKey.get(`${base[containerParam]}/${base[keyParam]}`);
    const { [keyParam]: _, ...rest } = base;
    const byRef = await get(app, path, { ...rest, [refParam]: doc?.reference, limit: 5 });
    expect(byRef.body).toEqual(byKey.body);
  });
});

import { describe, expect, it } from 'vitest';
import { targetOf } from '../../src/hr/target.ts';
import type { Grading, JobsGrading, ProfilesGrading } from '../support/answers.ts';
import { obj, scoreAt } from '../support/json-reads.ts';
import { get, mockApp } from '../support/mock-app.ts';

const { app, fixtures } = mockApp();
const target = targetOf(app.state.store);

const SIDES = [
  {
    plural: 'profiles',
    flag: 'return_profile',
    minimal: ['key', 'reference', 'source_key', 'created_at', 'updated_at'],
    params: {
      algorithm_key: target.profiles.algorithm_key,
      board_key: target.profiles.board_key,
      job_key: target.profiles.job_key,
      profile_ids: target.profiles.profile_ids,
    },
    ids: target.profiles.profile_ids.map((i) => i.profile_key),
  },
  {
    plural: 'jobs',
    flag: 'return_job',
    minimal: ['key', 'reference', 'board_key', 'created_at', 'updated_at'],
    params: {
      algorithm_key: target.jobs.algorithm_key,
      source_key: target.jobs.source_key,
      profile_key: target.jobs.profile_key,
      job_ids: target.jobs.job_ids,
    },
    ids: target.jobs.job_ids.map((i) => i.job_key),
  },
] as const;

describe.each(SIDES)('$plural/grading', (side) => {
  const path = `/${side.plural}/grading`;

  it(`returns exactly what ${side.flag}=false returns when ${side.flag} is absent`, async () => {
    const absent = await get<Grading>(app, path, side.params);
    const off = await get<Grading>(app, path, { ...side.params, [side.flag]: 'false' });
    expect(absent.status).toBe(200);
    expect(absent.body).toEqual(off.body);
  });

  it(`returns items with exactly the minimal fields when ${side.flag} is absent`, async () => {
    const { body } = await get<Grading>(app, path, side.params);
    for (const item of body.data[side.plural])
      expect(Object.keys(obj(item)).sort()).toEqual([...side.minimal].sort());
  });

  it(`returns full items agreeing with their minimal twins when ${side.flag}=true`, async () => {
    const minimal = await get<Grading>(app, path, side.params);
    const full = await get<Grading>(app, path, { ...side.params, [side.flag]: 'true' });
    expect(full.body.data[side.plural].length).toBe(minimal.body.data[side.plural].length);
    full.body.data[side.plural].forEach((entry, i) => {
      const item = obj(entry);
      const twin = obj(minimal.body.data[side.plural][i]);
      expect(Object.keys(item).length).toBeGreaterThan(side.minimal.length + 5);
      for (const field of side.minimal) expect(item[field]).toEqual(twin[field]);
    });
    expect(full.body.data.scores).toEqual(minimal.body.data.scores);
    expect(full.body.data.errors).toEqual(minimal.body.data.errors);
  });

  it.each(['1', 'TRUE', 'True'])(`reads ${side.flag}=%s as true`, async (value) => {
    const full = await get<Grading>(app, path, { ...side.params, [side.flag]: 'true' });
    const loose = await get<Grading>(app, path, { ...side.params, [side.flag]: value });
    expect(loose.body).toEqual(full.body);
  });

  it('answers one entry per requested item, in request order', async () => {
    const { body } = await get<Grading>(app, path, side.params);
    expect(body.data[side.plural].map((i) => obj(i).key)).toEqual(side.ids);
    expect(body.data.scores.length).toBe(side.ids.length);
    expect(body.data.errors.length).toBe(side.ids.length);
  });

  it('answers the same request with the same scores', async () => {
    const once = await get<Grading>(app, path, side.params);
    const twice = await get<Grading>(app, path, side.params);
    expect(twice.body.data.scores).toEqual(once.body.data.scores);
  });

  it('gives pairs [1 - s, s] for graded items, and null with a reason for the others', async () => {
    const { body } = await get<Grading>(app, path, side.params);
    body.data.scores.forEach((score: number[] | null, i: number) => {
      if (score === null) expect(body.data.errors[i]).toMatch(/\w+/);
      else {
        expect(body.data.errors[i]).toBeNull();
        expect((score[0] as number) + (score[1] as number)).toBeCloseTo(1, 9);
      }
    });
  });

  it('reports an unknown item in its own entry without failing the request', async () => {
    const list = side.plural === 'profiles' ? 'profile_ids' : 'job_ids';
    const ids = 'profile_ids' in side.params ? side.params.profile_ids : side.params.job_ids;
    const ghost = {
      ...ids[0],
      [side.plural === 'profiles' ? 'profile_key' : 'job_key']: 'f'.repeat(40),
    };
    const { status, body } = await get<Grading>(app, path, {
      ...side.params,
      [list]: [ids[1], ghost, ids[2]],
    });
    expect(status).toBe(200);
    expect(body.data[side.plural][1]).toBeNull();
    expect(body.data.scores[1]).toBeNull();
    expect(body.data.errors[1]).toMatch(/Unable to find object/);
    expect(body.data.scores[0]).not.toBeNull();
  });
});

describe('profiles/grading of a profile holding contact details only', () => {
  it('reports it as ungradable in its own entry', async () => {
    const contactOnly = fixtures.profiles.find(
      (p) => p.experiences.length === 0 && p.skills.length === 0,
    );
    expect(contactOnly).toBeDefined();
    const { body } = await get<ProfilesGrading>(app, '/profiles/grading', {
      ...SIDES[0].params,
      profile_ids: [{ source_key: contactOnly?.source_key, profile_key: contactOnly?.key }],
    });
    expect(obj(body.data.profiles[0]).key).toBe(contactOnly?.key);
    expect(body.data.scores).toEqual([null]);
    expect(body.data.errors[0]).toMatch(/contact details only/);
  });
});

describe('grading in single mode (deprecated)', () => {
  it('grades one profile named by source_key and profile_key', async () => {
    const [first] = target.profiles.profile_ids;
    const batch = await get<ProfilesGrading>(app, '/profiles/grading', {
      ...SIDES[0].params,
      profile_ids: [first],
    });
    const { profile_ids: _, ...rest } = SIDES[0].params;
    const single = await get<ProfilesGrading>(app, '/profiles/grading', { ...rest, ...first });
    const { data } = batch.body;
    expect(single.body).toEqual({
      ...batch.body,
      data: { ...data, score: scoreAt(data.scores, 0) },
    });
  });

  it('answers the one score as data.score too, as single mode did before batches', async () => {
    const [first] = target.profiles.profile_ids;
    const { profile_ids: _, ...rest } = SIDES[0].params;
    const single = await get<ProfilesGrading>(app, '/profiles/grading', { ...rest, ...first });
    expect(single.body.data.score).toBeGreaterThan(0);
    expect(single.body.data.score).toBe(scoreAt(single.body.data.scores, 0));
  });

  it('gives data.score null when the one profile cannot be graded', async () => {
    const ungradable = app.state.store.profile.docs.find((doc) => !doc.gradable);
    const { profile_ids: _, ...rest } = SIDES[0].params;
    const single = await get<ProfilesGrading>(app, '/profiles/grading', {
      ...rest,
      source_key: ungradable?.containerKey,
      profile_key: ungradable?.key,
    });
    expect(single.body.data).toMatchObject({ scores: [null], score: null });
    expect(single.body.data.errors[0]).toMatch(/nothing to grade/);
  });

  it('has no data.score in batch mode', async () => {
    const batch = await get<ProfilesGrading>(app, '/profiles/grading', SIDES[0].params);
    expect(Object.keys(batch.body.data)).toEqual(['profiles', 'scores', 'errors']);
  });

  it('grades one profile named by its reference', async () => {
    const [first] = target.profiles.profile_ids;
    const doc = app.state.store.profile.byKey.get(`${first?.source_key}/${first?.profile_key}`);
    const { profile_ids: _, ...rest } = SIDES[0].params;
    const byKey = await get<ProfilesGrading>(app, '/profiles/grading', { ...rest, ...first });
    const byRef = await get<ProfilesGrading>(app, '/profiles/grading', {
      ...rest,
      source_key: first?.source_key,
      profile_reference: doc?.reference,
    });
    expect(byRef.body).toEqual(byKey.body);
  });

  it('grades one job named by board_key and job_key', async () => {
    const [first] = target.jobs.job_ids;
    const batch = await get<JobsGrading>(app, '/jobs/grading', {
      ...SIDES[1].params,
      job_ids: [first],
    });
    const { job_ids: _, ...rest } = SIDES[1].params;
    const single = await get<JobsGrading>(app, '/jobs/grading', { ...rest, ...first });
    const { data } = batch.body;
    expect(single.body).toEqual({
      ...batch.body,
      data: { ...data, score: scoreAt(data.scores, 0) },
    });
  });

  it('takes profile_ids in PHP bracket notation as some clients send them', async () => {
    const [a, b] = target.profiles.profile_ids;
    const { profile_ids: _, ...rest } = SIDES[0].params;
    const search = new URLSearchParams(Object.entries(rest) as [string, string][]);
    search.set('profile_ids[0][source_key]', a?.source_key ?? '');
    search.set('profile_ids[0][profile_key]', a?.profile_key ?? '');
    search.set('profile_ids[1][source_key]', b?.source_key ?? '');
    search.set('profile_ids[1][profile_key]', b?.profile_key ?? '');
    const bracketed = await app.request(`/profiles/grading?${search}`);
    const json = await get(app, '/profiles/grading', { ...rest, profile_ids: [a, b] });
    expect(await bracketed.json()).toEqual(json.body);
  });
});

describe('grading under the singular paths the SDKs call', () => {
  it.each([
    ['/profile/grading', '/profiles/grading', SIDES[0].params],
    ['/job/grading', '/jobs/grading', SIDES[1].params],
  ] as const)('answers %s exactly as %s', async (singular, plural, params) => {
    const [one, other] = await Promise.all([
      get(app, singular, { ...params, return_profile: 'true', return_job: 'true' }),
      get(app, plural, { ...params, return_profile: 'true', return_job: 'true' }),
    ]);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(other.body);
  });

  it('answers a bad request there as on the plural path', async () => {
    const { algorithm_key: _, ...rest } = SIDES[0].params;
    const singular = await get(app, '/profile/grading', rest);
    expect(singular.status).toBe(400);
    expect(singular.body).toEqual((await get(app, '/profiles/grading', rest)).body);
  });

  it('answers 405 with Allow: GET to a POST there', async () => {
    const response = await app.request('/job/grading', { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });

  it('serves no searching or scoring under the singular spelling', async () => {
    const response = await app.request('/profile/searching');
    expect(response.status).toBe(404);
  });

  it('serves them under a base path too', async () => {
    const { app: based } = mockApp({ basePath: '/v1' });
    const reply = await get<ProfilesGrading>(based, '/v1/profile/grading', SIDES[0].params);
    expect(reply.status).toBe(200);
    expect(reply.body.data.profiles).toHaveLength(SIDES[0].ids.length);
  });
});

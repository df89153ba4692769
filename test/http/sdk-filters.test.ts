import { describe, expect, it } from 'vitest';
import { targetOf } from '../../src/hr/target.ts';
import type { Job, Profile } from '../../src/store/types.ts';
import {
  type ErrorAnswer,
  firstError,
  type JobsSearching,
  type ProfilesSearching,
  type Scoring,
  type Searching,
} from '../support/answers.ts';
import { get, mockApp, post } from '../support/mock-app.ts';
import { distanceKm } from '../support/sides.ts';

const { app, fixtures } = mockApp();
const sources = { source_keys: fixtures.sources.map((s) => s.key) };
const boards = { board_keys: fixtures.boards.map((b) => b.key) };
const labelled = fixtures.profiles.find((p) => (p.labels ?? []).length > 0) as Profile;
const someone = fixtures.profiles[5] as Profile;
const lyon = { lat: 45.764, lng: 4.8357 };
const target = targetOf(app.state.store);

/** An item of either side. */
type Item = Profile | Job;

/** Every item a query finds, page after page, by GET or POST. */
async function all(
  path: string,
  params: Record<string, unknown>,
  method: 'GET' | 'POST' = 'GET',
): Promise<Item[]> {
  const items: Item[] = [];
  for (let page = 1; ; page++) {
    const query = { ...params, limit: 100, page };
    const reply =
      method === 'GET'
        ? await get<Searching>(app, path, query)
        : await post<Searching>(app, path, query);
    expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(200);
    items.push(...(reply.body.data.profiles ?? reply.body.data.jobs));
    if (page >= reply.body.meta.maxPage) return items;
  }
}

type Case = {
  name: string;
  path: string;
  base: Record<string, unknown>;
  params: Record<string, unknown>;
  holds(item: Item): boolean;
};

const lower = (text: string | null | undefined) => (text ?? '').toLowerCase();
const nearest = (entries: { location: { lat: number | null; lng: number | null } }[]) =>
  Math.min(
    ...entries
      .filter((e) => e.location.lat !== null && e.location.lng !== null)
      .map((e) => distanceKm(lyon, e.location as { lat: number; lng: number })),
  );
const yearsOf = (p: Profile) => p.educations_duration ?? Number.NaN;

const cases: Case[] = [
  {
    name: 'name keeps profiles whose full name contains it',
    path: '/profiles/searching',
    base: sources,
    params: { name: someone.info.full_name?.split(' ')[0]?.toUpperCase() },
    holds: (p: Profile) =>
      lower(p.info.full_name).includes(lower(someone.info.full_name?.split(' ')[0])),
  },
  {
    name: 'name keeps jobs whose name contains it',
    path: '/jobs/searching',
    base: boards,
    params: { name: 'engineer' },
    holds: (j: Job) => lower(j.name).includes('engineer'),
  },
  {
    name: 'email keeps the profile with that address, ignoring case',
    path: '/profiles/searching',
    base: sources,
    params: { email: someone.info.email?.toUpperCase() },
    holds: (p: Profile) => lower(p.info.email) === lower(someone.info.email),
  },
  {
    name: 'summary_keywords keeps profiles whose summary has every word',
    path: '/profiles/searching',
    base: sources,
    params: { summary_keywords: ['python'] },
    holds: (p: Profile) => lower(p.info.summary).includes('python'),
  },
  {
    name: 'summary_keywords keeps jobs whose summary has every word',
    path: '/jobs/searching',
    base: boards,
    params: { summary_keywords: ['team'] },
    holds: (j: Job) => lower(j.summary).includes('team'),
  },
  {
    name: 'experience_keywords keeps profiles whose experiences have every word',
    path: '/profiles/searching',
    base: sources,
    params: { experience_keywords: ['nurse'] },
    holds: (p: Profile) =>
      p.experiences.some((e) =>
        lower(`${e.title} ${e.company} ${e.description}`).includes('nurse'),
      ),
  },
  {
    name: 'education_keywords keeps profiles whose educations have every word',
    path: '/profiles/searching',
    base: sources,
    params: { education_keywords: ['msc'] },
    holds: (p: Profile) =>
      p.educations.some((e) => lower(`${e.title} ${e.school} ${e.description}`).includes('msc')),
  },
  {
    name: 'interests keeps profiles that list the interest',
    path: '/profiles/searching',
    base: sources,
    params: { interests: [{ name: 'climbing', value: null }] },
    holds: (p: Profile) => (p.interests ?? []).some((i) => lower(i.name) === 'climbing'),
  },
  {
    name: 'tags keeps items carrying every tag, as the JS SDK sends it',
    path: '/profiles/searching',
    base: sources,
    params: { tags: [{ name: 'remote', value: 'hybrid' }] },
    holds: (p: Profile) => p.tags.some((t) => t.name === 'remote' && t.value === 'hybrid'),
  },
  {
    name: 'educations_duration_min/max keep profiles with that many years of education',
    path: '/profiles/searching',
    base: sources,
    params: { educations_duration_min: 2, educations_duration_max: 3 },
    holds: (p: Profile) => yearsOf(p) >= 2 && yearsOf(p) <= 3,
  },
  {
    name: 'experience_location_* keep profiles with an experience in range',
    path: '/profiles/searching',
    base: sources,
    params: { experience_location_geopoint: lyon, experience_location_distance: 600 },
    holds: (p: Profile) => nearest(p.experiences) <= 600,
  },
  {
    name: 'education_location_* keep profiles with an education in range',
    path: '/profiles/searching',
    base: sources,
    params: { education_location_geopoint: lyon, education_location_distance: 600 },
    holds: (p: Profile) => nearest(p.educations) <= 600,
  },
  {
    name: 'stage keeps profiles a recruiter put at that stage for some job',
    path: '/profiles/searching',
    base: sources,
    params: { stage: 'yes' },
    holds: (p: Profile) => (p.labels ?? []).some((l) => l.stage === 'yes'),
  },
  {
    name: 'stage=new keeps profiles no recruiter has labelled',
    path: '/profiles/searching',
    base: sources,
    params: { stage: 'new' },
    holds: (p: Profile) => (p.labels ?? []).length === 0,
  },
  {
    name: 'timestamp_start/end (Unix seconds) bound the creation date',
    path: '/profiles/searching',
    base: sources,
    params: { timestamp_start: 1735689600, timestamp_end: '1751328000' },
    holds: (p: Profile) =>
      p.created_at >= '2025-01-01T00:00:00.000Z' && p.created_at <= '2025-07-01T00:00:00.000Z',
  },
];

describe('the SDKs’ older filters narrow the results', () => {
  it.each(
    cases.flatMap((c) => [
      { ...c, method: 'GET' as const },
      { ...c, method: 'POST' as const },
    ]),
  )('$name ($method)', async ({ path, base, params, holds, method }) => {
    const everything = await all(path, base, method);
    const found = await all(path, { ...base, ...params }, method);
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThan(everything.length);
    for (const item of found) expect(holds(item), item.key).toBe(true);
    const expected = everything
      .filter(holds)
      .map((i) => i.key)
      .sort();
    expect(found.map((i) => i.key).sort()).toEqual(expected);
  });

  it('splits profiles into stage=new and the labelled ones', async () => {
    const stages = await Promise.all(
      ['new', 'yes', 'later', 'no'].map((stage) =>
        all('/profiles/searching', { ...sources, stage }),
      ),
    );
    const [fresh = new Set<string>(), ...labelledSets] = stages.map(
      (items) => new Set<string>(items.map((i) => i.key)),
    );
    expect(fresh.size + labelledSets.reduce((n, s) => n + s.size, 0)).toBeGreaterThanOrEqual(
      fixtures.profiles.length,
    );
    for (const set of labelledSets) for (const key of set) expect(fresh.has(key)).toBe(false);
  });

  it('filters scoring by the stage of each profile for the scored job', async () => {
    const label = (labelled.labels ?? [])[0];
    const params = {
      ...sources,
      board_key: label?.board_key,
      job_key: label?.job_key,
      stage: label?.stage,
    };
    const found = await all('/profiles/scoring', params);
    expect(found.map((p) => p.key)).toContain(labelled.key);
    for (const p of found as Profile[]) {
      const own = (p.labels ?? []).find((l) => l.job_key === label?.job_key);
      expect(own?.stage).toBe(label?.stage);
    }
  });

  it('filters job scoring by the scored profile’s labels', async () => {
    const params = {
      ...boards,
      source_key: labelled.source_key,
      profile_key: labelled.key,
      stage: 'new',
    };
    const everything = await all('/jobs/scoring', { ...params, stage: undefined });
    const found = await all('/jobs/scoring', params);
    const named = new Set((labelled.labels ?? []).map((l) => l.job_key));
    expect(found.length).toBe(everything.length - named.size);
    for (const job of found) expect(named.has(job.key)).toBe(false);
  });

  it('ignores a profile-only filter sent to jobs, as any unknown name', async () => {
    const plain = await get(app, '/jobs/searching', boards);
    const withEmail = await get(app, '/jobs/searching', { ...boards, email: 'x@example.com' });
    expect(withEmail.body).toEqual(plain.body);
  });

  it('answers a radius without its point with a 400 naming the radius', async () => {
    const reply = await get<ErrorAnswer>(app, '/profiles/searching', {
      ...sources,
      experience_location_distance: 30,
    });
    expect(reply.status).toBe(400);
    expect(firstError(reply.body).param).toBe('experience_location_distance');
  });
});

describe('location_experience and location_education orders', () => {
  it.each([
    ['location_experience', 'experience_location_geopoint', (p: Profile) => nearest(p.experiences)],
    ['location_education', 'education_location_geopoint', (p: Profile) => nearest(p.educations)],
  ] as const)('%s ranks profiles by their nearest %s', async (sortBy, pointName, distance) => {
    const reply = await get<ProfilesSearching>(app, '/profiles/searching', {
      ...sources,
      [pointName]: lyon,
      [pointName.replace('geopoint', 'distance')]: 20000,
      sort_by: sortBy,
      limit: 50,
    });
    expect(reply.status).toBe(200);
    const distances = (reply.body.data.profiles as Profile[]).map(distance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
  });

  it('measures from location_geopoint when its own point is not sent', async () => {
    const reply = await get<ProfilesSearching>(app, '/profiles/searching', {
      ...sources,
      location_geopoint: lyon,
      location_distance: 20000,
      sort_by: 'location_education',
      order_by: 'asc',
      limit: 30,
    });
    const distances = (reply.body.data.profiles as Profile[]).map((p) => nearest(p.educations));
    expect(distances).toEqual([...distances].sort((a, b) => b - a));
  });

  it('ranks jobs by their own location', async () => {
    const reply = await get<JobsSearching>(app, '/jobs/searching', {
      ...boards,
      location_geopoint: lyon,
      location_distance: 20000,
      sort_by: 'location_experience',
    });
    const distances = (reply.body.data.jobs as Job[]).map((j) =>
      distanceKm(lyon, j.location as { lat: number; lng: number }),
    );
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
  });

  it.each(['location', 'location_experience', 'location_education'])(
    'orders by the default order for sort_by=%s when no point is sent',
    async (sortBy) => {
      const sorted = await get<ProfilesSearching>(app, '/profiles/searching', {
        ...sources,
        sort_by: sortBy,
      });
      const plain = await get<ProfilesSearching>(app, '/profiles/searching', sources);
      expect(sorted.status).toBe(200);
      expect(sorted.body.data).toEqual(plain.body.data);
      expect(sorted.body.meta).toEqual(plain.body.meta);
    },
  );

  it('still names a point that is sent malformed', async () => {
    const reply = await get<ErrorAnswer>(app, '/profiles/searching', {
      ...sources,
      sort_by: 'location_experience',
      experience_location_geopoint: '{"lat":91}',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.errors?.[0]).toMatchObject({ param: 'experience_location_geopoint' });
  });
});

describe('the scoring algorithm and switch, with the SDKs’ older names', () => {
  const scorings = [
    {
      path: '/profiles/scoring',
      base: { ...sources, board_key: target.profiles.board_key, job_key: target.profiles.job_key },
    },
    {
      path: '/jobs/scoring',
      base: { ...boards, source_key: target.jobs.source_key, profile_key: target.jobs.profile_key },
    },
  ];
  /** Ranked by score, so that another algorithm shows in the order as well as in the scores. */
  const scored = (path: string, base: Record<string, unknown>, params: Record<string, unknown>) =>
    get<Scoring>(app, path, { ...base, sort_by: 'scoring', limit: 30, ...params });

  it.each(scorings)(
    '$path scores with algorithm_key=default when algorithm_key is left out',
    async ({ path, base }) => {
      const omitted = await scored(path, base, {});
      expect(omitted.status).toBe(200);
      // The contract names the source's default algorithm `default`.
      const named = await scored(path, base, { algorithm_key: 'default' });
      expect(omitted.body).toEqual(named.body);
      const other = await scored(path, base, { algorithm_key: 'scorer-hrflow-profiles' });
      expect(other.body.data.predictions).not.toEqual(omitted.body.data.predictions);
    },
  );

  it.each(scorings)('$path takes algorithm_key over agent_key', async ({ path, base }) => {
    const both = await scored(path, base, { algorithm_key: 'alpha', agent_key: 'beta' });
    expect(both.status).toBe(200);
    expect(both.body).toEqual((await scored(path, base, { algorithm_key: 'alpha' })).body);
    const agent = await scored(path, base, { agent_key: 'beta' });
    expect(agent.body.data.predictions).not.toEqual(both.body.data.predictions);
  });

  it.each(scorings)('$path takes use_algorithm over use_agent', async ({ path, base }) => {
    const on = await get<Scoring>(app, path, { ...base, use_algorithm: 1, use_agent: 0 });
    expect(on.status).toBe(200);
    expect(on.body.data.predictions.length).toBeGreaterThan(0);
    expect(on.body).toEqual((await get(app, path, { ...base, use_algorithm: 1 })).body);
    const off = await get<Scoring>(app, path, { ...base, use_algorithm: 0, use_agent: 1 });
    expect(off.status).toBe(200);
    expect(off.body.data.predictions).toEqual([]);
    expect(off.body).toEqual((await get(app, path, { ...base, use_algorithm: 0 })).body);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetOf } from '../../src/hr/target.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import {
  type ErrorAnswer,
  errorParams,
  firstError,
  type JobsSearching,
  type ProfilesScoring,
  type ProfilesSearching,
} from '../support/answers.ts';
import { mockApp } from '../support/mock-app.ts';
import { JsHrflow, readAsJsSdk } from './support/js-sdk.ts';

// Started with a key, as a real deployment is: a request without the SDK's X-API-KEY gets a 401.
const API_KEY = 'sk_test';
const { app, fixtures } = mockApp({ apiKey: API_KEY });
const target = targetOf(app.state.store);
const sourceKeys = fixtures.sources.map((s) => s.key);
const boardKeys = fixtures.boards.map((b) => b.key);
const { board_key: boardKey, job_key: jobKey } = target.profiles;
let server: RunningServer;
let sdk: JsHrflow;

beforeAll(async () => {
  server = await startServer(app);
  sdk = new JsHrflow({ apiUrl: server.url, apiSecret: API_KEY });
});

afterAll(async () => {
  await server?.close();
});

/** Sends what the SDK built; a rejection carries the error envelope as `response`. */
async function call<Data = unknown>(request: Request): Promise<Data> {
  return readAsJsSdk<Data>(await fetch(request));
}

/** The same request with the SDK's order replaced, to compare with the canonical name. */
function sortedBy(request: Request, sortBy: string): Request {
  const url = new URL(request.url);
  url.searchParams.set('sort_by', sortBy);
  return new Request(url, { headers: request.headers });
}

async function rejection(request: Request): Promise<ErrorAnswer> {
  const error = await call(request).then(
    () => undefined,
    (e: { response: ErrorAnswer }) => e,
  );
  if (error === undefined) throw new Error('the SDK should have thrown its APIError');
  return error.response;
}

describe('the JavaScript SDK against the mock', () => {
  it("searches profiles with its README's options: date_reception, an unencoded date", async () => {
    const data = await call<ProfilesSearching['data']>(
      sdk.profile.searching.list(sourceKeys, {
        limit: 10,
        page: 1,
        order_by: 'asc',
        sort_by: 'date_reception',
        created_at_min: '2020-05-15T23:59:59.999Z',
        text_keywords: ['python', 'sql'],
      }),
    );
    const { profiles } = data;
    expect(profiles.length).toBe(10);
    const dates = profiles.map((p) => p.created_at);
    expect(dates).toEqual([...dates].sort());
    for (const p of profiles) {
      expect(p.text.toLowerCase()).toContain('python');
      expect(p.text.toLowerCase()).toContain('sql');
    }
  });

  it('scores profiles for a job without algorithm_key (it sends use_agent=1)', async () => {
    const request = sdk.profile.scoring.list(sourceKeys, boardKey, jobKey, {
      sort_by: 'date',
      limit: 5,
    });
    expect(new URL(request.url).searchParams.get('use_agent')).toBe('1');
    const data = await call<ProfilesScoring['data']>(request);
    expect(data.profiles).toHaveLength(5);
    expect(data.predictions).toHaveLength(5);
  });

  it('is refused with a 401 when its request lacks the X-API-KEY header', async () => {
    const request = sdk.profile.searching.list(sourceKeys, { limit: 1 });
    expect(request.headers.get('X-API-KEY')).toBe(API_KEY);
    const headers = new Headers(request.headers);
    headers.delete('X-API-KEY');
    const error = await rejection(new Request(request.url, { headers }));
    expect(error.code).toBe(401);
    expect(error.message).toMatch(/X-API-KEY/);
  });

  it('gets scored profiles newest first with sort_by=date, as with created_at', async () => {
    const request = sdk.profile.scoring.list(sourceKeys, boardKey, jobKey, {
      sort_by: 'date',
      limit: 20,
    });
    const data = await call<ProfilesScoring['data']>(request);
    const dates = data.profiles.map((p) => p.created_at);
    expect(dates).toHaveLength(20);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(data).toEqual(await call(sortedBy(request, 'created_at')));
  });

  it('searches jobs', async () => {
    const data = await call<JobsSearching['data']>(
      sdk.job.searching.get(boardKeys, { limit: 7, order_by: 'desc' }),
    );
    expect(data.jobs).toHaveLength(7);
  });

  it("filters jobs by name as its README's searching example does", async () => {
    const data = await call<JobsSearching['data']>(
      sdk.job.searching.get(boardKeys, { name: 'engineer', limit: 10, sort_by: 'date' }),
    );
    expect(data.jobs.length).toBeGreaterThan(0);
    for (const job of data.jobs) expect(job.name.toLowerCase()).toContain('engineer');
  });

  it('gets jobs newest first with sort_by=date, as with created_at', async () => {
    const request = sdk.job.searching.get(boardKeys, { sort_by: 'date', limit: 30 });
    const data = await call<JobsSearching['data']>(request);
    const dates = data.jobs.map((j) => j.created_at);
    expect(dates).toHaveLength(30);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(data).toEqual(await call(sortedBy(request, 'created_at')));
  });

  it('reaches /profiles/scoring with job.scoring.list, which is its profile scoring class', async () => {
    const request = sdk.job.scoring.list(sourceKeys, boardKey, jobKey, { limit: 3 });
    expect(new URL(request.url).pathname).toBe('/profiles/scoring');
    const data = await call<ProfilesScoring['data']>(request);
    expect(data.profiles).toHaveLength(3);
  });

  it('is told how to encode location_geopoint, which it sends as [object Object]', async () => {
    const request = sdk.profile.searching.list(sourceKeys, {
      location_geopoint: { lat: 45.764, lon: 4.8357 },
      location_distance: 40,
    });
    expect(new URL(request.url).searchParams.get('location_geopoint')).toBe('[object Object]');
    const error = await rejection(request);
    expect(error.code).toBe(400);
    expect(firstError(error).param).toBe('location_geopoint');
    expect(firstError(error).message).toMatch(/JSON\.stringify/);
  });

  it('searches near a point given as JSON text, {lat, lon} as its README writes it', async () => {
    const data = await call<ProfilesSearching['data']>(
      sdk.profile.searching.list(sourceKeys, {
        location_geopoint: JSON.stringify({ lat: 45.764, lon: 4.8357 }),
        location_distance: 400,
        limit: 5,
      }),
    );
    expect(data.profiles.length).toBeGreaterThan(0);
  });

  it('is told how to encode skills, whose objects it sends as "[object Object]"', async () => {
    const error = await rejection(
      sdk.profile.searching.list(sourceKeys, { skills: [{ name: 'python', value: 0.9 }] }),
    );
    expect(firstError(error).param).toBe('skills');
    expect(firstError(error).message).toMatch(/\[object Object\]/);
  });

  it('is told source_keys is wrong when called the way its README shows job scoring', async () => {
    const readme = {
      board_keys: boardKeys,
      agent_key: 'agent_key',
      profile_key: target.jobs.profile_key,
      source_key: target.jobs.source_key,
      limit: 10,
    };
    // The README passes one object; the method takes (source_keys, board_key, job_key, options).
    const error = await rejection(
      sdk.job.scoring.list(readme as never, undefined as never, undefined as never, {}),
    );
    expect(error.code).toBe(400);
    expect(errorParams(error)).toContain('source_keys');
  });
});

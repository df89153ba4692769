import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetOf } from '../../src/domain/target.ts';
import { type RunningServer, startServer } from '../../src/server.ts';
import { mockApp } from '../support/mock-app.ts';
import { JsHrflow, readAsJsSdk } from './support/js-sdk.ts';

const { app, fixtures } = mockApp();
const target = targetOf(app.store);
const sourceKeys = fixtures.sources.map((s) => s.key);
const boardKeys = fixtures.boards.map((b) => b.key);
const { board_key: boardKey, job_key: jobKey } = target.profiles;
let server: RunningServer;
let sdk: JsHrflow;

beforeAll(async () => {
  server = await startServer(app);
  sdk = new JsHrflow({ apiUrl: server.url, apiSecret: 'sk_test' });
});

afterAll(async () => {
  await server?.close();
});

/** Sends what the SDK built; a rejection carries the error envelope as `response`. */
async function call(request: Request): Promise<any> {
  return readAsJsSdk(await fetch(request));
}

async function rejection(request: Request): Promise<any> {
  const error = await call(request).then(
    () => undefined,
    (e: { response: unknown }) => e,
  );
  expect(error, 'the SDK should have thrown its APIError').toBeDefined();
  return error?.response;
}

describe('the JavaScript SDK against the mock', () => {
  it("searches profiles with its README's options: date_reception, an unencoded date", async () => {
    const data = await call(
      sdk.profile.searching.list(sourceKeys, {
        limit: 10,
        page: 1,
        order_by: 'asc',
        sort_by: 'date_reception',
        created_at_min: '2020-05-15T23:59:59.999Z',
        text_keywords: ['python', 'sql'],
      }),
    );
    const profiles = data.profiles as { created_at: string; text: string }[];
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
    const data = await call(request);
    expect(data.profiles).toHaveLength(5);
    expect(data.predictions).toHaveLength(5);
  });

  it('searches jobs', async () => {
    const data = await call(sdk.job.searching.get(boardKeys, { limit: 7, order_by: 'desc' }));
    expect(data.jobs).toHaveLength(7);
  });

  it("filters jobs by name as its README's searching example does", async () => {
    const data = await call(
      sdk.job.searching.get(boardKeys, { name: 'engineer', limit: 10, sort_by: 'date' }),
    );
    expect(data.jobs.length).toBeGreaterThan(0);
    for (const job of data.jobs) expect(job.name.toLowerCase()).toContain('engineer');
  });

  it('reaches /profiles/scoring with job.scoring.list, which is its profile scoring class', async () => {
    const request = sdk.job.scoring.list(sourceKeys, boardKey, jobKey, { limit: 3 });
    expect(new URL(request.url).pathname).toBe('/profiles/scoring');
    const data = await call(request);
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
    expect(error.errors[0].param).toBe('location_geopoint');
    expect(error.errors[0].message).toMatch(/JSON\.stringify/);
  });

  it('searches near a point given as JSON text, {lat, lon} as its README writes it', async () => {
    const data = await call(
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
    expect(error.errors[0].param).toBe('skills');
    expect(error.errors[0].message).toMatch(/\[object Object\]/);
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
    expect(error.errors.map((e: { param: string }) => e.param)).toContain('source_keys');
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtures } from '../../../mocks/build-fixtures.ts';
import { targetOf } from '../../../src/hr/target.ts';
import { type AppOptions, createApp } from '../../../src/http/app.ts';
import { type RunningServer, startServer } from '../../../src/node/server.ts';
import type { JournalPage, ScenarioList } from '../../support/admin-answers.ts';
import { type ErrorAnswer, errorParams } from '../../support/answers.ts';
import { nth } from '../../support/json-reads.ts';
import { query } from '../../support/mock-app.ts';

// The admin API over HTTP on a node server: the answer cache and the fast path are on, so a
// scenario must win over both.
const fixtures = buildFixtures({ profiles: 200, jobs: 60 });
const t = targetOf(createApp({ data: fixtures, log: false }).state.store);
const servers: RunningServer[] = [];

async function serve(options: Partial<AppOptions> = {}): Promise<string> {
  const app = createApp({ data: fixtures, log: false, ...options });
  const server = await startServer(app, { port: 0 });
  servers.push(server);
  return server.url;
}

afterAll(async () => {
  for (const server of servers) await server.close();
});

const searchParams = { source_keys: t.profiles.source_keys, limit: 3 };
const searching = `/profiles/searching?${query(searchParams)}`;
const grading = `/profiles/grading?${query({ algorithm_key: 'a', board_key: t.profiles.board_key, job_key: t.profiles.job_key, profile_ids: t.profiles.profile_ids })}`;

let url: string;
beforeAll(async () => {
  url = await serve();
});
/** A call that changes something: the admin API takes it as JSON only. */
function change(target: string, method: 'POST' | 'DELETE', headers: Record<string, string> = {}) {
  return fetch(target, { method, headers: { 'content-type': 'application/json', ...headers } });
}

afterEach(async () => {
  await change(`${url}/_mock/reset`, 'POST');
});

function use(scenario: unknown, base = url, headers: Record<string, string> = {}) {
  return fetch(`${base}/_mock/scenarios`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(scenario),
  });
}

async function journal(filter = '', base = url) {
  const response = await fetch(`${base}/_mock/requests${filter}`);
  return (await response.json()) as JournalPage;
}

describe('scenarios', () => {
  it('answers 201 with the scenario and its id', async () => {
    const response = await use({ path: '/profiles/searching', respond: { status: 500 } });
    const body = await response.json();
    expect(response.status).toBe(201);
    expect(body.data).toMatchObject({
      id: expect.any(String),
      path: '/profiles/searching',
      matched: 0,
    });
  });

  it('answers a forced documented status with its error envelope, over the answer cache', async () => {
    expect((await fetch(`${url}${searching}`)).status).toBe(200);
    await use({ path: '/profiles/searching', respond: { status: 500 } });
    const response = await fetch(`${url}${searching}`);
    expect(response.status).toBe(500);
    expect((await response.json()).code).toBe(500);
  });

  it('answers 429 with the error envelope and a Retry-After', async () => {
    await use({ path: '/profiles/searching', respond: { status: 429 } });
    const response = await fetch(`${url}${searching}`);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect((await response.json()).code).toBe(429);
  });

  it('adds the scenario headers to the answer', async () => {
    await use({
      path: '/profiles/searching',
      respond: { status: 503, headers: { 'Retry-After': '7' } },
    });
    const response = await fetch(`${url}${searching}`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('7');
  });

  it('answers a named example as Prefer does', async () => {
    await use({ path: '/profiles/searching', respond: { example: 'empty' } });
    const body = await (await fetch(`${url}${searching}`)).json();
    expect(body.data.profiles).toEqual([]);
    expect(body.meta.total).toBe(0);
  });

  it('waits the delay, then answers normally', async () => {
    await use({ path: '/profiles/searching', respond: { delay: 150 } });
    const started = performance.now();
    const response = await fetch(`${url}${searching}`);
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('applies times matching requests, then is spent', async () => {
    await use({ path: '/profiles/searching', respond: { status: 500 }, times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${url}${searching}`)).status);
    expect(statuses).toEqual([500, 500, 200]);
  });

  it('lets the newest matching scenario win, and plays a sequence of two with times', async () => {
    await use({ path: '/profiles/searching', respond: { status: 402 }, times: 1 });
    await use({ path: '/profiles/searching', respond: { status: 500 }, times: 1 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${url}${searching}`)).status);
    expect(statuses).toEqual([500, 402, 200]);
  });

  it('matches params read from the query of a GET and the body of a POST alike', async () => {
    await use({ path: '/profiles/searching', params: { limit: 3 }, respond: { status: 500 } });
    expect((await fetch(`${url}${searching}`)).status).toBe(500);
    const post = await fetch(`${url}/profiles/searching`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...searchParams, limit: '3' }),
    });
    expect(post.status).toBe(500);
    const other = await fetch(`${url}/profiles/searching?${query({ ...searchParams, limit: 4 })}`);
    expect(other.status).toBe(200);
  });

  it('applies only to its method when one is given', async () => {
    await use({ path: '/profiles/searching', method: 'POST', respond: { status: 500 } });
    expect((await fetch(`${url}${searching}`)).status).toBe(200);
  });

  it('matches the singular grading alias of a plural scenario', async () => {
    await use({ path: '/profiles/grading', respond: { status: 500 } });
    expect((await fetch(`${url}${grading.replace('/profiles/', '/profile/')}`)).status).toBe(500);
  });

  it('lists the scenarios with how many times each matched, and removes one or all', async () => {
    const { data } = await (
      await use({ path: '/jobs/searching', respond: { status: 500 } })
    ).json();
    await use({ path: '/jobs/scoring', respond: { status: 500 } });
    await fetch(`${url}/jobs/searching?${query({ board_keys: t.jobs.board_keys })}`);
    const listed: ScenarioList = await (await fetch(`${url}/_mock/scenarios`)).json();
    expect(listed.data.map((s) => [s.path, s.matched])).toEqual([
      ['/jobs/searching', 1],
      ['/jobs/scoring', 0],
    ]);
    expect((await change(`${url}/_mock/scenarios/${data.id}`, 'DELETE')).status).toBe(200);
    expect((await change(`${url}/_mock/scenarios/${data.id}`, 'DELETE')).status).toBe(404);
    await change(`${url}/_mock/scenarios`, 'DELETE');
    expect((await (await fetch(`${url}/_mock/scenarios`)).json()).data).toEqual([]);
  });

  it.each([
    [{ respond: { status: 500 } }, 'path'],
    [{ path: '/nowhere', respond: { status: 500 } }, 'path'],
    [{ path: '/profiles/searching' }, 'respond'],
    [{ path: '/profiles/searching', respond: { status: 99 } }, 'respond.status'],
    [{ path: '/profiles/searching', respond: { example: 'ungradable' } }, 'respond.example'],
    [{ path: '/profiles/searching', respond: { fault: 'explode' } }, 'respond.fault'],
    [{ path: '/profiles/grading', method: 'POST', respond: { status: 500 } }, 'method'],
    [{ path: '/profiles/searching', respond: { status: 500 }, times: 0 }, 'times'],
  ])('refuses a bad scenario %j with a 400 naming %s', async (scenario, param) => {
    const response = await use(scenario);
    const body: ErrorAnswer = await response.json();
    expect(response.status).toBe(400);
    expect(errorParams(body)).toContain(param);
  });
});

describe('the journal', () => {
  it('keeps each request, oldest first, with its operation, decoded params and status', async () => {
    await fetch(`${url}${searching}`);
    await fetch(`${url}${searching}`);
    await fetch(`${url}/profiles/scoring`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limit: 2 }),
    });
    const { data, meta } = await journal();
    expect(data.map((e) => [e.method, e.path, e.operation, e.status])).toEqual([
      ['GET', '/profiles/searching', 'searchProfiles', 200],
      ['GET', '/profiles/searching', 'searchProfiles', 200],
      ['POST', '/profiles/scoring', 'scoreProfilesPost', 400],
    ]);
    expect(nth(data, 0).params).toEqual({ source_keys: t.profiles.source_keys, limit: 3 });
    expect(nth(data, 2).params).toEqual({ limit: 2 });
    expect(meta).toEqual({ total: 3, dropped: 0 });
  });

  it('filters by path, method and status, and records the scenario that answered', async () => {
    const { data: scenario } = await (
      await use({ path: '/profiles/searching', respond: { status: 500 }, times: 1 })
    ).json();
    await fetch(`${url}${searching}`);
    await fetch(`${url}${searching}`);
    await fetch(`${url}${grading}`);
    expect((await journal('?path=/profiles/searching')).data).toHaveLength(2);
    expect((await journal('?status=500')).data.map((e) => e.scenario)).toEqual([scenario.id]);
    expect((await journal('?method=GET&path=/profile/grading')).data).toHaveLength(1);
  });

  it('does not journal admin calls', async () => {
    await fetch(`${url}/_mock/scenarios`);
    expect((await journal()).meta.total).toBe(0);
  });

  it('empties on DELETE /_mock/requests', async () => {
    await fetch(`${url}${searching}`);
    await change(`${url}/_mock/requests`, 'DELETE');
    expect((await journal()).data).toEqual([]);
  });

  it('never keeps an API key or any header named to redact', async () => {
    const base = await serve({ apiKey: 'sekret-key-123', redactHeaders: ['X-Session'] });
    const headers = {
      'X-API-KEY': 'sekret-key-123',
      authorization: 'Bearer tok-456',
      'x-session': 'sess-789',
      cookie: 'a=cookie-0',
    };
    await fetch(`${base}${searching}`, { headers });
    await fetch(`${base}${searching}`, { headers });
    const text = await (await fetch(`${base}/_mock/requests`, { headers })).text();
    expect(JSON.parse(text).data).toHaveLength(2);
    for (const secret of ['sekret-key-123', 'tok-456', 'sess-789', 'cookie-0'])
      expect(text).not.toContain(secret);
    expect(JSON.parse(text).data[0].headers['x-api-key']).toBe('[redacted]');
  });

  it('keeps at most --journal-size requests and counts the dropped', async () => {
    const base = await serve({ journalSize: 2 });
    for (let i = 1; i <= 5; i++)
      await fetch(`${base}/profiles/searching?${query({ ...searchParams, limit: i })}`);
    const { data, meta } = await journal('', base);
    expect(data.map((e) => e.params.limit)).toEqual([4, 5]);
    expect(meta).toEqual({ total: 5, dropped: 3 });
  });

  it('keeps nothing with a journal size of 0', async () => {
    const base = await serve({ journalSize: 0 });
    await fetch(`${base}${searching}`);
    expect((await journal('', base)).data).toEqual([]);
  });
});

describe('reset, auth and --admin off', () => {
  it('removes every scenario and empties the journal on POST /_mock/reset', async () => {
    await use({ path: '/profiles/searching', respond: { status: 500 } });
    await fetch(`${url}${searching}`);
    expect((await change(`${url}/_mock/reset`, 'POST')).status).toBe(200);
    expect((await (await fetch(`${url}/_mock/scenarios`)).json()).data).toEqual([]);
    expect((await journal()).data).toEqual([]);
    expect((await fetch(`${url}${searching}`)).status).toBe(200);
  });

  it('requires the API key on admin calls under --api-key', async () => {
    const base = await serve({ apiKey: 'k1' });
    expect((await fetch(`${base}/_mock/requests`)).status).toBe(401);
    expect((await use({ path: '/jobs/searching', respond: { status: 500 } }, base)).status).toBe(
      401,
    );
    expect((await change(`${base}/_mock/reset`, 'POST')).status).toBe(401);
    expect(
      (
        await use({ path: '/jobs/searching', respond: { status: 500 } }, base, {
          'x-api-key': 'k1',
        })
      ).status,
    ).toBe(201);
  });

  it('has no admin API with admin off', async () => {
    const base = await serve({ admin: false });
    expect((await fetch(`${base}/_mock/requests`)).status).toBe(404);
    expect((await use({ path: '/jobs/searching', respond: { status: 500 } }, base)).status).toBe(
      404,
    );
  });

  it('keeps the admin API at the root under a base path', async () => {
    const base = await serve({ basePath: '/v1' });
    await use({ path: '/v1/profiles/searching', respond: { status: 500 } }, base);
    expect((await fetch(`${base}/v1${searching}`)).status).toBe(500);
    expect((await journal('?path=/profiles/searching', base)).data).toHaveLength(1);
  });
});

import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../../src/api/start-mock.ts';
import { createMockFetch } from '../../../src/browser/mock-fetch.ts';
import { mswResolver } from '../../../src/browser/msw.ts';
import type { ScenarioInput } from '../../../src/http/admin/scenarios.ts';
import type { ScenarioAdded } from '../../support/admin-answers.ts';
import { type ErrorAnswer, errorParams } from '../../support/answers.ts';
import { query } from '../../support/mock-app.ts';

// `respond: [a, b, c]`: each answer once, in order, then the last one again; checked by the one
// parser whichever door a scenario comes in by (admin API, use(), the page's mock, MSW).
let mock: RunningMock;
let searching: string;
beforeAll(async () => {
  mock = await startMock({ profiles: 60, jobs: 20, seed: 42 });
  searching = `/profiles/searching?${query({ source_keys: mock.target.profiles.source_keys, limit: 2 })}`;
});
afterAll(() => mock.close());

const JSON_TYPE = { 'content-type': 'application/json' };

/** `POST /_mock/scenarios`: the answer's `body` read as `Body`, the answer the test expects. */
async function addScenario<Body = unknown>(body: unknown): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${mock.url}/_mock/scenarios`, {
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function statuses(count: number, get: () => Promise<Response>): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await get();
    await response.arrayBuffer();
    seen.push(response.status);
  }
  return seen;
}

const threeStatuses: ScenarioInput = {
  path: '/profiles/searching',
  respond: [{ status: 503 }, { status: 429 }, { status: 200 }],
};

describe('a respond list over the admin API', () => {
  it('plays each answer once in order, then repeats the last one', async () => {
    mock.reset();
    const added = await addScenario<ScenarioAdded>(threeStatuses);
    expect(added.status).toBe(201);
    expect(added.body.data.respond).toEqual(threeStatuses.respond);
    const seen = await statuses(5, () => fetch(`${mock.url}${searching}`));
    expect(seen).toEqual([503, 429, 200, 200, 200]);
  });

  it('stops after times, counted over the whole list', async () => {
    mock.reset();
    await addScenario({
      path: '/profiles/searching',
      respond: [{ status: 500 }, { status: 502 }],
      times: 3,
    });
    const seen = await statuses(4, () => fetch(`${mock.url}${searching}`));
    expect(seen).toEqual([500, 502, 502, 200]);
    expect(mock.requests().map((e) => e.scenario === null)).toEqual([false, false, false, true]);
  });

  it('journals each request with the scenario that answered it', async () => {
    mock.reset();
    const { body } = await addScenario<ScenarioAdded>({
      path: '/profiles/searching',
      respond: [{ status: 500 }, { example: 'empty' }],
    });
    await statuses(2, () => fetch(`${mock.url}${searching}`));
    expect(mock.requests().map((e) => [e.status, e.scenario])).toEqual([
      [500, body.data.id],
      [200, body.data.id],
    ]);
  });

  it('refuses an empty list with a 400 naming respond', async () => {
    const reply = await addScenario<ErrorAnswer>({ path: '/profiles/searching', respond: [] });
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([
      { param: 'respond', message: expect.stringContaining('an empty list') },
    ]);
  });

  it('refuses a bad answer in the list with a 400 naming its index', async () => {
    const reply = await addScenario<ErrorAnswer>({
      path: '/profiles/searching',
      respond: [{ status: 500 }, { status: 99 }, { fault: 'gone' }],
    });
    expect(reply.status).toBe(400);
    expect(errorParams(reply.body)).toEqual(['respond[1].status', 'respond[2].fault']);
  });

  it('names the index of a refused header in the list', async () => {
    const reply = await addScenario<ErrorAnswer>({
      path: '/profiles/searching',
      respond: [{ status: 503, headers: { Connection: 'close' } }],
    });
    expect(errorParams(reply.body)).toEqual(['respond[0].headers.Connection']);
  });

  it('refuses a list of more than 100 answers with a 400 naming respond', async () => {
    const respond = Array.from({ length: 101 }, () => ({ status: 500 }));
    const reply = await addScenario<ErrorAnswer>({ path: '/profiles/searching', respond });
    expect(reply.status).toBe(400);
    expect(errorParams(reply.body)).toEqual(['respond']);
  });

  it('keeps only the known fields of each answer', async () => {
    mock.reset();
    const reply = await addScenario<ScenarioAdded>({
      path: '/profiles/searching',
      respond: [{ status: 500, note: 'x' }, { delay: 0 }],
    });
    expect(reply.body.data.respond).toEqual([{ status: 500 }, { delay: 0 }]);
  });
});

describe('a respond list set with use()', () => {
  it('plays in order on the running mock', async () => {
    mock.reset();
    mock.use(threeStatuses);
    const seen = await statuses(4, () => fetch(`${mock.url}${searching}`));
    expect(seen).toEqual([503, 429, 200, 200]);
  });

  it('throws on an empty list, naming respond', () => {
    expect(() => mock.use({ path: '/profiles/searching', respond: [] })).toThrow(
      /respond must be one answer or a list/,
    );
  });
});

describe('a respond list in the page', () => {
  it('plays in order through createMockFetch()', async () => {
    const mockFetch = createMockFetch({ profiles: 60, jobs: 20 });
    mockFetch.use(threeStatuses);
    const seen = await statuses(4, () => mockFetch(new Request(`http://page.test${searching}`)));
    expect(seen).toEqual([503, 429, 200, 200]);
  });

  it('throws on an empty list in createMockFetch().use()', () => {
    const mockFetch = createMockFetch({ profiles: 60, jobs: 20 });
    expect(() => mockFetch.use({ path: '/profiles/searching', respond: [] })).toThrow(
      /respond must be one answer or a list/,
    );
  });

  it('plays in order through the MSW resolver', async () => {
    const mockFetch = createMockFetch({ profiles: 60, jobs: 20 });
    const server = setupServer(http.all('http://msw.test/*', mswResolver(mockFetch)));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      mockFetch.use(threeStatuses);
      const seen = await statuses(4, () => fetch(`http://msw.test${searching}`));
      expect(seen).toEqual([503, 429, 200, 200]);
    } finally {
      server.close();
    }
  });
});

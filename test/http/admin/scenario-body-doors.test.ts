import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../../src/api/start-mock.ts';
import { createMockFetch } from '../../../src/browser/mock-fetch.ts';
import { mswResolver } from '../../../src/browser/msw.ts';
import type { ScenarioInput } from '../../../src/http/admin/scenarios.ts';
import type { ProfilesSearching } from '../../support/answers.ts';
import { query } from '../../support/mock-app.ts';

// `body`, `patch` and `headers` the same through every door: the admin API on a port, use() on
// Node, createMockFetch() as a page runs it, and MSW. The contract warning is Node's only.
let mock: RunningMock;
let searching: string;
beforeAll(async () => {
  mock = await startMock({ profiles: 60, jobs: 20, seed: 42 });
  searching = `/profiles/searching?${query({ source_keys: mock.target.profiles.source_keys, limit: 1 })}`;
});
afterAll(() => mock.close());

const WARNING = 'x-hrmock-warning';

/** For tenant `acme` only: the answer's `meta` removed and its message changed. */
const patchForAcme: ScenarioInput = {
  path: '/profiles/searching',
  headers: { 'X-Tenant': 'acme' },
  respond: { patch: { message: 'Patched.', meta: null } },
};

describe('on a port (hrmock serve, startMock)', () => {
  it('takes body, patch and headers over POST /_mock/scenarios, with the warning', async () => {
    mock.reset();
    const added = await fetch(`${mock.url}/_mock/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(patchForAcme),
    });
    expect(added.status).toBe(201);
    const plain = await fetch(`${mock.url}${searching}`);
    expect(((await plain.json()) as ProfilesSearching).message).not.toBe('Patched.');
    const patched = await fetch(`${mock.url}${searching}`, { headers: { 'x-tenant': 'acme' } });
    const body = (await patched.json()) as Record<string, unknown>;
    expect(body.message).toBe('Patched.');
    expect(body).not.toHaveProperty('meta');
    expect(patched.headers.get(WARNING)).toMatch(/required property 'meta'/);
  });

  it('answers a body set with use(), warning when it breaks the contract', async () => {
    mock.reset();
    mock.use({
      path: '/profiles/searching',
      respond: { body: { code: 'x', message: 'Down.' }, status: 500 },
    });
    const response = await fetch(`${mock.url}${searching}`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ code: 'x', message: 'Down.' });
    expect(response.headers.get(WARNING)).toMatch(
      /GET \/profiles\/searching 500\): \/code must be integer/,
    );
  });
});

describe('in a page (createMockFetch, MSW)', () => {
  it('answers body, patch and headers through createMockFetch(), unchecked', async () => {
    const mockFetch = createMockFetch({ profiles: 60, jobs: 20 });
    mockFetch.use(patchForAcme);
    mockFetch.use({
      path: '/profiles/searching',
      headers: { 'X-Tenant': 'zeta' },
      respond: { body: [] },
    });
    const acme = await mockFetch(
      new Request(`http://page.test${searching}`, { headers: { 'X-Tenant': 'acme' } }),
    );
    expect(((await acme.json()) as ProfilesSearching).message).toBe('Patched.');
    expect(acme.headers.get(WARNING)).toBeNull();
    const zeta = await mockFetch(
      new Request(`http://page.test${searching}`, { headers: { 'X-Tenant': 'zeta' } }),
    );
    expect(await zeta.json()).toEqual([]);
    expect((await mockFetch(new Request(`http://page.test${searching}`))).status).toBe(200);
  });

  it('answers body, patch and headers through the MSW resolver', async () => {
    const mockFetch = createMockFetch({ profiles: 60, jobs: 20 });
    const server = setupServer(http.all('http://msw.test/*', mswResolver(mockFetch)));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      mockFetch.use(patchForAcme);
      mockFetch.use({ path: '/profiles/searching', respond: { body: { only: 'this' } }, times: 1 });
      expect(await (await fetch(`http://msw.test${searching}`)).json()).toEqual({ only: 'this' });
      const acme = await fetch(`http://msw.test${searching}`, { headers: { 'X-Tenant': 'acme' } });
      expect(((await acme.json()) as ProfilesSearching).message).toBe('Patched.');
    } finally {
      server.close();
    }
  });
});

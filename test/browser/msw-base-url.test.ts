import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lazyFixtures } from '../../mocks/lazy-fixtures.ts';
import { createMockFetch, mswHandlers } from '../../src/browser/index.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { query } from '../support/mock-app.ts';

// docs/browser.md's MSW wiring: the API's base URL in one option, the handlers made from it.
const API = 'https://api.example.com/v1';
const mockFetch = createMockFetch({ seed: 42, profiles: 200, jobs: 50, baseUrl: API });
const onPath = createMockFetch({ seed: 42, profiles: 200, jobs: 50, baseUrl: '/v2' });
const server = setupServer(...mswHandlers(http, mockFetch), ...mswHandlers(http, onPath));

// What `hrmock serve --base-path /v1` answers for the same seed and sizes.
const app = createApp({
  data: lazyFixtures({ seed: 42, profiles: 200, jobs: 50 }),
  basePath: '/v1',
  log: false,
});
const t = targetOf(app.state.store);
const searching = `/profiles/searching?${query({ source_keys: t.profiles.source_keys, text_keywords: ['python'], limit: 5 })}`;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('createMockFetch({ baseUrl }) with mswHandlers under msw/node', () => {
  it('answers a search under the base URL with 200, as serve --base-path does', async () => {
    const got = await fetch(`${API}${searching}`);
    expect(got.status).toBe(200);
    const expected = await (await app.request(`/v1${searching}`)).json();
    expect(expected.meta.total).toBeGreaterThan(0);
    expect(await got.json()).toEqual(expected);
  });

  it("answers the SDKs' singular grading path and the target under the base URL", async () => {
    const { algorithm_key, board_key, job_key, profile_ids } = t.profiles;
    const grading = `/profile/grading?${query({ algorithm_key, board_key, job_key, profile_ids })}`;
    const got = await fetch(`${API}${grading}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(await (await app.request(`/v1${grading}`)).json());
    expect((await fetch(`${API}/_mock/target`)).status).toBe(200);
  });

  it('gives a network error, not a 500, for a reset fault, with no wrapping of its own', async () => {
    mockFetch.use({ path: '/profiles/searching', respond: { fault: 'reset' }, times: 1 });
    await expect(fetch(`${API}${searching}`)).rejects.toThrow(TypeError);
    expect((await fetch(`${API}${searching}`)).status).toBe(200);
    mockFetch.reset();
  });

  it('answers a base URL given as a path on any origin', async () => {
    const got = await fetch(`http://localhost:5173/v2${searching}`);
    expect(got.status).toBe(200);
    expect((await got.json()).meta.total).toBeGreaterThan(0);
  });

  it.each([
    ['the API origin outside the base path', `https://api.example.com${searching}`],
    ['another origin under the base path', `https://other.example/v1${searching}`],
  ])('leaves %s unhandled', async (_, url) => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(fetch(url)).rejects.toThrow();
    expect(String(printed.mock.calls[0]?.[0])).toMatch(/without a matching request handler/);
    printed.mockRestore();
  });
});

describe('createMockFetch({ baseUrl }) refusals', () => {
  it.each([
    ['ftp://api.example.com/v1'],
    ['api.example.com/v1'],
    ['https://api.example.com/v1?key=1'],
  ])('refuses %s when created, naming the option', (baseUrl) => {
    expect(() => createMockFetch({ baseUrl })).toThrow(/^baseUrl must be the API's base URL/);
  });

  it('refuses baseUrl and basePath together', () => {
    expect(() => createMockFetch({ baseUrl: API, basePath: '/v1' })).toThrow(/not both/);
  });

  it('still takes basePath alone', async () => {
    const onBasePath = createMockFetch({ profiles: 20, jobs: 5, basePath: 'v3/' });
    expect(onBasePath.base).toEqual({ origin: undefined, path: '/v3' });
    const got = await onBasePath(new Request('http://localhost/v3/_mock/target'));
    expect(got.status).toBe(200);
  });
});

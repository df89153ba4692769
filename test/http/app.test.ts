import { describe, expect, it } from 'vitest';
import type { Target } from '../../contract/suite/target.ts';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { createApp } from '../../src/http/app.ts';
import type { ErrorAnswer } from '../support/answers.ts';
import { get, mockApp, send } from '../support/mock-app.ts';

const { app, fixtures } = mockApp();
const sources = { source_keys: fixtures.sources.map((s) => s.key) };

describe('the app around the contract', () => {
  it('lets any origin call it (CORS)', async () => {
    const response = await app.request('/profiles/searching', {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('serves the contract as YAML and JSON', async () => {
    const yaml = await app.request('/openapi.yaml');
    expect(await yaml.text()).toMatch(/^openapi: 3\.1\.0/);
    const json = await (await app.request('/openapi.json')).json();
    expect(Object.keys(json.paths)).toHaveLength(8);
  });

  it('serves a target with at least 10 profile_ids and 10 job_ids that exist', async () => {
    const { body } = await send<{ data: Target }>(app, '/_mock/target');
    expect(body.data.profiles.profile_ids.length).toBeGreaterThanOrEqual(10);
    expect(body.data.jobs.job_ids.length).toBeGreaterThanOrEqual(10);
    for (const id of body.data.profiles.profile_ids) {
      expect(app.state.store.profile.byKey.has(`${id.source_key}/${id.profile_key}`)).toBe(true);
    }
  });
});

describe('--base-path', () => {
  const v1 = createApp({ data: fixtures, basePath: '/v1', log: false });

  it('serves the operations under the base path', async () => {
    const { status } = await get(v1, '/v1/profiles/searching', sources);
    expect(status).toBe(200);
  });

  it('answers 404 outside the base path', async () => {
    const { status } = await send(
      v1,
      `/profiles/searching?source_keys=${encodeURIComponent(JSON.stringify(sources.source_keys))}`,
    );
    expect(status).toBe(404);
  });
});

describe('--api-key', () => {
  const locked = createApp({ data: fixtures, apiKey: 's3cret', log: false });
  const url = `/profiles/searching?source_keys=${encodeURIComponent(JSON.stringify(sources.source_keys))}`;

  it('answers 401 without X-API-KEY', async () => {
    const { status, body } = await send<ErrorAnswer>(locked, url);
    expect(status).toBe(401);
    expect(body.message).toMatch(/X-API-KEY/);
  });

  it('answers 401 with a wrong X-API-KEY', async () => {
    const { status } = await send(
      locked,
      new Request(`http://localhost${url}`, { headers: { 'X-API-KEY': 's3cre' } }),
    );
    expect(status).toBe(401);
  });

  it('answers with the right X-API-KEY', async () => {
    const { status } = await send(
      locked,
      new Request(`http://localhost${url}`, { headers: { 'X-API-KEY': 's3cret' } }),
    );
    expect(status).toBe(200);
  });
});

describe('the request log', () => {
  it('writes one line per request: method, path, status, milliseconds', async () => {
    const lines: string[] = [];
    const logged = createApp({
      data: buildFixtures({ profiles: 30, jobs: 10 }),
      log: (l) => lines.push(l),
    });
    await logged.request('/profiles/searching');
    await logged.request('/nowhere');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/profiles\/searching 400 \d+\.\dms$/);
    expect(lines[1]).toMatch(/^GET \/nowhere 404 \d+\.\dms$/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../src/api/start-mock.ts';
import { mockApp, query } from '../support/mock-app.ts';

const { app, fixtures } = mockApp();
const searching = `/profiles/searching?${query({ source_keys: fixtures.sources.map((s) => s.key), limit: 2 })}`;
const origin = 'http://localhost:5173';

describe('CORS of the API for apps', () => {
  it('exposes Retry-After, Allow and X-Hrmock-Warning on an answer to another origin', async () => {
    const response = await app.request(searching, { headers: { Origin: origin } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = response.headers.get('access-control-expose-headers') ?? '';
    for (const name of ['Retry-After', 'Allow', 'X-Hrmock-Warning'])
      expect(exposed).toContain(name);
  });

  it('exposes Retry-After on a 429 asked for with Prefer: code=429', async () => {
    const response = await app.request(searching, {
      headers: { Origin: origin, Prefer: 'code=429' },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.headers.get('access-control-expose-headers')).toContain('Retry-After');
  });

  it('exposes the headers on an error envelope too', async () => {
    const response = await app.request('/profiles/searching', { headers: { Origin: origin } });
    expect(response.status).toBe(400);
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Hrmock-Warning');
  });

  it('allows Authorization and the headers a preflight asks for, with Vary', async () => {
    const response = await app.request('/profiles/searching', {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, x-custom',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    expect(allowed.split(/,\s*/)).toEqual(expect.arrayContaining(['authorization', 'x-custom']));
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('vary')).toContain('Access-Control-Request-Headers');
  });

  it('echoes no requested header list that is too long or not a list of names', async () => {
    for (const asked of [`x-${'a'.repeat(2000)}`, 'x-ok, bad header\u0000']) {
      const response = await app.request('/profiles/searching', {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': asked.replace('\u0000', ';'),
        },
      });
      expect(response.status).toBe(204);
      const allowed = response.headers.get('access-control-allow-headers') ?? '';
      expect(allowed.length).toBeLessThan(200);
      expect(allowed).toContain('Authorization');
    }
  });

  it('still refuses a preflight of the admin API from another origin', async () => {
    const response = await app.request('/_mock/scenarios', {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS on a port (fast path, answer cache, --rate-limit)', () => {
  let mock: RunningMock;
  let url: string;

  beforeAll(async () => {
    mock = await startMock({ profiles: 60, jobs: 20, rateLimit: 2 });
    url = `${mock.url}/profiles/searching?${query({ source_keys: mock.target.profiles.source_keys, limit: 2 })}`;
  });
  afterAll(() => mock.close());

  it('exposes the same headers on a fast, a cached and a rate-limited answer', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await fetch(url, { headers: { Origin: origin } }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429, 429]);
    for (const answer of answers)
      expect(answer.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(answers[2]?.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('answers a preflight past the rate, uncounted', async () => {
    const response = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toContain('Authorization');
  });
});

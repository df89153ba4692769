import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { AnswerCache, hashKey } from '../../src/node/answer-cache.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import { query } from '../support/mock-app.ts';

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** A request through node:http, which (unlike fetch) shows the bytes as sent, gzip included. */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const fixtures = buildFixtures({ profiles: 200, jobs: 60 });
const cachedApp = createApp({ data: fixtures, log: false });
const plainApp = createApp({ data: fixtures, log: false });
const fetchSpy = vi.spyOn(cachedApp, 'fetch');
let cached: RunningServer;
let plain: RunningServer;
const t = targetOf(cachedApp.state.store);

beforeAll(async () => {
  // The app behind the cache is counted through fetch: answer everything through Hono here.
  cached = await startServer(cachedApp, { fastPath: false });
  plain = await startServer(plainApp, { answerCacheBytes: 0 });
});

afterAll(async () => {
  await cached.close();
  await plain.close();
});

const grading = `/profiles/grading?${query({ algorithm_key: 'a', board_key: t.profiles.board_key, job_key: t.profiles.job_key, profile_ids: t.profiles.profile_ids })}`;
const searching = JSON.stringify({
  source_keys: t.profiles.source_keys,
  text_keywords: ['e'],
  limit: 20,
});
const json = { 'content-type': 'application/json' };

const requests: [
  string,
  string,
  { method?: string; headers?: Record<string, string>; body?: string },
][] = [
  ['a grading GET', grading, {}],
  ['a searching POST', '/profiles/searching', { method: 'POST', headers: json, body: searching }],
  ['a bad GET', '/profiles/searching?limit=0', {}],
  ['a malformed POST', '/profiles/scoring', { method: 'POST', headers: json, body: '{"a":' }],
  [
    'a non-JSON POST',
    '/jobs/searching',
    { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' },
  ],
  ['a wrong method', '/jobs/grading', { method: 'DELETE' }],
  ['an unknown path', '/nope', {}],
  ['a CORS GET', grading, { headers: { origin: 'http://localhost:5173' } }],
];

describe('the answer cache in front of the app', () => {
  it.each(requests)(
    'answers %s exactly as the app does, the first time and the next',
    async (_, path, options) => {
      const expected = await raw(`${plain.url}${path}`, options);
      for (let i = 0; i < 2; i++) {
        const got = await raw(`${cached.url}${path}`, options);
        expect(got.status).toBe(expected.status);
        expect(got.body.toString()).toBe(expected.body.toString());
        for (const header of ['content-type', 'allow', 'access-control-allow-origin']) {
          expect(got.headers[header]).toEqual(expected.headers[header]);
        }
      }
    },
  );

  it('runs the app once for a repeated request', async () => {
    const path = `${grading}&return_profile=1`;
    fetchSpy.mockClear();
    await raw(`${cached.url}${path}`);
    await raw(`${cached.url}${path}`);
    await raw(`${cached.url}${path}`);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it('runs the app again when the body differs', async () => {
    fetchSpy.mockClear();
    await raw(`${cached.url}/jobs/searching`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ board_keys: t.jobs.board_keys, limit: 3 }),
    });
    await raw(`${cached.url}/jobs/searching`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ board_keys: t.jobs.board_keys, limit: 4 }),
    });
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });

  it('never answers from the cache for a request with a Prefer header', async () => {
    fetchSpy.mockClear();
    await raw(`${cached.url}${grading}`, { headers: { prefer: 'code=200' } });
    await raw(`${cached.url}${grading}`, { headers: { prefer: 'code=200' } });
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });

  it('gzips an answer for a client that accepts gzip, to the same JSON', async () => {
    const identity = await raw(`${cached.url}/profiles/searching`, {
      method: 'POST',
      headers: json,
      body: searching,
    });
    const zipped = await raw(`${cached.url}/profiles/searching`, {
      method: 'POST',
      headers: { ...json, 'accept-encoding': 'gzip, br' },
      body: searching,
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/);
    expect(zipped.body.length).toBeLessThan(identity.body.length / 2);
    expect(gunzipSync(zipped.body).toString()).toBe(identity.body.toString());
  });
});

describe('AnswerCache', () => {
  const answer = (bytes: number) => ({ status: 200, headers: [], body: Buffer.alloc(bytes) });
  const key = (url: string, body?: string, context = '0\nGET') => ({
    context,
    url,
    body: body === undefined ? undefined : Buffer.from(body),
  });

  it('keeps the most recently used answers within its bytes', () => {
    const cache = new AnswerCache(40_000);
    for (let i = 0; i < 20; i++) cache.set(key(`k${i}`), answer(3_000));
    expect(cache.size).toBeLessThan(10);
    expect(cache.get(key('k19'))).toBeDefined();
    expect(cache.get(key('k0'))).toBeUndefined();
  });

  it('keeps an answer that is read often', () => {
    const cache = new AnswerCache(40_000);
    cache.set(key('hot'), answer(3_000));
    for (let i = 0; i < 20; i++) {
      cache.get(key('hot'));
      cache.set(key(`k${i}`), answer(3_000));
    }
    expect(cache.get(key('hot'))).toBeDefined();
  });

  it('does not keep an answer larger than an eighth of its bytes', () => {
    const cache = new AnswerCache(40_000);
    cache.set(key('big'), answer(6_000));
    expect(cache.get(key('big'))).toBeUndefined();
  });

  it('tells keys apart by context, URL and body even when every hash collides', () => {
    const cache = new AnswerCache(40_000, () => 7);
    const first = answer(10);
    cache.set(key('/a', '{"x":1}'), first);
    expect(cache.get(key('/a', '{"x":1}'))).toBe(first);
    for (const other of [
      key('/a', '{"x":2}'),
      key('/b', '{"x":1}'),
      key('/a'),
      key('/a', '{"x":1}', '1\nGET'),
    ]) {
      expect(cache.get(other)).toBeUndefined();
    }
    // The newer of two colliding keys replaces the older: fewer answers kept, never a wrong one.
    const second = answer(20);
    cache.set(key('/b'), second);
    expect(cache.size).toBe(1);
    expect(cache.get(key('/a', '{"x":1}'))).toBeUndefined();
    expect(cache.get(key('/b'))).toBe(second);
  });

  it('keeps its own copy of a body, so reuse of the request buffer cannot change the key', () => {
    const cache = new AnswerCache(40_000);
    const body = Buffer.from('{"x":1}');
    cache.set({ context: 'c', url: '/a', body }, answer(10));
    body.write('{"x":2}');
    expect(cache.get(key('/a', '{"x":1}', 'c'))).toBeDefined();
  });
});

describe('hashKey', () => {
  const base = { context: '0\nGET\n\n\n', url: '/profiles/grading?x=1', body: undefined };

  it('gives the same hash for equal keys and a 53-bit integer', () => {
    const hash = hashKey(base);
    expect(hashKey({ ...base, url: `/profiles/grading?x=${1}` })).toBe(hash);
    expect(Number.isSafeInteger(hash) && hash >= 0).toBe(true);
  });

  it('spreads keys that differ in one byte anywhere, in every part, at any length', () => {
    const seen = new Set<number>();
    const long = 'k'.repeat(70_000); // longer than the scratch buffer it starts with
    let variants = 0;
    for (const url of ['/a', '/profiles/grading?ids=abcdefgh', long]) {
      for (const context of ['0\nGET', '1\nGET', '0\nPOST']) {
        for (const body of [undefined, '', '{"a":1}', '{"a":2}', '{"a":1} ']) {
          for (let at = 0; at < Math.min(url.length, 40); at += 7) {
            const changed = `${url.slice(0, at)}#${url.slice(at + 1)}`;
            seen.add(
              hashKey({
                context,
                url: changed,
                body: body === undefined ? undefined : Buffer.from(body),
              }),
            );
            variants++;
          }
        }
      }
    }
    expect(seen.size).toBe(variants);
  });
});

import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import { query } from '../support/mock-app.ts';

// Every header an answer depends on is part of the answer cache's key: an answer cached for one
// value of it is never served for another (issue 33). The server under test keeps every answer
// and takes the fast path; the expected answers come from the app itself, with no cache.
const KEY = 'sk_answer_cache';
const fixtures = buildFixtures({ profiles: 120, jobs: 30 });
const app = createApp({ data: fixtures, log: false, apiKey: KEY });
const reference = createApp({ data: fixtures, log: false, apiKey: KEY });
const t = targetOf(app.state.store);
let server: RunningServer;

beforeAll(async () => {
  server = await startServer(app);
});
afterAll(async () => {
  await server?.close();
});

type Sent = { method: string; path: string; headers: Record<string, string>; body?: string };
type Got = { status: number; body: string; headers: Record<string, unknown> };

function send(sent: Sent): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.url}${sent.path}`,
      { method: sent.method, headers: sent.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const zipped = res.headers['content-encoding'] === 'gzip';
          resolve({
            status: res.statusCode ?? 0,
            body: (zipped ? gunzipSync(bytes) : bytes).toString(),
            headers: res.headers,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(sent.body);
  });
}

async function expected(sent: Sent): Promise<Got> {
  const init: RequestInit = { method: sent.method, headers: sent.headers };
  if (sent.body !== undefined) init.body = sent.body;
  const response = await reference.request(sent.path, init);
  const headers: Record<string, unknown> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, body: await response.text(), headers };
}

let unique = 0;
/** A URL no earlier test has sent: an unknown parameter, which the operation ignores. */
function fresh(path: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}n=${++unique}`;
}

const grading = () =>
  fresh(
    `/profiles/grading?${query({ algorithm_key: 'a', board_key: t.profiles.board_key, job_key: t.profiles.job_key, profile_ids: t.profiles.profile_ids })}`,
  );
const searchingBody = JSON.stringify({ source_keys: t.profiles.source_keys, limit: 5 });
const keyed = { 'x-api-key': KEY };

/** Pairs of requests that differ in one header: the first is cached, the second must not get it. */
const pairs: [string, (path: string) => Sent, (path: string) => Sent, () => string][] = [
  [
    'the API key, then a wrong one (GET)',
    (path) => ({ method: 'GET', path, headers: keyed }),
    (path) => ({ method: 'GET', path, headers: { 'x-api-key': 'wrong' } }),
    grading,
  ],
  [
    'the API key, then none (GET)',
    (path) => ({ method: 'GET', path, headers: keyed }),
    (path) => ({ method: 'GET', path, headers: {} }),
    grading,
  ],
  [
    'the API key, then none (POST)',
    (path) => ({
      method: 'POST',
      path,
      headers: { ...keyed, 'content-type': 'application/json' },
      body: searchingBody,
    }),
    (path) => ({
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      body: searchingBody,
    }),
    () => fresh('/profiles/searching'),
  ],
  [
    'JSON, then text/plain as the content type',
    (path) => ({
      method: 'POST',
      path,
      headers: { ...keyed, 'content-type': 'application/json' },
      body: searchingBody,
    }),
    (path) => ({
      method: 'POST',
      path,
      headers: { ...keyed, 'content-type': 'text/plain' },
      body: searchingBody,
    }),
    () => fresh('/profiles/searching'),
  ],
  [
    'no Origin, then an Origin (CORS)',
    (path) => ({ method: 'GET', path, headers: keyed }),
    (path) => ({ method: 'GET', path, headers: { ...keyed, origin: 'http://localhost:5173' } }),
    grading,
  ],
  [
    'gzip accepted, then not',
    (path) => ({ method: 'GET', path, headers: { ...keyed, 'accept-encoding': 'gzip' } }),
    (path) => ({ method: 'GET', path, headers: keyed }),
    grading,
  ],
];

describe('the answer cache and the headers an answer depends on', () => {
  it.each(pairs)('answers %s as the app does', async (_, first, second, path) => {
    const url = path();
    const primed = await send(first(url));
    await send(first(url));
    expect(primed.status).toBe((await expected(first(url))).status);
    const got = await send(second(url));
    const want = await expected(second(url));
    expect(got.status).toBe(want.status);
    expect(got.body).toBe(want.body);
    for (const header of ['content-type', 'access-control-allow-origin'])
      expect(got.headers[header], header).toEqual(want.headers[header]);
  });

  it('answers 401 to a wrong key and to none after the right key was answered twice', async () => {
    const url = grading();
    expect((await send({ method: 'GET', path: url, headers: keyed })).status).toBe(200);
    expect((await send({ method: 'GET', path: url, headers: keyed })).status).toBe(200);
    expect((await send({ method: 'GET', path: url, headers: { 'x-api-key': 'x' } })).status).toBe(
      401,
    );
    expect((await send({ method: 'GET', path: url, headers: {} })).status).toBe(401);
  });
});

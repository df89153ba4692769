// The value rules hold on the node server's fast path as in Hono: padded values, decimal numbers,
// fractional Unix times and empty tag groups get the same status and bytes from both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import { query } from '../support/mock-app.ts';

const fixtures = buildFixtures({ profiles: 200, jobs: 60 });
const apps = [0, 1].map(() => createApp({ data: fixtures, log: false }));
const t = targetOf((apps[0] as (typeof apps)[0]).state.store);
let fast: RunningServer;
let hono: RunningServer;

beforeAll(async () => {
  fast = await startServer(apps[0] as (typeof apps)[0], { port: 0, answerCacheBytes: 0 });
  hono = await startServer(apps[1] as (typeof apps)[0], {
    port: 0,
    answerCacheBytes: 0,
    fastPath: false,
  });
});

afterAll(async () => {
  await fast?.close();
  await hono?.close();
});

const sources = { source_keys: t.profiles.source_keys.map((k) => ` ${k} `) };
const requests: [string, string, Record<string, unknown>][] = [
  ['padded values', '/profiles/searching', { ...sources, limit: ' 10 ', sort_by: ' created_at' }],
  ['padded keywords', '/profiles/searching', { ...sources, text_keywords: [' english '] }],
  [
    'padded scoring keys',
    '/profiles/scoring',
    {
      ...sources,
      board_key: ` ${t.profiles.board_key}`,
      job_key: `${t.profiles.job_key} `,
      use_algorithm: ' 1 ',
    },
  ],
  [
    'padded grading',
    '/jobs/grading',
    {
      algorithm_key: ' grader ',
      source_key: ` ${t.jobs.source_key} `,
      profile_key: t.jobs.profile_key,
      job_ids: t.jobs.job_ids.map((id) => ({ ...id, job_key: ` ${id.job_key}` })),
    },
  ],
  [
    'a fractional Unix time',
    '/jobs/searching',
    { board_keys: t.jobs.board_keys, timestamp_start: '1704067200.5' },
  ],
  [
    'a date-time without offset',
    '/profiles/searching',
    { ...sources, created_at_min: '2024-05-01T10:00:00' },
  ],
  ['a blank limit', '/profiles/searching', { ...sources, limit: '   ' }],
  ['a hexadecimal limit', '/profiles/searching', { ...sources, limit: '0x10' }],
  ['an exponent in limit', '/profiles/searching', { ...sources, limit: '1e1' }],
  ['an empty tag group', '/profiles/searching', { ...sources, tags_included: [[]] }],
  ['blank source_keys', '/profiles/searching', { source_keys: '  ' }],
];

async function answer(
  server: RunningServer,
  method: string,
  path: string,
  params: Record<string, unknown>,
) {
  const response =
    method === 'GET'
      ? await fetch(`${server.url}${path}?${query(params)}`)
      : await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(params),
        });
  return { status: response.status, body: await response.text() };
}

describe('the fast path and Hono', () => {
  const cases = requests.flatMap(([what, path, params]) =>
    (path.endsWith('/grading') ? ['GET'] : ['GET', 'POST']).map(
      (method) => [what, method, path, params] as const,
    ),
  );
  it.each(cases)('answer %s by %s alike', async (_, method, path, params) => {
    const [a, b] = await Promise.all([
      answer(fast, method, path, params),
      answer(hono, method, path, params),
    ]);
    expect(a).toEqual(b);
  });
});

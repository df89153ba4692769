import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import { type RunningPrism, startPrism } from '../../src/prism.ts';
import { query } from '../support/mock-app.ts';

let mock: RunningServer;
let prism: RunningPrism;
const app = createApp({ data: buildFixtures({ profiles: 300, jobs: 80 }), log: false });
const t = targetOf(app.state.store);
const headers = { 'X-API-KEY': 'key', 'X-USER-EMAIL': 'ci@example.com' };

beforeAll(async () => {
  mock = await startServer(app);
  prism = await startPrism({ mode: 'proxy', upstream: mock.url });
});

afterAll(async () => {
  await prism?.stop();
  await mock?.close();
});

const profileScoring = {
  algorithm_key: 'a',
  board_key: t.profiles.board_key,
  job_key: t.profiles.job_key,
  source_keys: t.profiles.source_keys,
};
const jobScoring = {
  algorithm_key: 'a',
  source_key: t.jobs.source_key,
  profile_key: t.jobs.profile_key,
  board_keys: t.jobs.board_keys,
};
const profileGrading = {
  algorithm_key: 'a',
  board_key: t.profiles.board_key,
  job_key: t.profiles.job_key,
  profile_ids: t.profiles.profile_ids,
};
const jobGrading = {
  algorithm_key: 'a',
  source_key: t.jobs.source_key,
  profile_key: t.jobs.profile_key,
  job_ids: t.jobs.job_ids,
};

const traffic: [string, 'GET' | 'POST', string, Record<string, unknown>][] = [
  ['grading profiles, minimal', 'GET', '/profiles/grading', profileGrading],
  [
    'grading profiles, full',
    'GET',
    '/profiles/grading',
    { ...profileGrading, return_profile: 'true' },
  ],
  ['grading jobs, minimal', 'GET', '/jobs/grading', jobGrading],
  ['grading jobs, full', 'GET', '/jobs/grading', { ...jobGrading, return_job: '1' }],
  [
    'searching profiles',
    'GET',
    '/profiles/searching',
    { source_keys: t.profiles.source_keys, text_keywords: ['a'], limit: 5 },
  ],
  [
    'searching profiles by POST',
    'POST',
    '/profiles/searching',
    { source_keys: t.profiles.source_keys, limit: 5, sort_by: 'updated_at' },
  ],
  ['searching jobs', 'GET', '/jobs/searching', { board_keys: t.jobs.board_keys, limit: 5 }],
  [
    'searching jobs by POST',
    'POST',
    '/jobs/searching',
    { board_keys: t.jobs.board_keys, order_by: 'asc' },
  ],
  [
    'scoring profiles',
    'GET',
    '/profiles/scoring',
    { ...profileScoring, sort_by: 'scoring', limit: 5 },
  ],
  [
    'scoring profiles by POST',
    'POST',
    '/profiles/scoring',
    { ...profileScoring, use_algorithm: 0 },
  ],
  ['scoring jobs', 'GET', '/jobs/scoring', { ...jobScoring, score_threshold: 0.4 }],
  ['scoring jobs by POST', 'POST', '/jobs/scoring', { ...jobScoring, sort_by: 'scoring' }],
  [
    'a bad limit',
    'GET',
    '/profiles/searching',
    { source_keys: t.profiles.source_keys, limit: 500 },
  ],
  ['an unknown source', 'GET', '/profiles/searching', { source_keys: ['0'.repeat(40)] }],
  ['a missing job', 'POST', '/jobs/scoring', { ...jobScoring, profile_key: 'f'.repeat(40) }],
];

/** The violations Prism reported on the request or on the response. */
function violations(headers: Headers, side: 'request' | 'response'): string[] {
  const reported = JSON.parse(headers.get('sl-violations') ?? '[]') as {
    location: string[];
    message: string;
  }[];
  return reported
    .filter((v) => v.location[0] === side)
    .map((v) => `${v.location.join('.')}: ${v.message}`);
}

/** Bad requests are sent on purpose: only response violations count there. */
const responseViolations = (headers: Headers) => violations(headers, 'response');

async function throughPrism(method: 'GET' | 'POST', path: string, params: Record<string, unknown>) {
  const response =
    method === 'GET'
      ? await fetch(`${prism.url}${path}?${query(params)}`, { headers })
      : await fetch(`${prism.url}${path}`, {
          method,
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(params),
        });
  await response.arrayBuffer();
  return response;
}

describe('traffic through prism proxy contract/openapi.yaml <mock>', () => {
  it.each(traffic)('%s raises no contract violation', async (_, method, path, params) => {
    const response = await throughPrism(method, path, params);
    expect(response.status).toBeLessThan(500);
    expect(responseViolations(response.headers)).toEqual([]);
  });

  it('does report a violation when the mock answers outside the contract', async () => {
    const response = await fetch(
      `${prism.url}/profiles/searching?${query({ source_keys: t.profiles.source_keys })}`,
    );
    await response.arrayBuffer();
    expect(response.headers.get('sl-violations')).toMatch(/security|X-API-KEY|Invalid/i);
  });
});

const lenient: [string, 'GET' | 'POST', string, Record<string, unknown>][] = [
  [
    'empty optional values',
    'GET',
    '/profiles/searching',
    { source_keys: t.profiles.source_keys, order_by: '', sort_by: '', page: '', limit: '' },
  ],
  [
    'a date without a time',
    'GET',
    '/profiles/searching',
    { source_keys: t.profiles.source_keys, created_at_min: '2024-01-01' },
  ],
  [
    "the Python SDK's documented date, +0000 without a colon",
    'GET',
    '/profiles/searching',
    { source_keys: t.profiles.source_keys, created_at_min: '2020-07-09T13:35:11+0000' },
  ],
  [
    'a page past 2^53',
    'GET',
    '/jobs/searching',
    { board_keys: t.jobs.board_keys, page: '1627504098412055142' },
  ],
  [
    'null optional fields in a body',
    'POST',
    '/profiles/scoring',
    { ...profileScoring, order_by: null, sort_by: null, page: null, algorithm_key: null },
  ],
  [
    'scoring without algorithm_key',
    'GET',
    '/jobs/scoring',
    { ...jobScoring, algorithm_key: undefined },
  ],
  ['grading at the singular path', 'GET', '/profile/grading', profileGrading],
];

describe('what the mock accepts, prism proxy accepts too', () => {
  it.each(lenient)(
    '%s: 200 from the mock, no request violation',
    async (_, method, path, params) => {
      const response = await throughPrism(method, path, params);
      expect(response.status).toBe(200);
      expect(violations(response.headers, 'request')).toEqual([]);
      expect(responseViolations(response.headers)).toEqual([]);
    },
  );
});

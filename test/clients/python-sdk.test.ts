import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetOf } from '../../src/hr/target.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import {
  type ErrorAnswer,
  firstError,
  type JobsGrading,
  type ProfilesGrading,
  type Scoring,
  type Searching,
} from '../support/answers.ts';
import { nth, scoreAt } from '../support/json-reads.ts';
import { mockApp } from '../support/mock-app.ts';
import { jsonDumps } from './support/python.ts';
import {
  PythonHrflow,
  PythonSdkError,
  pythonSdkPaginationHolds,
  readAsPythonSdk,
} from './support/python-sdk.ts';

// Started with a key, as a real deployment is: a request without the SDK's X-API-KEY gets a 401.
const API_KEY = 'sk_test';
const { app, fixtures } = mockApp({ apiKey: API_KEY });
const target = targetOf(app.state.store);
const sourceKeys = fixtures.sources.map((s) => s.key);
const boardKeys = fixtures.boards.map((b) => b.key);
const { board_key: boardKey, job_key: jobKey } = target.profiles;
const { source_key: sourceKey, profile_key: profileKey } = target.jobs;
let server: RunningServer;
let sdk: PythonHrflow;
let sdkPost: PythonHrflow;

beforeAll(async () => {
  server = await startServer(app);
  const options = { apiUrl: `${server.url}/`, apiSecret: API_KEY, apiUser: 'dev@example.com' };
  sdk = new PythonHrflow(options);
  sdkPost = new PythonHrflow({ ...options, listsBy: 'post' });
});

afterAll(async () => {
  await server?.close();
});

/** Sends what the SDK built and reads the answer as `validate_response` does. */
async function call<Answer = unknown>(request: Request): Promise<Answer> {
  return readAsPythonSdk<Answer>(await fetch(request));
}

/** A searching or scoring answer of either side, its predictions there when it scores. */
type ListAnswer = Searching & { data: Partial<Scoring['data']> };

/** What the SDK's own tests check of a searching or scoring answer. */
function expectListAnswer(answer: ListAnswer, list: 'profiles' | 'jobs', scored: boolean) {
  expect(answer.code, JSON.stringify(answer).slice(0, 300)).toBe(200);
  expect(typeof answer.message).toBe('string');
  expect(answer.data[list]).toHaveLength(answer.meta.count);
  expect(pythonSdkPaginationHolds(answer.meta)).toBe(true);
  if (!scored) return;
  expect(answer.data.predictions).toHaveLength(answer.meta.count);
  for (const pair of answer.data.predictions ?? []) {
    expect(pair).toHaveLength(2);
    for (const p of pair) expect(p >= 0 && p <= 1).toBe(true);
  }
}

describe('the Python SDK (v4.3.0) against the mock', () => {
  it('searches profiles as its documentation does, with a +0000 date', async () => {
    const answer = await call<Searching>(
      sdk.profile.searching.list({
        source_keys: sourceKeys,
        page: 1,
        limit: 30,
        sort_by: 'created_at',
        order_by: 'desc',
        kwargs: { text_keywords: ['python'], created_at_min: '2020-07-09T13:35:11+0000' },
      }),
    );
    expectListAnswer(answer, 'profiles', false);
    expect(answer.meta.total).toBeGreaterThan(0);
    for (const profile of answer.data.profiles)
      expect(profile.text.toLowerCase()).toContain('python');
  });

  it('scores profiles for a job without algorithm_key, with use_agent=1', async () => {
    const answer = await call<Scoring>(
      sdk.profile.scoring.list({
        source_keys: sourceKeys,
        board_key: boardKey,
        job_key: jobKey,
        use_agent: 1,
        page: 1,
        limit: 30,
        sort_by: 'created_at',
        order_by: null,
        kwargs: { text_keywords: ['python'] },
      }),
    );
    expectListAnswer(answer, 'profiles', true);
    expect(answer.data.predictions.length).toBeGreaterThan(0);
  });

  it('searches jobs', async () => {
    const answer = await call<Searching>(
      sdk.job.searching.list({ board_keys: boardKeys, page: 1, limit: 30, sort_by: 'created_at' }),
    );
    expectListAnswer(answer, 'jobs', false);
    expect(answer.meta.total).toBe(fixtures.jobs.length);
  });

  it('scores jobs for a profile with the agent_key it documents, as the algorithm', async () => {
    const request = sdk.job.scoring.list({
      board_keys: boardKeys,
      source_key: sourceKey,
      profile_key: profileKey,
      use_agent: 1,
      agent_key: 'agent_key',
      page: 1,
      limit: 30,
      sort_by: 'scoring',
    });
    const answer = await call<Scoring>(request);
    expectListAnswer(answer, 'jobs', true);
    const named = await call<Scoring>(
      new Request(request.url.replace('agent_key=agent_key', 'algorithm_key=agent_key'), {
        headers: request.headers,
      }),
    );
    expect(answer.data).toEqual(named.data);
  });

  it('filters by the stage it validates, and by its documented kwargs', async () => {
    const all = await call<Searching>(sdk.profile.searching.list({ source_keys: sourceKeys }));
    const staged = await call<Searching>(
      sdk.profile.searching.list({
        source_keys: sourceKeys,
        stage: 'yes',
        kwargs: { experiences_duration_min: 1 },
      }),
    );
    expectListAnswer(staged, 'profiles', false);
    expect(staged.meta.total).toBeGreaterThan(0);
    expect(staged.meta.total).toBeLessThan(all.meta.total);
    for (const p of staged.data.profiles)
      expect((p.labels ?? []).some((l) => l.stage === 'yes')).toBe(true);
  });

  it('searches only with use_agent=0 (no predictions)', async () => {
    const answer = await call<Scoring>(
      sdk.profile.scoring.list({
        source_keys: sourceKeys,
        board_key: boardKey,
        job_key: jobKey,
        use_agent: 0,
      }),
    );
    expectListAnswer(answer, 'profiles', false);
    expect(answer.data.predictions).toEqual([]);
  });

  it('grades one profile for a job at profile/grading and reads data.score', async () => {
    const answer = await call<ProfilesGrading>(
      sdk.profile.grading.get({
        algorithm_key: 'grader-hrflow-profiles',
        source_key: sourceKey,
        board_key: boardKey,
        profile_key: profileKey,
        job_key: jobKey,
      }),
    );
    expect(answer.code).toBe(200);
    expect(nth(answer.data.profiles, 0)?.key).toBe(profileKey);
    expect(answer.data.score).toBe(scoreAt(answer.data.scores, 0));
    expect(answer.data.score).toBeGreaterThan(0);
    expect(answer.data.score).toBeLessThan(1);
  });

  it('cannot grade by reference alone: the SDK itself raises before sending', () => {
    expect(() =>
      sdk.profile.grading.get({
        algorithm_key: 'grader-hrflow-profiles',
        source_key: sourceKey,
        board_key: boardKey,
        profile_reference: 'P-0000001',
        job_key: jobKey,
      }),
    ).toThrow(PythonSdkError);
  });

  it('grades one job for a profile at job/grading (the branch of PR #31)', async () => {
    const answer = await call<JobsGrading>(
      sdk.job.grading.get({
        algorithm_key: 'grader-hrflow-jobs',
        board_key: boardKey,
        source_key: sourceKey,
        job_key: jobKey,
        profile_key: profileKey,
      }),
    );
    expect(answer.code).toBe(200);
    expect(nth(answer.data.jobs, 0)?.key).toBe(jobKey);
    expect(answer.data.score).toBe(scoreAt(answer.data.scores, 0));
  });

  it('takes the filter values its documentation writes: 0.9 for a skill, True for a tag', async () => {
    const answer = await call<Searching>(
      sdk.profile.searching.list({
        source_keys: sourceKeys,
        kwargs: {
          skills: [{ name: 'python', value: 0.9 }],
          tags_excluded: [[{ name: 'archive', value: true }]],
        },
      }),
    );
    expectListAnswer(answer, 'profiles', false);
    expect(answer.meta.total).toBeGreaterThan(0);
  });

  it('ranks by relevance with sort_by=scoring on searching, as sort_by=searching does', async () => {
    const search = (sort_by: string) =>
      call<Searching>(
        sdk.profile.searching.list({
          source_keys: sourceKeys,
          sort_by,
          kwargs: { text_keywords: ['python', 'sql'] },
        }),
      );
    const answer = await search('scoring');
    expectListAnswer(answer, 'profiles', false);
    expect(answer.data).toEqual((await search('searching')).data);
    // Relevance must order differently from the default, or the comparison above shows nothing.
    expect(answer.data).not.toEqual((await search('created_at')).data);
  });

  it('answers an empty search with maxPage 1, which its pagination model divides by', async () => {
    const answer = await call<Searching>(
      sdk.profile.searching.list({ source_keys: sourceKeys, kwargs: { text_keywords: ['zzqx'] } }),
    );
    expectListAnswer(answer, 'profiles', false);
    expect(answer.meta).toEqual({ page: 1, maxPage: 1, count: 0, total: 0 });
  });

  it('says how to send a point that requests turned into its keys', async () => {
    const request = sdk.profile.searching.list({
      source_keys: sourceKeys,
      kwargs: { location_geopoint: { lat: 45.764, lng: 4.8357 } },
    });
    expect(new URL(request.url).searchParams.getAll('location_geopoint')).toEqual(['lat', 'lng']);
    const answer = await call<ErrorAnswer>(request);
    expect(answer.code).toBe(400);
    expect(firstError(answer).param).toBe('location_geopoint');
    expect(firstError(answer).message).toMatch(/json\.dumps/);
    const dumped = await call<Searching>(
      sdk.profile.searching.list({
        source_keys: sourceKeys,
        kwargs: { location_geopoint: jsonDumps({ lat: 45.764, lng: 4.8357 }) },
      }),
    );
    expect(dumped.code).toBe(200);
  });

  it('is refused with a 401 when its request lacks the X-API-KEY header', async () => {
    const request = sdk.profile.searching.list({ source_keys: sourceKeys, limit: 1 });
    expect(request.headers.get('X-API-KEY')).toBe(API_KEY);
    const headers = new Headers(request.headers);
    headers.delete('X-API-KEY');
    const answer = await call<ErrorAnswer>(new Request(request.url, { headers }));
    expect(answer.code).toBe(401);
    expect(answer.message).toMatch(/X-API-KEY/);
  });

  it('gets its errors as JSON with the Content-Type it requires', async () => {
    const answer = await call<ErrorAnswer>(
      sdk.profile.scoring.list({ source_keys: sourceKeys, board_key: boardKey, job_key: 'nope' }),
    );
    expect(answer.code).toBe(400);
    expect(firstError(answer).param).toBe('job_key');
  });
});

describe('the Python SDK with POST for searching and scoring (the branch of PR #30)', () => {
  const calls = [
    [
      'profile.searching.list',
      (s: PythonHrflow) =>
        s.profile.searching.list({
          source_keys: sourceKeys,
          kwargs: { text_keywords: ['python'] },
        }),
    ],
    [
      'profile.scoring.list',
      (s: PythonHrflow) =>
        s.profile.scoring.list({
          source_keys: sourceKeys,
          board_key: boardKey,
          job_key: jobKey,
          sort_by: 'scoring',
        }),
    ],
    ['job.searching.list', (s: PythonHrflow) => s.job.searching.list({ board_keys: boardKeys })],
    [
      'job.scoring.list',
      (s: PythonHrflow) =>
        s.job.scoring.list({
          board_keys: boardKeys,
          source_key: sourceKey,
          profile_key: profileKey,
        }),
    ],
  ] as const;

  it.each(calls)('%s sends nulls in its body and gets the GET answer', async (_, build) => {
    const request = build(sdkPost);
    expect(request.method).toBe('POST');
    expect(await request.clone().text()).toContain('null');
    const viaPost = await call<ListAnswer>(request);
    const viaGet = await call<ListAnswer>(build(sdk));
    expect(viaPost.code).toBe(200);
    expect(viaPost.data).toEqual(viaGet.data);
    expect(viaPost.meta).toEqual(viaGet.meta);
    expect(pythonSdkPaginationHolds(viaPost.meta)).toBe(true);
  });
});

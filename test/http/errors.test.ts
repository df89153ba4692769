import { describe, expect, it } from 'vitest';
import { targetOf } from '../../src/hr/target.ts';
import { type ErrorAnswer, firstError, type ProfilesSearching } from '../support/answers.ts';
import { get, mockApp, post, query, send } from '../support/mock-app.ts';

const { app } = mockApp();
const target = targetOf(app.state.store);
const sources = { source_keys: target.profiles.source_keys };
const grading = {
  algorithm_key: 'g',
  board_key: target.profiles.board_key,
  job_key: target.profiles.job_key,
  profile_ids: target.profiles.profile_ids.slice(0, 2),
};

function params(body: ErrorAnswer): string[] {
  return (body.errors ?? []).map((e) => e.param);
}

describe('400 for a missing or malformed parameter, naming it', () => {
  const cases: [string, string, Record<string, unknown>, string][] = [
    ['source_keys missing', '/profiles/searching', {}, 'source_keys'],
    ['source_keys not keys', '/profiles/searching', { source_keys: 'abc' }, 'source_keys'],
    ['source_keys an empty list', '/profiles/searching', { source_keys: [] }, 'source_keys'],
    ['board_keys of numbers', '/jobs/searching', { board_keys: [1, 2] }, 'board_keys'],
    ['page zero', '/profiles/searching', { ...sources, page: '0' }, 'page'],
    ['page not a number', '/profiles/searching', { ...sources, page: 'two' }, 'page'],
    ['limit above 100', '/profiles/searching', { ...sources, limit: '500' }, 'limit'],
    ['sort_by unknown', '/profiles/searching', { ...sources, sort_by: 'salary' }, 'sort_by'],
    ['order_by unknown', '/profiles/searching', { ...sources, order_by: 'up' }, 'order_by'],
    ['sort_by unknown', '/profiles/searching', { ...sources, sort_by: 'relevance' }, 'sort_by'],
    [
      'sort_by=location with a malformed point',
      '/profiles/searching',
      { ...sources, sort_by: 'location', location_geopoint: '{"lat":"north"}' },
      'location_geopoint',
    ],
    [
      'text_keywords not a list',
      '/profiles/searching',
      { ...sources, text_keywords: '{"a":1}' },
      'text_keywords',
    ],
    [
      'skills without names',
      '/profiles/searching',
      { ...sources, skills: [{ value: 'x' }] },
      'skills',
    ],
    [
      'location_geopoint out of range',
      '/profiles/searching',
      { ...sources, location_geopoint: { lat: 91, lng: 0 } },
      'location_geopoint',
    ],
    [
      'location_distance alone',
      '/profiles/searching',
      { ...sources, location_distance: '10' },
      'location_distance',
    ],
    [
      'location_distance negative',
      '/profiles/searching',
      { ...sources, location_geopoint: { lat: 1, lng: 1 }, location_distance: '-5' },
      'location_distance',
    ],
    [
      'created_at_min not a date',
      '/profiles/searching',
      { ...sources, created_at_min: 'yesterday' },
      'created_at_min',
    ],
    [
      'created_at_min after max',
      '/profiles/searching',
      { ...sources, created_at_min: '2025-01-01', created_at_max: '2024-01-01' },
      'created_at_min',
    ],
    [
      'experiences_duration_min NaN',
      '/profiles/searching',
      { ...sources, experiences_duration_min: 'NaN' },
      'experiences_duration_min',
    ],
    [
      // Blank is trimmed to empty, which is absent: on grading, where it is required, a 400.
      'algorithm_key blank on grading',
      '/profiles/grading',
      { ...grading, algorithm_key: ' ' },
      'algorithm_key',
    ],
    [
      'job_key and job_reference missing',
      '/profiles/scoring',
      { ...sources, algorithm_key: 'a', board_key: grading.board_key },
      'job_key',
    ],
    [
      'score_threshold above 1',
      '/profiles/scoring',
      { ...sources, ...grading, score_threshold: '1.5' },
      'score_threshold',
    ],
    [
      'use_algorithm not a boolean',
      '/profiles/scoring',
      { ...sources, ...grading, use_algorithm: 'maybe' },
      'use_algorithm',
    ],
    [
      'return_profile not a boolean',
      '/profiles/grading',
      { ...grading, return_profile: 'yes' },
      'return_profile',
    ],
    [
      'profile_ids missing',
      '/profiles/grading',
      { ...grading, profile_ids: undefined },
      'profile_ids',
    ],
    [
      'profile_ids malformed',
      '/profiles/grading',
      { ...grading, profile_ids: [{ source_key: 'x' }] },
      'profile_ids',
    ],
    [
      'profile_ids and profile_key together',
      '/profiles/grading',
      { ...grading, source_key: target.profiles.source_keys[0], profile_key: 'a'.repeat(40) },
      'profile_ids',
    ],
    [
      'board_key missing on grading',
      '/profiles/grading',
      { ...grading, board_key: undefined },
      'board_key',
    ],
    [
      'job_ids of 101 items',
      '/jobs/grading',
      {
        algorithm_key: 'a',
        source_key: target.jobs.source_key,
        profile_key: target.jobs.profile_key,
        job_ids: Array(101).fill(target.jobs.job_ids[0]),
      },
      'job_ids',
    ],
  ];

  it.each(cases)('%s', async (_, path, query, param) => {
    const { status, body } = await get<ErrorAnswer>(app, path, query);
    expect(status).toBe(400);
    expect(params(body)).toContain(param);
    expect(body.message).toMatch(/Invalid parameters/);
  });

  it('lists every bad parameter of one request at once', async () => {
    const { body } = await get<ErrorAnswer>(app, '/profiles/searching', {
      source_keys: 'x',
      page: '-1',
      limit: '0',
    });
    expect(params(body).sort()).toEqual(['limit', 'page', 'source_keys']);
  });

  it('says what to send instead', async () => {
    const { body } = await get<ErrorAnswer>(app, '/profiles/searching', { source_keys: 'abc' });
    expect(firstError(body).message).toMatch(
      /source_keys must be a JSON array of source keys.*got "abc".*source_keys=\["/,
    );
  });

  it.each([
    ['a JSON array in the query', ['0'.repeat(40), 'x']],
    ['repeated query parameters', ['0'.repeat(40), 'x']],
    ['a POST body', ['x']],
  ])('names the item that is not a key in %s', async (how, keys) => {
    const path = '/profiles/searching';
    const reply = how.startsWith('a POST')
      ? await post<ErrorAnswer>(app, path, { source_keys: keys })
      : await send<ErrorAnswer>(
          app,
          how.startsWith('a JSON')
            ? `${path}?${query({ source_keys: keys })}`
            : `${path}?${keys.map((k) => `source_keys=${k}`).join('&')}`,
        );
    const { status, body } = reply;
    expect(status).toBe(400);
    expect(firstError(body).message).toMatch(
      /source_keys must be a JSON array of source keys .*, but "x" is not one\. Send for example/,
    );
  });
});

describe('400 for a key that names nothing', () => {
  it('answers "Unable to find object: source" for an unknown source', async () => {
    const { status, body } = await get<ErrorAnswer>(app, '/profiles/searching', {
      source_keys: ['0'.repeat(40)],
    });
    expect(status).toBe(400);
    expect(body.message).toMatch(/Unable to find object: source/);
    expect(params(body)).toEqual(['source_keys']);
  });

  it('answers "Unable to find object: job" for an unknown job to score against', async () => {
    const { status, body } = await get<ErrorAnswer>(app, '/profiles/scoring', {
      ...sources,
      ...grading,
      job_key: '0'.repeat(40),
    });
    expect(status).toBe(400);
    expect(body.message).toMatch(/Unable to find object: job/);
  });

  it('answers "Unable to find object: profile" in single-mode grading', async () => {
    const { profile_ids: _, ...rest } = grading;
    const { status, body } = await get<ErrorAnswer>(app, '/profiles/grading', {
      ...rest,
      source_key: target.profiles.source_keys[0],
      profile_key: 'e'.repeat(40),
    });
    expect(status).toBe(400);
    expect(params(body)).toEqual(['profile_key']);
  });
});

describe('the body of a POST', () => {
  it('answers 400 naming the body for malformed JSON', async () => {
    const { status, body } = await post<ErrorAnswer>(
      app,
      '/profiles/searching',
      '{"source_keys": [',
    );
    expect(status).toBe(400);
    expect(params(body)).toEqual(['body']);
  });

  it('answers 400 for a JSON body that is not an object', async () => {
    const { status, body } = await post<ErrorAnswer>(app, '/profiles/searching', '[1,2]');
    expect(status).toBe(400);
    expect(firstError(body).message).toMatch(/an array/);
  });

  it('answers 400 for a parameter of the wrong JSON type', async () => {
    const { status, body } = await post<ErrorAnswer>(app, '/profiles/searching', {
      ...sources,
      limit: true,
    });
    expect(status).toBe(400);
    expect(params(body)).toEqual(['limit']);
  });

  it('answers 400 for JSON nested deeper than 64 levels', async () => {
    const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
    const { status, body } = await post<ErrorAnswer>(
      app,
      '/profiles/searching',
      `{"source_keys": ${deep}}`,
    );
    expect(status).toBe(400);
    expect(body.message).toMatch(/deeper than 64/);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const { status, body } = await post<ErrorAnswer>(app, '/profiles/searching', 'source_keys=x', {
      'Content-Type': 'text/plain',
    });
    expect(status).toBe(415);
    expect(body.message).toMatch(/application\/json/);
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const huge = JSON.stringify({ ...sources, text_keywords: ['x'.repeat(1024 * 1024)] });
    const { status } = await post(app, '/profiles/searching', huge);
    expect(status).toBe(413);
  });

  it('takes parameters too long for any URL (over 32 KB)', async () => {
    // Copies of one keyword in two cases: they count once, within the cap on distinct keywords.
    const keywords = Array.from({ length: 4000 }, (_, i) => (i % 2 === 0 ? 'keyword' : 'KEYWORD'));
    const { status, body } = await post<ProfilesSearching>(app, '/profiles/searching', {
      ...sources,
      text_keywords: keywords,
    });
    expect(JSON.stringify(keywords).length).toBeGreaterThan(32 * 1024);
    expect(status).toBe(200);
    expect(body.meta.total).toBe(0);
  });

  it('merges query parameters under the body, the body winning', async () => {
    const { status, body } = await send<ProfilesSearching>(
      app,
      new Request(`http://localhost/profiles/searching?limit=3&page=9`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...sources, page: 1 }),
      }),
    );
    expect(status).toBe(200);
    expect(body.meta).toMatchObject({ page: 1, count: 3 });
  });
});

describe('paths and methods', () => {
  it('answers 404 with the known paths for an unknown path', async () => {
    const { status, body } = await send<ErrorAnswer>(app, '/profiles/grade');
    expect(status).toBe(404);
    expect(body.message).toMatch(/\/profiles\/grading/);
  });

  it.each([
    ['POST', '/profiles/grading', 'GET'],
    ['PUT', '/jobs/grading', 'GET'],
    ['DELETE', '/profiles/searching', 'GET, POST'],
    ['PATCH', '/jobs/scoring', 'GET, POST'],
  ])('answers 405 with Allow for %s %s', async (method, path, allow) => {
    const { status, headers } = await send(app, new Request(`http://localhost${path}`, { method }));
    expect(status).toBe(405);
    expect(headers.get('allow')).toBe(allow);
  });

  it('answers 414 for a URL over 16 KiB, pointing at POST', async () => {
    const { status, body } = await get<ErrorAnswer>(app, '/profiles/searching', {
      ...sources,
      text_keywords: ['y'.repeat(17 * 1024)],
    });
    expect(status).toBe(414);
    expect(body.message).toMatch(/POST/);
  });
});

describe('no stack traces in answers', () => {
  it('keeps internal paths out of error messages', async () => {
    const { body } = await post<ErrorAnswer>(app, '/profiles/searching', '{"a":');
    expect(JSON.stringify(body)).not.toMatch(/\/work\/|node_modules|at .*\.ts:\d+/);
  });
});

describe('page numbers of any size', () => {
  it('answers a page past 2^53 - 1 as an empty page numbered the last', async () => {
    const reply = await get<ProfilesSearching>(app, '/profiles/searching', {
      ...sources,
      page: '1627504098412055142',
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data.profiles).toEqual([]);
    expect(reply.body.meta.page).toBe(reply.body.meta.maxPage);
  });

  it('quotes a long limit digit for digit when it refuses it', async () => {
    const reply = await get<ErrorAnswer>(app, '/profiles/searching', {
      ...sources,
      limit: '1627504098412055142',
    });
    expect(reply.status).toBe(400);
    expect(firstError(reply.body).message).toContain('"1627504098412055142"');
  });

  it('quotes a long negative page digit for digit', async () => {
    const reply = await get<ErrorAnswer>(app, '/profiles/searching', {
      ...sources,
      page: '-1627504098412055142',
    });
    expect(firstError(reply.body).message).toContain('1627504098412055142');
  });
});

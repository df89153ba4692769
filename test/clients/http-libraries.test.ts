import axios from 'axios';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetOf } from '../../src/hr/target.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import { mockApp, query } from '../support/mock-app.ts';
import { httpxQuery, type PyValue, requestsQuery } from './support/python.ts';

const { app, fixtures } = mockApp();
const target = targetOf(app.state.store);
let server: RunningServer;

beforeAll(async () => {
  server = await startServer(app);
});

afterAll(async () => {
  await server?.close();
});

/**
 * A parameter object as a frontend or a script holds it: lists, objects, a list of objects, a
 * number, a boolean. Each library below turns it into a query string by its own rules.
 */
const operations = [
  {
    path: '/profiles/searching',
    params: {
      source_keys: fixtures.sources.map((s) => s.key),
      text_keywords: ['python'],
      location_geopoint: { lat: 48.8566, lng: 2.3522 },
      location_distance: 1500,
      skills: [{ name: 'SQL', value: null }],
      tags_excluded: [{ name: 'remote', value: 'no' }],
      sort_by: 'location',
      order_by: 'asc',
      limit: 7,
    },
  },
  {
    path: '/profiles/grading',
    params: {
      algorithm_key: target.profiles.algorithm_key,
      board_key: target.profiles.board_key,
      job_key: target.profiles.job_key,
      profile_ids: target.profiles.profile_ids.slice(0, 3),
      return_profile: true,
    },
  },
  {
    path: '/profiles/scoring',
    params: {
      source_keys: fixtures.sources.map((s) => s.key),
      board_key: target.profiles.board_key,
      job_key: target.profiles.job_key,
      algorithm_key: 'scorer-hrflow-profiles',
      location_geopoint: { lat: 45.764, lng: 4.8357 },
      location_distance: 800,
      tags_included: [{ name: 'remote', value: 'yes' }],
      score_threshold: 0.2,
      sort_by: 'scoring',
      limit: 9,
    },
  },
  {
    path: '/jobs/searching',
    params: {
      board_keys: fixtures.boards.map((b) => b.key),
      text_keywords: ['engineer'],
      location_geopoint: { lat: 48.8566, lng: 2.3522 },
      location_distance: 2000,
      tags_excluded: [{ name: 'remote', value: 'no' }],
      sort_by: 'location',
      order_by: 'asc',
      limit: 6,
    },
  },
  {
    path: '/jobs/grading',
    params: {
      algorithm_key: target.jobs.algorithm_key,
      source_key: target.jobs.source_key,
      profile_key: target.jobs.profile_key,
      job_ids: target.jobs.job_ids.slice(0, 3),
      return_job: true,
    },
  },
  {
    path: '/jobs/scoring',
    params: {
      board_keys: fixtures.boards.map((b) => b.key),
      source_key: target.jobs.source_key,
      profile_key: target.jobs.profile_key,
      algorithm_key: 'scorer-hrflow-jobs',
      location_geopoint: { lat: 45.764, lng: 4.8357 },
      location_distance: 1200,
      skills: [{ name: 'python', value: null }],
      sort_by: 'scoring',
      order_by: 'asc',
      limit: 3,
    },
  },
] as const;

type Params = Record<string, unknown>;

/**
 * Each library's query string for the parameters, and the parameters it cannot carry: for
 * those the mock must answer a 400 that names them (never a silently different answer).
 */
const libraries: { name: string; encode: (p: Params) => string; lossy: string[] }[] = [
  {
    name: 'axios 1.x',
    encode: (p) => new URL(axios.getUri({ url: server.url, params: p })).search.slice(1),
    lossy: [],
  },
  { name: 'qs (indices, its default)', encode: (p) => qs.stringify(p), lossy: [] },
  {
    name: 'qs (brackets)',
    encode: (p) => qs.stringify(p, { arrayFormat: 'brackets' }),
    lossy: [],
  },
  {
    name: 'qs (repeat)',
    encode: (p) => qs.stringify(p, { arrayFormat: 'repeat' }),
    lossy: ['profile_ids', 'job_ids'],
  },
  {
    name: 'URLSearchParams of the object',
    encode: (p) => new URLSearchParams(p as Record<string, string>).toString(),
    lossy: [
      'location_geopoint',
      'skills',
      'tags_included',
      'tags_excluded',
      'profile_ids',
      'job_ids',
    ],
  },
  {
    name: 'URLSearchParams, objects as JSON.stringify',
    encode: (p) =>
      new URLSearchParams(
        Object.entries(p).map(([k, v]) => [
          k,
          typeof v === 'object' ? JSON.stringify(v) : String(v),
        ]),
      ).toString(),
    lossy: [],
  },
  {
    name: 'Python requests',
    encode: (p) => requestsQuery(p as Record<string, PyValue>),
    lossy: [
      'location_geopoint',
      'skills',
      'tags_included',
      'tags_excluded',
      'profile_ids',
      'job_ids',
    ],
  },
  { name: 'Python httpx', encode: (p) => httpxQuery(p as Record<string, PyValue>), lossy: [] },
];

const cases = libraries.flatMap((library) =>
  operations.map((op) => ({
    ...library,
    path: op.path,
    params: op.params as Params,
    lossy: library.lossy.filter((name) => name in op.params),
  })),
);

async function answer(path: string, search: string) {
  const response = await fetch(`${server.url}${path}?${search}`);
  return { status: response.status, body: await response.json() };
}

describe('parameter objects as HTTP libraries encode them', () => {
  it.each(cases)('$name: $path', async ({ path, params, encode, lossy }) => {
    const canonical = await answer(path, query(params));
    expect(canonical.status).toBe(200);
    const encoded = await answer(path, encode(params));
    if (lossy.length === 0) {
      expect(encoded).toEqual(canonical);
      return;
    }
    expect(encoded.status).toBe(400);
    const named = encoded.body.errors.map((e: { param: string }) => e.param).sort();
    expect(named).toEqual([...lossy].sort());
  });

  it.each(
    operations.flatMap((op) =>
      Object.keys(op.params).map((name) => ({ path: op.path, params: op.params as Params, name })),
    ),
  )('$path: leaving $name out changes the answer, so a dropped one would show', async (row) => {
    const { [row.name]: _, ...rest } = row.params;
    if (row.name === 'location_geopoint') delete rest.location_distance;
    const all = await answer(row.path, query(row.params));
    const without = await answer(row.path, query(rest));
    expect(all.status).toBe(200);
    expect(without.body).not.toEqual(all.body);
  });
});

import { expect } from 'vitest';
import {
  type ErrorAnswer,
  firstError,
  type JobsSearching,
  type ProfilesGrading,
  type ProfilesScoring,
  type ProfilesSearching,
} from '../support/answers.ts';
import type { DefectName } from './defects.ts';
import { get, post, type Reply } from './http-probe.ts';
import type { Target } from './types.ts';

/** One request that shows a defect: what the clean server says, then the broken one. */
export type Probe = (clean: string, broken: string, target: Target) => Promise<void>;

/** The clean server's answer read as `Clean`, the broken one's as `Broken`. */
const both = async <Clean = unknown, Broken = Clean>(
  clean: string,
  broken: string,
  ask: (base: string) => Promise<Reply>,
): Promise<[Reply<Clean>, Reply<Broken>]> => [
  (await ask(clean)) as Reply<Clean>,
  (await ask(broken)) as Reply<Broken>,
];

const sources = (t: Target) => ({ source_keys: t.profiles.source_keys });
const scoring = (t: Target) => ({
  ...sources(t),
  board_key: t.profiles.board_key,
  job_key: t.profiles.job_key,
});
const forJob = (t: Target) => ({
  algorithm_key: t.profiles.algorithm_key,
  board_key: t.profiles.board_key,
  job_key: t.profiles.job_key,
});
const single = (t: Target) => ({
  ...forJob(t),
  source_key: t.jobs.source_key,
  profile_key: t.jobs.profile_key,
});
const batch = (t: Target) => ({ ...forJob(t), profile_ids: t.profiles.profile_ids });
const dates = (reply: Reply<ProfilesSearching>, field: 'created_at' | 'updated_at'): number[] =>
  reply.body.data.profiles.map((item) => Date.parse(item[field] ?? ''));
const descending = (values: number[]) =>
  values.every((v, i) => i === 0 || (values[i - 1] ?? v) >= v);

/** A searching filter the broken server ignores: the clean one keeps fewer items. */
const ignored =
  (params: (t: Target) => Record<string, unknown>): Probe =>
  async (clean, broken, t) => {
    const [a, b] = await both<ProfilesSearching>(clean, broken, (base) =>
      get(base, '/profiles/searching', { ...sources(t), ...params(t) }),
    );
    expect(a?.body.meta.total).toBeLessThan(120);
    expect(b?.body.meta.total).toBe(120);
  };

/** A request the clean server refuses with a 400 and the broken one answers with an empty list. */
const unchecked =
  (params: Record<string, unknown>): Probe =>
  async (clean, broken, t) => {
    const [a, b] = await both<ErrorAnswer, ProfilesSearching>(clean, broken, (base) =>
      get(base, '/profiles/searching', { ...sources(t), ...params }),
    );
    expect(a?.status).toBe(400);
    expect([b?.status, b?.body.meta.total]).toEqual([200, 0]);
  };

/** A text the clean server answers and the broken one fails on with a 500 envelope. */
const crashes =
  (name: string): Probe =>
  async (clean, broken, t) => {
    const [a, b] = await both(clean, broken, (base) =>
      get(base, '/profiles/searching', { ...sources(t), name }),
    );
    expect(a?.status).toBe(200);
    expect([b?.status, b?.body]).toEqual([500, { code: 500, message: 'internal error' }]);
  };

const html404 = (reply: Reply | undefined, start: string) => {
  expect([reply?.status, reply?.type.split(';')[0]]).toEqual([404, 'text/html']);
  expect(reply?.text).toContain(start);
};

export const DEFECT_PROBES: Record<DefectName, Probe> = {
  'jobs-limit-20': async (clean, broken, t) => {
    const [a, b] = await both<JobsSearching>(clean, broken, (base) =>
      get(base, '/jobs/searching', { board_keys: t.jobs.board_keys }),
    );
    expect([a?.body.meta.count, b?.body.meta.count]).toEqual([30, 20]);
    expect(b?.body.meta.maxPage).toBe(Math.ceil(b?.body.meta.total / 20));
  },
  'order-asc-default': async (clean, broken, t) => {
    const [a, b] = await both<ProfilesSearching>(clean, broken, (base) =>
      get(base, '/profiles/searching', sources(t)),
    );
    expect(descending(dates(a, 'created_at'))).toBe(true);
    expect(descending([...dates(b, 'created_at')].reverse())).toBe(true);
  },
  'use-algorithm-default-0': async (clean, broken, t) => {
    const [a, b] = await both<ProfilesScoring>(clean, broken, (base) =>
      get(base, '/profiles/scoring', scoring(t)),
    );
    expect(a?.body.data.predictions).toHaveLength(30);
    expect(b?.body.data.predictions).toEqual([]);
  },
  'sort-updated-default': async (clean, broken, t) => {
    const [a, b] = await both<ProfilesSearching>(clean, broken, (base) =>
      get(base, '/profiles/searching', sources(t)),
    );
    expect(descending(dates(a, 'created_at'))).toBe(true);
    expect(descending(dates(b, 'updated_at'))).toBe(true);
    expect(descending(dates(b, 'created_at'))).toBe(false);
  },
  'no-singular-grading': async (clean, broken, t) => {
    const [a, b] = await both(clean, broken, (base) => get(base, '/profile/grading', batch(t)));
    expect(a?.status).toBe(200);
    html404(b, 'Cannot GET /profile/grading');
  },
  'wrong-method-html-404': async (clean, broken) => {
    const [a, b] = await both(clean, broken, (base) => post(base, '/profiles/grading', {}));
    expect([a?.status, a?.allow]).toEqual([405, 'GET']);
    html404(b, 'Cannot POST /profiles/grading');
  },
  'no-allow-header': async (clean, broken) => {
    const [a, b] = await both<ErrorAnswer>(clean, broken, (base) =>
      post(base, '/jobs/grading', {}),
    );
    expect([a?.status, a?.allow]).toEqual([405, 'GET']);
    expect([b?.status, b?.allow, b?.body.code]).toEqual([405, null, 405]);
  },
  'unknown-path-html': async (clean, broken) => {
    const [a, b] = await both<ErrorAnswer>(clean, broken, (base) =>
      get(base, '/profiles/grade', {}),
    );
    expect([a?.status, a?.body.code]).toEqual([404, 404]);
    html404(b, 'Cannot GET /profiles/grade');
  },
  'scoring-requires-algorithm-key': async (clean, broken, t) => {
    const params = { ...scoring(t), agent_key: t.profiles.scoring_algorithm_key };
    const [a, b] = await both<ProfilesScoring, ErrorAnswer>(clean, broken, (base) =>
      get(base, '/profiles/scoring', params),
    );
    expect(a?.status).toBe(200);
    expect([b?.status, firstError(b.body).param]).toEqual([400, 'algorithm_key']);
  },
  'single-grading-refused': async (clean, broken, t) => {
    const [a, b] = await both<ProfilesGrading, ErrorAnswer>(clean, broken, (base) =>
      get(base, '/profiles/grading', single(t)),
    );
    expect([a?.status, typeof a?.body.data.score]).toEqual([200, 'number']);
    expect(b?.status).toBe(400);
    expect(firstError(b.body).message).toContain('use profile_ids');
  },
  'old-sort-names-refused': async (clean, broken, t) => {
    const [a, b] = await both<ProfilesSearching, ErrorAnswer>(clean, broken, (base) =>
      get(base, '/profiles/searching', { ...sources(t), sort_by: 'date_reception' }),
    );
    expect(a?.status).toBe(200);
    expect([b?.status, firstError(b.body).param]).toEqual([400, 'sort_by']);
  },
  'created-range-unchecked': unchecked({
    created_at_min: '2025-06-01T00:00:00Z',
    created_at_max: '2024-06-01T00:00:00Z',
  }),
  'timestamp-range-unchecked': unchecked({
    timestamp_start: 1717200000,
    timestamp_end: 1704067200,
  }),
  'distance-without-point-accepted': async (clean, broken, t) => {
    const [a, b] = await both<ErrorAnswer, ProfilesSearching>(clean, broken, (base) =>
      get(base, '/profiles/searching', { ...sources(t), location_distance: 10 }),
    );
    expect([a?.status, firstError(a.body).param]).toEqual([400, 'location_distance']);
    expect([b?.status, b?.body.meta.total]).toEqual([200, 120]);
  },
  'geo-ignored': ignored(() => ({
    location_geopoint: { lat: 47.3769, lng: 8.5417 },
    location_distance: 20,
  })),
  'tags-ignored': ignored(() => ({ tags_included: [{ name: 'remote', value: 'yes' }] })),
  'languages-ignored': ignored(() => ({ languages: [{ name: 'Polish', value: null }] })),
  'skills-ignored': ignored(() => ({ skills: [{ name: 'python', value: null }] })),
  'stage-ignored': ignored(() => ({ stage: 'later' })),
  'non-ascii-500': crashes('Müller'),
  'quote-500': crashes("O'Brien"),
  'long-text-500': crashes('x'.repeat(200)),
  'long-url-html-414': async (clean, broken, t) => {
    const [a, b] = await both<ErrorAnswer>(clean, broken, (base) =>
      get(base, '/profiles/searching', { ...sources(t), name: 'x'.repeat(20 * 1024) }),
    );
    expect([a?.status, a?.body.code]).toEqual([414, 414]);
    expect([b?.status, b?.type.split(';')[0]]).toEqual([414, 'text/html']);
  },
  'large-body-500': async (clean, broken, t) => {
    const body = { ...sources(t), name: 'x'.repeat(1024 * 1024 + 64) };
    const [a, b] = await both(clean, broken, (base) => post(base, '/profiles/searching', body));
    expect([a?.status, b?.status]).toEqual([413, 500]);
  },
  'slow-jobs-scoring': async (clean, broken, t) => {
    const params = { board_keys: t.jobs.board_keys, source_key: t.jobs.source_key };
    const ask = (base: string) =>
      get(base, '/jobs/scoring', { ...params, profile_key: t.jobs.profile_key });
    const [a, b] = await both(clean, broken, ask);
    expect([a?.status, b?.status]).toEqual([200, 200]);
    expect(b?.ms).toBeGreaterThanOrEqual(250);
    expect(a?.ms).toBeLessThan(250);
  },
  'slow-grading': async (clean, broken, t) => {
    const [a, b] = await both(clean, broken, (base) => get(base, '/profiles/grading', batch(t)));
    expect([a?.status, b?.status]).toEqual([200, 200]);
    expect(b?.ms).toBeGreaterThanOrEqual(250);
    expect(a?.ms).toBeLessThan(250);
  },
};

// The leniency the contract documents (its description and `DateOrDateTime`): an empty value is
// a parameter left out, and a date alone is that day at midnight UTC.
import { describe, expect, it } from 'vitest';
import type { ProfilesSearching } from '../support/answers.ts';
import { get, mockApp, post } from '../support/mock-app.ts';

const { app, fixtures } = mockApp();
const sources = { source_keys: fixtures.sources.map((s) => s.key) };
const boards = { board_keys: fixtures.boards.map((b) => b.key) };
const job = fixtures.jobs[0] as { key: string; board_key: string };
const profile = fixtures.profiles[0] as { key: string; source_key: string };

const searching = { ...sources, text_keywords: ['english'], limit: 20 };
const scoring = {
  ...sources,
  algorithm_key: 'scorer',
  board_key: job.board_key,
  job_key: job.key,
  limit: 20,
};
const grading = {
  algorithm_key: 'grader',
  source_key: profile.source_key,
  profile_key: profile.key,
  job_ids: [{ board_key: job.board_key, job_key: job.key }],
};

const emptied: [string, string, Record<string, unknown>][] = [
  ['/profiles/searching', 'page', searching],
  ['/profiles/searching', 'limit', searching],
  ['/profiles/searching', 'sort_by', searching],
  ['/profiles/searching', 'order_by', searching],
  ['/profiles/searching', 'location_geopoint', searching],
  ['/profiles/searching', 'created_at_min', searching],
  ['/profiles/searching', 'skills', searching],
  ['/jobs/searching', 'tags_included', { ...boards, limit: 20 }],
  ['/profiles/scoring', 'score_threshold', scoring],
  ['/profiles/scoring', 'use_algorithm', scoring],
  ['/jobs/grading', 'return_job', grading],
];

describe('an empty value', () => {
  it.each(emptied)('%s: %s="" answers as leaving it out', async (path, name, params) => {
    const rest = Object.fromEntries(Object.entries(params).filter(([key]) => key !== name));
    const without = await get(app, path, rest);
    const empty = await get(app, path, { ...rest, [name]: '' });
    expect(without.status).toBe(200);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(without.body);
  });

  it('in a POST body answers as leaving it out', async () => {
    const without = await post(app, '/profiles/searching', searching);
    const empty = await post(app, '/profiles/searching', {
      ...searching,
      sort_by: '',
      order_by: '',
      page: '',
      created_at_max: '',
    });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(without.body);
  });
});

describe('a date without a time', () => {
  // A day on which some profiles were created, so that the time of day matters.
  const day = (fixtures.profiles[10] as { created_at: string }).created_at.slice(0, 10);
  const nextDay = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();

  it.each(['created_at_min', 'created_at_max'])(
    '%s=YYYY-MM-DD is that day at 00:00 UTC',
    async (name) => {
      const alone = await get<ProfilesSearching>(app, '/profiles/searching', {
        ...sources,
        [name]: day,
      });
      const midnight = await get(app, '/profiles/searching', {
        ...sources,
        [name]: `${day}T00:00:00Z`,
      });
      const dayAfter = await get<ProfilesSearching>(app, '/profiles/searching', {
        ...sources,
        [name]: nextDay,
      });
      expect(alone.status).toBe(200);
      expect(alone.body).toEqual(midnight.body);
      expect(alone.body.meta.total).not.toBe(dayAfter.body.meta.total);
    },
  );
});

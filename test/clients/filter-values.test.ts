import { describe, expect, it } from 'vitest';
import { buildFixtures, type Job, type Profile } from '../../mocks/build-fixtures.ts';
import { createApp } from '../../src/http/app.ts';
import type { JobsSearching, ProfilesSearching } from '../support/answers.ts';
import type { PyValue } from './support/python.ts';
import { PythonHrflow, readAsPythonSdk } from './support/python-sdk.ts';

/**
 * The Python SDK's documentation sends `True` as a tag value and `0.9` as a skill value, which
 * reach the mock as the JSON `true` and `0.9`. The generated fixtures hold no such values, so
 * these objects are served next to them: the stored values are text, as the contract types them.
 */
const fixtures = buildFixtures({ profiles: 60, jobs: 20 });
const SKILL = 'hrmock-values-skill';

function extraProfile(index: number, active: string, rating: string): Profile {
  const base = fixtures.profiles[index] as Profile;
  return {
    ...base,
    key: `${'e'.repeat(39)}${index}`,
    reference: `extra-values-${index}`,
    skills: [...base.skills, { name: SKILL, type: 'hard', value: rating }],
    tags: [...base.tags, { name: 'active', value: active }, { name: 'rating', value: rating }],
  };
}

function extraJob(index: number, active: string): Job {
  const base = fixtures.jobs[index] as Job;
  return {
    ...base,
    key: `${'e'.repeat(39)}${index}`,
    reference: `extra-values-${index}`,
    tags: [...base.tags, { name: 'active', value: active }],
  };
}

const profiles = {
  activeRated: extraProfile(1, 'true', '0.9'),
  activeLow: extraProfile(2, 'true', '0.8'),
  inactive: extraProfile(3, 'false', '0.8'),
};
const jobs = { active: extraJob(1, 'true'), inactive: extraJob(2, 'false') };

const app = createApp({
  data: {
    ...fixtures,
    profiles: [...fixtures.profiles, ...Object.values(profiles)],
    jobs: [...fixtures.jobs, ...Object.values(jobs)],
  },
  log: false,
});
const sdk = new PythonHrflow({
  apiUrl: 'http://localhost/',
  apiSecret: 'sk_test',
  apiUser: 'dev@example.com',
});
const sourceKeys = fixtures.sources.map((s) => s.key);
const boardKeys = fixtures.boards.map((b) => b.key);

/** The keys of what a profile search with these filters finds, in key order. */
async function profileKeys(kwargs: Record<string, PyValue>): Promise<string[]> {
  const request = sdk.profile.searching.list({ source_keys: sourceKeys, limit: 100, kwargs });
  const answer = await readAsPythonSdk<ProfilesSearching>(await app.request(request));
  expect(answer.code, JSON.stringify(answer).slice(0, 300)).toBe(200);
  return answer.data.profiles.map((p) => p.key).sort();
}

async function jobKeys(kwargs: Record<string, PyValue>): Promise<string[]> {
  const request = sdk.job.searching.list({ board_keys: boardKeys, limit: 100, kwargs });
  const answer = await readAsPythonSdk<JobsSearching>(await app.request(request));
  expect(answer.code, JSON.stringify(answer).slice(0, 300)).toBe(200);
  return answer.data.jobs.map((j) => j.key).sort();
}

const keysOf = (...items: { key: string }[]) => items.map((i) => i.key).sort();

describe('filter values the Python SDK documents, as JSON numbers and booleans', () => {
  it('sends them as JSON, not as text', () => {
    const request = sdk.profile.searching.list({
      source_keys: sourceKeys,
      kwargs: { tags_included: [[{ name: 'active', value: true }]] },
    });
    expect(new URL(request.url).searchParams.get('tags_included')).toBe(
      '[[{"name": "active", "value": true}]]',
    );
  });

  it('finds exactly the profiles tagged "true" with the tag value True', async () => {
    const found = await profileKeys({ tags_included: [[{ name: 'active', value: true }]] });
    expect(found).toEqual(keysOf(profiles.activeRated, profiles.activeLow));
  });

  it('finds exactly the profiles tagged "false" with the tag value False', async () => {
    const found = await profileKeys({ tags_included: [[{ name: 'active', value: false }]] });
    expect(found).toEqual(keysOf(profiles.inactive));
  });

  it('finds exactly the jobs tagged "true" with the tag value True', async () => {
    const found = await jobKeys({ tags_included: [[{ name: 'active', value: true }]] });
    expect(found).toEqual(keysOf(jobs.active));
  });

  it('drops the profiles tagged "true" with tags_excluded and the value True', async () => {
    const all = await profileKeys({});
    expect(all).toHaveLength(fixtures.profiles.length + 3);
    const kept = await profileKeys({ tags_excluded: [[{ name: 'active', value: true }]] });
    expect(kept).toEqual(
      all.filter((key) => !keysOf(profiles.activeRated, profiles.activeLow).includes(key)),
    );
  });

  it('finds exactly the profiles tagged "0.9" with the tag value 0.9, and not those at 0.8', async () => {
    expect(await profileKeys({ tags_included: [{ name: 'rating', value: 0.9 }] })).toEqual(
      keysOf(profiles.activeRated),
    );
    expect(await profileKeys({ tags_included: [{ name: 'rating', value: 0.8 }] })).toEqual(
      keysOf(profiles.activeLow, profiles.inactive),
    );
  });

  it('finds the profiles with a skill sent with the value 0.9, by its name only', async () => {
    // The contract (ItemFilter.value): skills match by name only, so 0.8 finds the same ones.
    const everyOne = keysOf(profiles.activeRated, profiles.activeLow, profiles.inactive);
    expect(await profileKeys({ skills: [{ name: SKILL, value: 0.9 }] })).toEqual(everyOne);
    expect(await profileKeys({ skills: [{ name: SKILL, value: 0.8 }] })).toEqual(everyOne);
  });
});

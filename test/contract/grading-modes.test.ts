import { describe, expect, it } from 'vitest';
import type { Target } from '../../contract/suite/target.ts';
import type { ErrorAnswer, Grading } from '../support/answers.ts';
import { obj } from '../support/json-reads.ts';
import { get, mockApp } from '../support/mock-app.ts';

const { app } = mockApp({ profiles: 60, jobs: 30 });
const target: Target = (await get<{ data: Target }>(app, '/_mock/target')).body.data;

/**
 * Grading takes one of two modes: a batch (`profile_ids`) or one item (`source_key` with
 * `profile_key` or `profile_reference`); the contract refuses both, and a reference alone names
 * the single mode. Each side of the API, with the parameters that pick its anchor.
 */
const SIDES = [
  {
    path: '/profiles/grading',
    list: 'profiles',
    ids: 'profile_ids',
    container: 'source_key',
    reference: 'profile_reference',
    anchor: {
      algorithm_key: target.profiles.algorithm_key,
      board_key: target.profiles.board_key,
      job_key: target.profiles.job_key,
    },
    batch: target.profiles.profile_ids,
  },
  {
    path: '/jobs/grading',
    list: 'jobs',
    ids: 'job_ids',
    container: 'board_key',
    reference: 'job_reference',
    anchor: {
      algorithm_key: target.jobs.algorithm_key,
      source_key: target.jobs.source_key,
      profile_key: target.jobs.profile_key,
    },
    batch: target.jobs.job_ids,
  },
] as const;

const params = (errors: { param: string }[] | undefined) => (errors ?? []).map((e) => e.param);

describe.each(SIDES)('$path: the grading mode a reference picks', (side) => {
  /** The reference of the batch's first item, read from its minimal item. */
  async function firstReference(): Promise<unknown> {
    const batch = await get<Grading>(app, side.path, {
      ...side.anchor,
      [side.ids]: side.batch.slice(0, 1),
    });
    return obj(batch.body.data[side.list][0]).reference;
  }

  it(`grades one item named by ${side.container} and ${side.reference}`, async () => {
    const [first] = side.batch;
    const container = (first as Record<string, string>)[side.container];
    const single = await get<Grading>(app, side.path, {
      ...side.anchor,
      [side.container]: container,
      [side.reference]: await firstReference(),
    });
    expect(single.status).toBe(200);
    expect(single.body.data[side.list]).toHaveLength(1);
    expect(typeof single.body.data.score).not.toBe('undefined');
  });

  it(`refuses ${side.ids} sent with ${side.reference}: two modes at once`, async () => {
    const both = await get<ErrorAnswer>(app, side.path, {
      ...side.anchor,
      [side.ids]: side.batch,
      [side.reference]: await firstReference(),
    });
    expect(both.status).toBe(400);
    expect(params(both.body.errors)).toContain(side.ids);
    expect(both.body.message).toMatch(/not both/);
  });

  it(`asks for ${side.container} when ${side.reference} comes alone`, async () => {
    const alone = await get<ErrorAnswer>(app, side.path, {
      ...side.anchor,
      [side.reference]: await firstReference(),
    });
    expect(alone.status).toBe(400);
    expect(params(alone.body.errors)).toContain(side.container);
    expect(params(alone.body.errors)).not.toContain(side.ids);
  });
});

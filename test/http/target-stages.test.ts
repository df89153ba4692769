import { describe, expect, it } from 'vitest';
import { targetOf } from '../../src/hr/target.ts';
import type { JobsScoring, ProfilesScoring } from '../support/answers.ts';
import { get, mockApp } from '../support/mock-app.ts';

const STAGES = ['yes', 'no', 'later', 'new'] as const;

/** How many profiles scoring against a job finds at a stage (`meta.total`). */
async function atStage(
  app: ReturnType<typeof mockApp>['app'],
  sourceKeys: string[],
  job: { board_key: string; job_key: string },
  stage: string,
) {
  const reply = await get<ProfilesScoring>(app, '/profiles/scoring', {
    source_keys: sourceKeys,
    ...job,
    stage,
    limit: 1,
  });
  expect(reply.status).toBe(200);
  return reply.body.meta.total as number;
}

// The SDKs' own test calls score against the target's job with `stage: 'YES'`: every job the
// target names must have profiles at each stage, in the generated sets users start from.
describe.each([
  { seed: 42, profiles: 1000, jobs: 300 },
  { seed: 1, profiles: 1000, jobs: 300 },
])('the target of seed $seed, $profiles profiles', (size) => {
  const { app } = mockApp(size);
  const target = targetOf(app.state.store);
  const jobs = [
    { board_key: target.profiles.board_key, job_key: target.profiles.job_key },
    ...target.jobs.job_ids,
  ];

  it.each(STAGES)('names only jobs with profiles at stage %s', async (stage) => {
    for (const job of jobs)
      expect(
        await atStage(app, target.profiles.source_keys, job, stage),
        job.job_key,
      ).toBeGreaterThan(0);
  });

  it('names a profile given every stage, so the jobs side finds items at each', async () => {
    for (const stage of STAGES) {
      const reply = await get<JobsScoring>(app, '/jobs/scoring', {
        board_keys: target.jobs.board_keys,
        source_key: target.jobs.source_key,
        profile_key: target.jobs.profile_key,
        stage,
        limit: 1,
      });
      expect(reply.status).toBe(200);
      expect(reply.body.meta.total, stage).toBeGreaterThan(0);
    }
  });

  it('still spreads its batches over every board', () => {
    const boards = new Set(target.jobs.job_ids.map((j) => j.board_key));
    expect([...boards].sort()).toEqual([...target.jobs.board_keys].sort());
    expect(target.jobs.job_ids).toHaveLength(12);
  });
});

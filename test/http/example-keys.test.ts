import { describe, expect, it } from 'vitest';
import { type ErrorAnswer, firstError } from '../support/answers.ts';
import { mockApp, query, send } from '../support/mock-app.ts';

const { app, fixtures } = mockApp();
const sourceKeys = fixtures.sources.map((s) => s.key);
const boardKeys = fixtures.boards.map((b) => b.key);

describe('error messages suggest keys this mock has', () => {
  it('suggests a source key of the store when source_keys is missing', async () => {
    const { status, body } = await send<ErrorAnswer>(app, '/profiles/searching');
    expect(status).toBe(400);
    expect(firstError(body).message).toContain(`source_keys=["${sourceKeys[0]}"]`);
  });

  it('suggests a board key of the store when board_keys is malformed', async () => {
    const { status, body } = await send<ErrorAnswer>(
      app,
      `/jobs/searching?${query({ board_keys: 'abc' })}`,
    );
    expect(status).toBe(400);
    expect(firstError(body).message).toContain(`board_keys=["${boardKeys[0]}"]`);
  });

  it('suggests a source key of the store in the profile_ids example', async () => {
    const { body } = await send<ErrorAnswer>(
      app,
      `/profiles/grading?${query({ algorithm_key: 'a', board_key: boardKeys[0], job_key: 'x', profile_ids: [] })}`,
    );
    const error = (body.errors ?? []).find((e) => e.param === 'profile_ids');
    expect(error?.message).toContain(`{"source_key":"${sourceKeys[0]}"`);
  });
});

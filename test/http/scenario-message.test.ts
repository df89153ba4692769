import { describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { createApp } from '../../src/http/app.ts';

const fixtures = buildFixtures({ profiles: 60, jobs: 20 });

describe('the message of a status forced by a scenario', () => {
  it('says why once: "(Answered because scenario … matched the request.)"', async () => {
    const app = createApp({ data: fixtures, log: false });
    const made = await app.request('/_mock/scenarios', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: '/profiles/searching', respond: { status: 500 } }),
    });
    expect(made.status).toBe(201);
    const answer = await app.request('/profiles/searching');
    expect(answer.status).toBe(500);
    const { message } = await answer.json();
    expect(message).toMatch(/\(Answered because scenario \S+ matched the request\.\)$/);
    expect(message).not.toMatch(/answered answered/i);
  });
});

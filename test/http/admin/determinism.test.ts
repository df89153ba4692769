import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../../src/api/start-mock.ts';
import { query } from '../../support/mock-app.ts';

// Scenarios and the journal change what the next matching requests get, never the data: the same
// seed answers the same bytes, and no steered answer reaches the answer cache or comes from it.
let steered: RunningMock;
let plain: RunningMock;
beforeAll(async () => {
  steered = await startMock({ seed: 5, profiles: 120, jobs: 30 });
  plain = await startMock({ seed: 5, profiles: 120, jobs: 30, journalSize: 0, admin: false });
});
afterAll(async () => {
  await steered.close();
  await plain.close();
});

const path = (mock: RunningMock) =>
  `/profiles/searching?${query({ source_keys: mock.target.profiles.source_keys, limit: 4 })}`;
const text = async (mock: RunningMock) => (await fetch(`${mock.url}${path(mock)}`)).text();

describe('determinism with scenarios and the journal', () => {
  it('answers the same bytes as a server of the same seed with no journal and no admin API', async () => {
    const expected = await text(plain);
    expect(JSON.parse(expected).data.profiles).toHaveLength(4);
    expect(await text(steered)).toBe(expected);
    expect(await text(steered)).toBe(expected);
    expect(steered.requests({ path: '/profiles/searching' }).length).toBeGreaterThanOrEqual(2);
  });

  it('never keeps a 200 a scenario made: once spent, the cached normal answer is back', async () => {
    const expected = await text(plain);
    expect(await text(steered)).toBe(expected);
    steered.use({ path: '/profiles/searching', respond: { example: 'empty' }, times: 1 });
    steered.use({ path: '/profiles/searching', respond: { status: 203 }, times: 1 });
    const relabelled = await fetch(`${steered.url}${path(steered)}`);
    expect(relabelled.status).toBe(203);
    expect(await relabelled.text()).toBe(expected);
    expect(JSON.parse(await text(steered)).meta.total).toBe(0);
    const after = await fetch(`${steered.url}${path(steered)}`);
    expect(after.status).toBe(200);
    expect(await after.text()).toBe(expected);
    expect(await text(steered)).toBe(expected);
  });

  it('never serves a cached answer where a scenario matches', async () => {
    const expected = await text(steered);
    expect(await text(steered)).toBe(expected);
    steered.use({
      path: '/profiles/searching',
      params: { limit: 4 },
      respond: { example: 'empty' },
    });
    const body = JSON.parse(await text(steered));
    expect(body.data.profiles).toEqual([]);
    steered.reset();
    expect(await text(steered)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import {
  type ErrorAnswer,
  firstError,
  type ProfilesGrading,
  type ProfilesSearching,
} from '../support/answers.ts';
import { obj } from '../support/json-reads.ts';
import { mockApp, query, send } from '../support/mock-app.ts';

const { app } = mockApp();
const t = targetOf(app.state.store);
const searching = `/profiles/searching?${query({ source_keys: t.profiles.source_keys, limit: 7 })}`;
const grading = `/profiles/grading?${query({ algorithm_key: 'a', board_key: t.profiles.board_key, job_key: t.profiles.job_key, profile_ids: t.profiles.profile_ids })}`;

function preferring(path: string, prefer: string, method = 'GET'): Request {
  return new Request(`http://localhost${path}`, { method, headers: { Prefer: prefer } });
}

describe('Prefer: code=NNN', () => {
  it.each([400, 401, 402, 404, 414, 429, 500])(
    'answers a documented %i with a valid envelope',
    async (code) => {
      const { status, body } = await send<ErrorAnswer>(app, preferring(searching, `code=${code}`));
      expect(status).toBe(code);
      expect(body.message).toMatch(`Prefer: code=${code}`);
    },
  );

  it('answers a forced 405 with the Allow header of the path', async () => {
    const { status, headers } = await send(app, preferring(grading, 'code=405'));
    expect(status).toBe(405);
    expect(headers.get('allow')).toBe('GET');
  });

  it('answers a forced 429 with Retry-After, as contract 1.3.0 documents', async () => {
    const { status, headers } = await send(app, preferring(searching, 'code=429'));
    expect(status).toBe(429);
    expect(headers.get('retry-after')).toBe('1');
  });

  it('answers 400 listing the documented codes for an undocumented one', async () => {
    const { status, body } = await send<ErrorAnswer>(app, preferring(searching, 'code=418'));
    expect(status).toBe(400);
    expect(firstError(body).param).toBe('Prefer');
    expect(body.message).toMatch(/200, 400, 401, 402, 404, 405, 414, 429, 500/);
  });

  it('answers 400 for a code the operation documents only for POST', async () => {
    const { status } = await send(app, preferring(grading, 'code=415'));
    expect(status).toBe(400);
  });

  it('answers normally for code=200', async () => {
    const plain = await send(app, searching);
    const forced = await send(app, preferring(searching, 'code=200'));
    expect(forced.body).toEqual(plain.body);
  });
});

describe('Prefer: delay=MS', () => {
  it('waits at least that long before answering', async () => {
    const started = performance.now();
    const { status } = await send(app, preferring(searching, 'delay=150'));
    expect(status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });

  it('answers 400 for a delay over a minute', async () => {
    const { status, body } = await send<ErrorAnswer>(app, preferring(searching, 'delay=70000'));
    expect(status).toBe(400);
    expect(body.message).toMatch(/delay must be whole milliseconds from 0 to 60000/);
  });
});

describe('Prefer: example=NAME', () => {
  it('example=empty answers no items and a total of 0', async () => {
    const { body } = await send<ProfilesSearching>(app, preferring(searching, 'example=empty'));
    expect(body.data.profiles).toEqual([]);
    expect(body.meta).toMatchObject({ count: 0, total: 0, maxPage: 1 });
  });

  it('example=empty still answers 400 for bad input', async () => {
    const { status } = await send(app, preferring('/profiles/searching?limit=0', 'example=empty'));
    expect(status).toBe(400);
  });

  it('example=last-page answers the last page', async () => {
    const { body } = await send<ProfilesSearching>(app, preferring(searching, 'example=last-page'));
    expect(body.meta.page).toBe(body.meta.maxPage);
    expect(body.meta.count).toBe(body.meta.total - (body.meta.maxPage - 1) * 7);
  });

  it('example=ungradable answers the first item as ungradable', async () => {
    const { body } = await send<ProfilesGrading>(app, preferring(grading, 'example=ungradable'));
    expect(body.data.scores[0]).toBeNull();
    expect(body.data.errors[0]).toMatch(/cannot be graded/);
    expect(obj(body.data.profiles[0]).key).toBe(t.profiles.profile_ids[0]?.profile_key);
  });

  it('answers 400 naming the offered examples for an unknown one', async () => {
    const { status, body } = await send<ErrorAnswer>(app, preferring(searching, 'example=nope'));
    expect(status).toBe(400);
    expect(body.message).toMatch(/empty.*last-page/);
  });
});

describe('--fail-rate and --latency', () => {
  const fixtures = buildFixtures({ profiles: 40, jobs: 10 });
  const path = `/jobs/searching?${query({ board_keys: fixtures.boards.map((b) => b.key) })}`;
  const statuses = async (seed: number) => {
    const chaotic = createApp({ data: fixtures, log: false, chaos: { seed, failRate: 0.3 } });
    const seen: number[] = [];
    for (let i = 0; i < 60; i++) seen.push((await send(chaotic, path)).status);
    return seen;
  };

  it('fails about that share of requests, with a valid 500 envelope', async () => {
    const seen = await statuses(7);
    const failed = seen.filter((s) => s === 500).length;
    expect(failed).toBeGreaterThan(5);
    expect(failed).toBeLessThan(35);
    expect(seen.every((s) => s === 200 || s === 500)).toBe(true);
  });

  it('fails the same requests again for the same seed, and others for another seed', async () => {
    expect(await statuses(7)).toEqual(await statuses(7));
    expect(await statuses(8)).not.toEqual(await statuses(7));
  });

  it('delays every answer by at least the lower bound of --latency', async () => {
    const slow = createApp({
      data: fixtures,
      log: false,
      chaos: { seed: 1, latency: { min: 60, max: 80 } },
    });
    const started = performance.now();
    await send(slow, path);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });
});

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/suite/openapi.ts';
import { ContractValidator } from '../../contract/suite/validator.ts';
import { type RunningMock, startMock } from '../../src/api/start-mock.ts';
import { RateLimiter } from '../../src/node/rate-limit.ts';
import { query } from '../support/mock-app.ts';

describe('RateLimiter', () => {
  it('lets N requests through within a second and answers the next with the seconds to wait', () => {
    const limiter = new RateLimiter(3);
    expect([0, 10, 20, 30].map((t) => limiter.take('a', 1000 + t))).toEqual([0, 0, 0, 1]);
  });

  it('counts over a sliding second: a request goes once the oldest of the last N is a second old', () => {
    const limiter = new RateLimiter(2);
    expect(limiter.take('a', 0)).toBe(0);
    expect(limiter.take('a', 600)).toBe(0);
    expect(limiter.take('a', 999)).toBe(1);
    expect(limiter.take('a', 1000)).toBe(0);
    expect(limiter.take('a', 1500)).toBe(1);
    expect(limiter.take('a', 1600)).toBe(0);
  });

  it('keeps one budget per client', () => {
    const limiter = new RateLimiter(1);
    expect([limiter.take('a', 0), limiter.take('b', 0), limiter.take('a', 1)]).toEqual([0, 0, 1]);
  });

  it('forgets clients idle for a second', () => {
    const limiter = new RateLimiter(1);
    for (let i = 0; i < 100; i++) limiter.take(`client ${i}`, 0);
    expect(limiter.clients).toBe(100);
    limiter.take('late', 5000);
    expect(limiter.clients).toBe(1);
  });

  it.each([0, -1, 1.5, 100_001, Number.NaN])('refuses a rate of %s, naming rateLimit', (rate) => {
    expect(() => new RateLimiter(rate)).toThrow(
      /rateLimit must be a whole number .* from 1 to 100000/,
    );
  });
});

describe('startMock({rateLimit})', () => {
  let mock: RunningMock;
  let searching: string;
  const validator = new ContractValidator(loadContract());

  beforeAll(async () => {
    mock = await startMock({ profiles: 60, jobs: 20, rateLimit: 3 });
    searching = `${mock.url}/profiles/searching?${query({ source_keys: mock.target.profiles.source_keys, limit: 2 })}`;
  });
  afterAll(() => mock.close());

  /** Sends `count` requests at once, each with `headers`, and answers their statuses, sorted. */
  async function burst(count: number, init: RequestInit = {}): Promise<Response[]> {
    const answers = await Promise.all(Array.from({ length: count }, () => fetch(searching, init)));
    return answers.sort((a, b) => a.status - b.status);
  }

  it('answers the (N+1)th request within a second with the 429 envelope and Retry-After', async () => {
    const answers = await burst(5, { headers: { 'X-API-KEY': 'first' } });
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
    const limited = answers[3] as Response;
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('content-type')).toBe('application/json');
    const body = await limited.json();
    expect(body).toEqual({
      code: 429,
      message: expect.stringMatching(
        /^Too many requests: this mock answers 3 a second with this API key/,
      ),
    });
    expect(validator.validateResponse('/profiles/searching', 'get', 429, body)).toEqual({
      ok: true,
    });
  });

  it('keeps a budget per API key, and one per client address without a key', async () => {
    const [other, anonymous] = await Promise.all([
      burst(4, { headers: { 'X-API-KEY': 'second' } }),
      burst(4),
    ]);
    expect(other.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(anonymous.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect((await (anonymous[3] as Response).json()).message).toMatch(/from this address/);
  });

  it('counts neither the admin API nor the target, and journals each 429 with what was sent', async () => {
    mock.reset();
    const admin = await Promise.all(
      Array.from({ length: 6 }, () => fetch(`${mock.url}/_mock/requests`)),
    );
    const target = await Promise.all(
      Array.from({ length: 6 }, () => fetch(`${mock.url}/_mock/target`)),
    );
    expect([...admin, ...target].map((a) => a.status)).toEqual(new Array(12).fill(200));
    const post = () =>
      fetch(`${mock.url}/jobs/searching`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-API-KEY': 'third' },
        body: JSON.stringify({ board_keys: mock.target.jobs.board_keys, limit: 1 }),
      });
    const statuses = (await Promise.all([post(), post(), post(), post()])).map((a) => a.status);
    expect(statuses.sort()).toEqual([200, 200, 200, 429]);
    const [limited] = mock.requests({ path: '/jobs/searching', status: 429 });
    expect(limited?.params).toEqual({ board_keys: mock.target.jobs.board_keys, limit: 1 });
    expect(limited?.headers['x-api-key']).toBe('[redacted]');
  });
});

const bin = fileURLToPath(new URL('../../bin/hrmock.js', import.meta.url));

describe('hrmock serve --rate-limit', () => {
  it.each(['10', '0/s', 'fast', '10/min', '100001/s'])(
    'exits with status 2 and a usage line for --rate-limit %s',
    async (value) => {
      const failed = await promisify(execFile)(process.execPath, [
        bin,
        'serve',
        '--rate-limit',
        value,
      ]).catch((error) => error as { code: number; stderr: string });
      expect(failed).toMatchObject({ code: 2 });
      expect((failed as { stderr: string }).stderr).toBe(
        `hrmock: --rate-limit takes requests a second as N/s with N from 1 to 100000, e.g. 10/s, got "${value}"\n`,
      );
    },
  );
});

import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/suite/openapi.ts';
import { ContractValidator } from '../../contract/suite/validator.ts';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { type RunningMock, startMock } from '../../src/api/start-mock.ts';
import { createApp } from '../../src/http/app.ts';
import { createNodeListener } from '../../src/node/node-listener.ts';
import { MAX_CLIENTS, MAX_RATE, RateLimiter, rateLimited } from '../../src/node/rate-limit.ts';
import { CLI } from '../support/cli-entry.ts';
import { query } from '../support/mock-app.ts';

describe('RateLimiter', () => {
  it('lets N requests through within a second and answers the next with the seconds to wait', () => {
    const limiter = new RateLimiter(3);
    expect([0, 10, 20, 30].map((t) => limiter.take('a', 1000 + t))).toEqual([0, 0, 0, 1]);
  });

  it('refills one request every 1/N s after a burst of N (a token bucket)', () => {
    const limiter = new RateLimiter(2);
    expect(limiter.take('a', 0)).toBe(0);
    expect(limiter.take('a', 1)).toBe(0);
    expect(limiter.take('a', 2)).toBe(1);
    expect(limiter.take('a', 500)).toBe(0);
    expect(limiter.take('a', 501)).toBe(1);
    expect(limiter.take('a', 1000)).toBe(0);
    expect(limiter.take('a', 3000)).toBe(0);
    expect(limiter.take('a', 3001)).toBe(0);
    expect(limiter.take('a', 3002)).toBe(1);
  });

  it('remembers at most MAX_CLIENTS clients, forgetting the one remembered longest', () => {
    const limiter = new RateLimiter(MAX_RATE);
    for (let i = 0; i < MAX_CLIENTS + 500; i++) expect(limiter.take(`key ${i}`, 0)).toBe(0);
    expect(limiter.clients).toBe(MAX_CLIENTS);
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
    // A burst of 12 at once: the bucket of 3 lets the first 3 through (more only as it refills,
    // one every 1/3 s, should a loaded machine spread the burst out), and refuses the rest. The
    // exact counts over time are RateLimiter's, above, on its own clock.
    const answers = await burst(12, { headers: { 'X-API-KEY': 'first' } });
    const statuses = answers.map((a) => a.status);
    expect(new Set(statuses)).toEqual(new Set([200, 429]));
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
    const limited = answers.find((a) => a.status === 429) as Response;
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
    // Two bursts at once, each with a bucket of its own: each gets its 3 through, then 429s.
    const [other, anonymous] = await Promise.all([
      burst(12, { headers: { 'X-API-KEY': 'second' } }),
      burst(12),
    ]);
    for (const answers of [other, anonymous]) {
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
      expect(statuses).toContain(429);
    }
    const limited = anonymous.find((a) => a.status === 429) as Response;
    expect((await limited.json()).message).toMatch(/from this address/);
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

describe('rate-limit buckets under --api-key', () => {
  const limiter = new RateLimiter(MAX_RATE);
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const app = createApp({
      data: buildFixtures({ seed: 3, profiles: 30, jobs: 10 }),
      apiKey: 'the-right-key',
      log: false,
    });
    const answering = createNodeListener(app, {
      answerCacheBytes: 0,
      compress: 'off',
      fastPath: true,
    });
    server = createServer(rateLimited(app.state, limiter, answering));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/profiles/searching`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('makes none for requests with a wrong or missing key, which get their 401', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) {
      const headers: Record<string, string> = i === 0 ? {} : { 'X-API-KEY': `wrong-${i}` };
      const answer = await fetch(url, { headers });
      await answer.arrayBuffer();
      statuses.push(answer.status);
    }
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect(limiter.clients).toBe(0);
  });

  it('makes one for the accepted key', async () => {
    const answer = await fetch(url, { headers: { 'X-API-KEY': 'the-right-key' } });
    await answer.arrayBuffer();
    expect(answer.status).not.toBe(401);
    expect(limiter.clients).toBe(1);
  });
});

describe('hrmock serve --rate-limit', () => {
  it.each(['10', '0/s', 'fast', '10/min', '100001/s'])(
    'exits with status 2 and a usage line for --rate-limit %s',
    async (value) => {
      const failed = await promisify(execFile)(process.execPath, [
        CLI,
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

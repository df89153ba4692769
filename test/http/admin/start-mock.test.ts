import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../../src/api/start-mock.ts';
import { query } from '../../support/mock-app.ts';
import { rawRequest } from '../../support/raw-request.ts';

let mock: RunningMock;
let searching: string;
beforeAll(async () => {
  mock = await startMock({ profiles: 100, jobs: 30, seed: 9 });
  searching = `${mock.url}/profiles/searching?${query({ source_keys: mock.target.profiles.source_keys, limit: 3 })}`;
});
afterAll(() => mock.close());
afterEach(() => mock.reset());

describe('startMock steering in process', () => {
  it('answers the scenario set with use() for its times, then the same data as before', async () => {
    const before = await (await fetch(searching)).text();
    mock.use({ path: '/profiles/searching', respond: { status: 500 }, times: 1 });
    expect((await fetch(searching)).status).toBe(500);
    expect(await (await fetch(searching)).text()).toBe(before);
  });

  it('throws on a bad scenario, naming the field', () => {
    expect(() => mock.use({ path: '/nowhere', respond: { status: 500 } })).toThrow(/path must be/);
  });

  it('lists the requests the app sent, decoded', async () => {
    await fetch(searching);
    const [entry] = mock.requests({ path: '/profiles/searching' });
    expect(entry?.params).toEqual({ source_keys: mock.target.profiles.source_keys, limit: 3 });
  });

  it('waits for a request to come', async () => {
    const waiting = mock.waitForRequest(
      { path: '/profiles/searching', method: 'GET' },
      { timeoutMs: 30_000 },
    );
    void fetch(searching);
    expect((await waiting).status).toBe(200);
  });

  it('rejects waitForRequest after its timeout', async () => {
    await expect(mock.waitForRequest({ path: '/jobs/scoring' }, { timeoutMs: 50 })).rejects.toThrow(
      /No request matching/,
    );
  });

  it('empties the journal and removes the scenarios on reset()', async () => {
    mock.use({ path: '/profiles/searching', respond: { status: 500 } });
    await fetch(searching);
    mock.reset();
    expect(mock.requests()).toEqual([]);
    expect((await fetch(searching)).status).toBe(200);
  });
});

describe('startMock admin access', () => {
  /** `GET /_mock/requests` sent with this Host and Origin, as a rebinding page or an app would. */
  async function journalAs(port: number, host: string, origin?: string) {
    const headers: Record<string, string> = { host, ...(origin !== undefined && { origin }) };
    const reply = await rawRequest(port, 'GET', '/_mock/requests', headers);
    return { status: reply.status, allowOrigin: reply.headers['access-control-allow-origin'] };
  }

  it('answers the admin API only to loopback names and the names of host and allowedHosts', async () => {
    const other = await startMock({
      profiles: 40,
      jobs: 10,
      host: '127.0.0.1',
      allowedHosts: ['mock.internal'],
      adminOrigins: ['http://localhost:5173'],
    });
    try {
      expect((await journalAs(other.port, 'evil.example')).status).toBe(403);
      expect((await journalAs(other.port, 'mock.internal:80')).status).toBe(200);
      expect(await journalAs(other.port, 'localhost', 'http://localhost:5173')).toEqual({
        status: 200,
        allowOrigin: 'http://localhost:5173',
      });
    } finally {
      await other.close();
    }
  });

  it('refuses params nesting deeper than limits.jsonDepth in use() too', () => {
    const params = { limit: JSON.parse(`${'['.repeat(70)}${']'.repeat(70)}`) };
    expect(() =>
      mock.use({ path: '/profiles/searching', params, respond: { status: 500 } }),
    ).toThrow(/params nest deeper than 64 levels/);
  });
});

import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../../src/api/start-mock.ts';
import { query } from '../../support/mock-app.ts';

let mock: RunningMock;
let searching: string;
beforeAll(async () => {
  mock = await startMock({ profiles: 100, jobs: 30 });
  searching = `${mock.url}/profiles/searching?${query({ source_keys: mock.target.profiles.source_keys, limit: 3 })}`;
});
afterAll(() => mock.close());
afterEach(() => mock.reset());

describe('faults on the node server', () => {
  it('resets the connection with no answer, which undici reports as a connection error', async () => {
    mock.use({ path: '/profiles/searching', respond: { fault: 'reset' }, times: 1 });
    const failure = await request(searching).then(
      (r) => `answered ${r.statusCode}`,
      (error: Error & { code?: string }) => error.code,
    );
    expect(failure).toMatch(/^(ECONNRESET|UND_ERR_SOCKET)$/);
    expect((await fetch(searching)).status).toBe(200);
  });

  it('gives no answer until the client gives up', async () => {
    mock.use({ path: '/profiles/searching', respond: { fault: 'hang' }, times: 1 });
    const started = performance.now();
    const failure = await fetch(searching, { signal: AbortSignal.timeout(300) }).then(
      (r) => `answered ${r.status}`,
      (error: Error) => error.name,
    );
    expect(failure).toBe('TimeoutError');
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('resets a hung connection when the mock stops, instead of waiting for its client', async () => {
    const own = await startMock({ profiles: 60, jobs: 20 });
    own.use({ path: '/jobs/searching', respond: { fault: 'hang' } });
    const hung = request(
      `${own.url}/jobs/searching?${query({ board_keys: own.target.jobs.board_keys })}`,
    ).then(
      (r) => `answered ${r.statusCode}`,
      (error: Error & { code?: string }) => error.code,
    );
    while (own.app.state.steering.hangs.size === 0) await new Promise((r) => setTimeout(r, 10));
    await own.close();
    expect(await hung).toMatch(/^(ECONNRESET|UND_ERR_SOCKET)$/);
    expect(own.app.state.steering.hangs.size).toBe(0);
  }, 20_000);

  it('answers 200 with a body that is not JSON', async () => {
    mock.use({ path: '/profiles/searching', respond: { fault: 'malformed-json' } });
    const response = await fetch(searching);
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow(SyntaxError);
  });

  it('cuts the body short of its Content-Length', async () => {
    mock.use({ path: '/profiles/searching', respond: { fault: 'truncated' } });
    const dispatcher = new Agent();
    const response = await request(searching, { dispatcher });
    expect(response.statusCode).toBe(200);
    const length = Number(response.headers['content-length']);
    expect(length).toBeGreaterThan(0);
    await expect(response.body.text()).rejects.toThrow();
    await dispatcher.close();
  });

  it('journals a reset as a request with no status, answered by its scenario', async () => {
    const scenario = mock.use({ path: '/profiles/searching', respond: { fault: 'reset' } });
    await fetch(searching).catch(() => undefined);
    const [entry] = mock.requests({ path: '/profiles/searching' });
    expect(entry).toMatchObject({ status: null, scenario: scenario.id });
  });
});

describe('faults in process', () => {
  it('rejects a reset as fetch does, with a TypeError caused by ECONNRESET', async () => {
    mock.use({ path: '/profiles/searching', respond: { fault: 'reset' } });
    const path = searching.slice(mock.url.length);
    const failure = await Promise.resolve(mock.app.request(path)).then(
      () => 'answered',
      (error: TypeError & { cause?: { code?: string } }) => error.cause?.code,
    );
    expect(failure).toBe('ECONNRESET');
  });
});

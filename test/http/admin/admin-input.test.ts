import { request as httpRequest } from 'node:http';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/node/server.ts';
import type { ScenarioAdded, ScenarioList } from '../../support/admin-answers.ts';
import { adminServers, JSON_TYPE } from '../../support/admin-server.ts';
import { type ErrorAnswer, errorParams } from '../../support/answers.ts';

// What the admin API takes, on a real node server: scenario headers it could send, params no
// deeper than the JSON depth limit, bodies up to 1 MB (read no further).
const { serve, send } = adminServers();
let server: RunningServer;
beforeAll(async () => {
  server = await serve();
});
beforeEach(async () => {
  await send(server, 'POST', '/_mock/reset', JSON_TYPE);
});

async function planted(on = server): Promise<number> {
  return (await send<ScenarioList>(on, 'GET', '/_mock/scenarios')).body.data.length;
}

describe('scenario headers', () => {
  const withHeaders = (headers: Record<string, unknown>) =>
    JSON.stringify({ path: '/profiles/searching', respond: { status: 503, headers } });

  it.each([
    'Transfer-Encoding',
    'Content-Length',
    'Connection',
    'Keep-Alive',
    'Upgrade',
    'TE',
    'Trailer',
    'Proxy-Connection',
    'Host',
  ])('refuses %s with a 400 naming it', async (name) => {
    const reply = await send<ErrorAnswer>(
      server,
      'POST',
      '/_mock/scenarios',
      JSON_TYPE,
      withHeaders({ [name]: '5' }),
    );
    expect(reply.status).toBe(400);
    expect(errorParams(reply.body)).toEqual([`respond.headers.${name}`]);
    expect(await planted()).toBe(0);
  });

  it.each([
    [{ 'bad name': 'x' }, 'respond.headers.bad name'],
    [{ 'X-Ok': 'line\r\nX-Injected: 1' }, 'respond.headers.X-Ok'],
    [{ 'X-Ok': ' padded' }, 'respond.headers.X-Ok'],
    [{ 'X-Ok': 'snow \u2603' }, 'respond.headers.X-Ok'],
    [{ 'X-Ok': 5 }, 'respond.headers.X-Ok'],
    [{ 'X-Hrmock-Fault': 'reset' }, 'respond.headers.X-Hrmock-Fault'],
  ])('refuses %j with a 400 naming %s', async (headers, param) => {
    const reply = await send<ErrorAnswer>(
      server,
      'POST',
      '/_mock/scenarios',
      JSON_TYPE,
      withHeaders(headers),
    );
    expect(reply.status).toBe(400);
    expect(errorParams(reply.body)).toEqual([param]);
  });

  it('names every bad header at once', async () => {
    const reply = await send<ErrorAnswer>(
      server,
      'POST',
      '/_mock/scenarios',
      JSON_TYPE,
      withHeaders({ 'Transfer-Encoding': 'chunked', 'X-Ok': 'fine', 'X:Bad': 'x' }),
    );
    expect(errorParams(reply.body)).toEqual([
      'respond.headers.Transfer-Encoding',
      'respond.headers.X:Bad',
    ]);
  });

  it('sends a valid header with the answer', async () => {
    const reply = await send(
      server,
      'POST',
      '/_mock/scenarios',
      JSON_TYPE,
      withHeaders({ 'Retry-After': '7', 'X-Note': 'a\tb "quoted"' }),
    );
    expect(reply.status).toBe(201);
    const answer = await fetch(`${server.url}/profiles/searching`);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('x-note')).toBe('a\tb "quoted"');
  });

  it('refuses params nesting deeper than the JSON depth limit', async () => {
    const deep = await serve({ limits: { jsonDepth: 8 } });
    const nested = (levels: number) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`);
    const scenario = (levels: number) =>
      JSON.stringify({
        path: '/profiles/searching',
        params: { limit: nested(levels) },
        respond: { status: 500 },
      });
    const refused = await send<ErrorAnswer>(
      deep,
      'POST',
      '/_mock/scenarios',
      JSON_TYPE,
      scenario(8),
    );
    expect(refused.status).toBe(400);
    expect(errorParams(refused.body)).toEqual(['params']);
    expect((await send(deep, 'POST', '/_mock/scenarios', JSON_TYPE, scenario(7))).status).toBe(201);
  });

  it('keeps only the fields of respond it knows', async () => {
    const reply = await send<ScenarioAdded>(
      server,
      'POST',
      '/_mock/scenarios',
      JSON_TYPE,
      JSON.stringify({ path: '/profiles/searching', respond: { status: 500, extra: [[[1]]] } }),
    );
    expect(reply.body.data.respond).toEqual({ status: 500 });
  });
});

describe('admin bodies', () => {
  const big = Buffer.alloc(2 * 1024 * 1024, 0x20);

  it('refuses a 2 MB scenario with a 413 envelope', async () => {
    const reply = await send(server, 'POST', '/_mock/scenarios', JSON_TYPE, big);
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({
      code: 413,
      message: expect.stringMatching(/1048576 bytes/),
    });
    expect(await planted()).toBe(0);
  });

  it('refuses a 2 MB scenario sent in chunks, without a length, with a 413', async () => {
    const reply = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/_mock/scenarios',
          headers: JSON_TYPE,
          agent: false,
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      for (let at = 0; at < big.length; at += 64 * 1024)
        req.write(big.subarray(at, at + 64 * 1024));
      req.end();
    });
    expect(reply).toBe(413);
  });

  it('takes a scenario just under the limit', async () => {
    const padded = JSON.stringify({
      path: '/profiles/searching',
      respond: { status: 500 },
      note: 'x'.repeat(1024 * 1024 - 100),
    });
    expect((await send(server, 'POST', '/_mock/scenarios', JSON_TYPE, padded)).status).toBe(201);
  });
});

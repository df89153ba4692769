import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAdminPath, isAdminTarget } from '../../../src/http/admin/admin-path.ts';
import type { RunningServer } from '../../../src/node/server.ts';
import type { ScenarioList } from '../../support/admin-answers.ts';
import { adminServers, JSON_TYPE } from '../../support/admin-server.ts';
import type { ErrorAnswer } from '../../support/answers.ts';
import type { RawReply } from '../../support/raw-request.ts';

// The admin API on a real node server (answer cache and fast path on): same-origin by default,
// and reached as the admin API however its path is spelled.
const { serve, send } = adminServers();
const SCENARIO = JSON.stringify({ path: '/profiles/searching', respond: { status: 500 } });

function corsHeaders(reply: RawReply): string[] {
  return Object.keys(reply.headers).filter((name) => name.startsWith('access-control-'));
}

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

describe('the admin API is same-origin', () => {
  it('refuses a preflight from another origin with a 403 and no Access-Control headers', async () => {
    const reply = await send<ErrorAnswer>(server, 'OPTIONS', '/_mock/scenarios', {
      origin: 'https://evil.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    });
    expect(reply.status).toBe(403);
    expect(corsHeaders(reply)).toEqual([]);
    expect(reply.body.message).toMatch(/--admin-origin/);
  });

  it('gives no Access-Control-Allow-Origin to a call from another origin', async () => {
    const reply = await send(server, 'GET', '/_mock/requests', { origin: 'https://evil.example' });
    expect(reply.status).toBe(403);
    expect(corsHeaders(reply)).toEqual([]);
  });

  it('keeps Access-Control-Allow-Origin: * on the API', async () => {
    const reply = await send(server, 'GET', '/_mock/target', { origin: 'https://evil.example' });
    expect(reply.status).toBe(200);
    expect(reply.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers a page of its own origin', async () => {
    const origin = `http://127.0.0.1:${server.port}`;
    const reply = await send(
      server,
      'POST',
      '/_mock/scenarios',
      { ...JSON_TYPE, origin },
      SCENARIO,
    );
    expect(reply.status).toBe(201);
  });

  it('refuses a scenario sent as text/plain with a 415, and plants nothing', async () => {
    const reply = await send(
      server,
      'POST',
      '/_mock/scenarios',
      { 'content-type': 'text/plain' },
      SCENARIO,
    );
    expect(reply.status).toBe(415);
    expect(reply.body).toMatchObject({
      code: 415,
      message: expect.stringMatching(/application\/json/),
    });
    expect(await planted()).toBe(0);
  });

  it('refuses a reset without Content-Type: application/json', async () => {
    await send(server, 'POST', '/_mock/scenarios', JSON_TYPE, SCENARIO);
    expect((await send(server, 'POST', '/_mock/reset')).status).toBe(415);
    expect((await send(server, 'DELETE', '/_mock/scenarios')).status).toBe(415);
    expect(await planted()).toBe(1);
  });

  it('answers 403 to a Host that is not a loopback name, saying how to allow it', async () => {
    const reply = await send(server, 'GET', '/_mock/requests', { host: 'evil.example' });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({
      code: 403,
      message: expect.stringMatching(/--allowed-host evil\.example/),
    });
  });

  it.each(['localhost', 'app.localhost', '127.0.0.1', '127.8.9.10', '[::1]'])(
    'answers a Host of %s',
    async (host) => {
      expect((await send(server, 'GET', '/_mock/requests', { host: `${host}:4010` })).status).toBe(
        200,
      );
    },
  );

  it('answers a Host named by allowedHosts (--allowed-host)', async () => {
    const allowed = await serve({ allowedHosts: ['evil.example'] });
    const reply = await send(allowed, 'GET', '/_mock/requests', { host: 'evil.example:4010' });
    expect(reply.status).toBe(200);
  });

  it('gives CORS to exactly the origin adminOrigins names (--admin-origin)', async () => {
    const opened = await serve({ adminOrigins: ['http://localhost:5173'] });
    const preflight = (origin: string) =>
      send(opened, 'OPTIONS', '/_mock/scenarios', {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      });
    const app = await preflight('http://localhost:5173');
    expect(app.status).toBe(204);
    expect(app.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    const other = await preflight('http://localhost:5174');
    expect(other.status).toBe(403);
    expect(corsHeaders(other)).toEqual([]);
    const call = await send(
      opened,
      'POST',
      '/_mock/scenarios',
      { ...JSON_TYPE, origin: 'http://localhost:5173' },
      SCENARIO,
    );
    expect(call.status).toBe(201);
    expect(call.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });
});

describe('one spelling of /_mock', () => {
  it.each([
    ['/_mock/scenarios', true],
    ['//_mock/scenarios', true],
    ['/./_mock/scenarios', true],
    ['/_mock/../_mock/scenarios', true],
    ['/profiles/../_mock/reset', true],
    ['/%5Fmock/reset', true],
    ['/_mo%63k/requests?x=1', true],
    ['http://127.0.0.1/_mock/reset', true],
    ['/_mock', true],
    ['/_mock/target', false],
    ['//_mock/target', false],
    ['/_mockery', false],
    ['/profiles/searching?q=_mock', false],
    ['/profiles/searching?q=%5Fmock', false],
  ])('reads %s as the admin API: %s', (target, admin) => {
    expect(isAdminTarget(target)).toBe(admin);
  });

  it('agrees with the router on a routed path', () => {
    expect(isAdminPath('/_mock/scenarios')).toBe(true);
    expect(isAdminPath('/v1/_mock/scenarios')).toBe(false);
  });

  it.each(['//_mock', '/./_mock', '/_mock/../_mock', '/%5Fmock'])(
    'adds a scenario for each POST to %s/scenarios and resets there, past the answer cache',
    async (prefix) => {
      for (let i = 0; i < 2; i++) {
        const reply = await send(server, 'POST', `${prefix}/scenarios`, JSON_TYPE, SCENARIO);
        expect(reply.status).toBe(201);
      }
      expect(await planted()).toBe(2);
      expect((await send(server, 'POST', `${prefix}/reset`, JSON_TYPE)).status).toBe(200);
      expect(await planted()).toBe(0);
    },
  );

  it('checks the Host of an admin call however its path is spelled', async () => {
    const reply = await send(server, 'GET', '//_mock/requests', { host: 'evil.example' });
    expect(reply.status).toBe(403);
  });
});

import { connect, type Socket } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { createApp } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';

const fixtures = buildFixtures({ profiles: 100, jobs: 20 });
const app = createApp({ data: fixtures, log: false });
const sources = encodeURIComponent(JSON.stringify(fixtures.sources.map((s) => s.key)));
const bigBody = JSON.stringify({ filler: 'a'.repeat(3 * 1024 * 1024) });
const KEY = 'connections-test-key';
// 512 KiB: under the 1 MiB limit, over the 64 KiB a POST is read up front, so Hono answers it
// before reading it; too much to have been read by then, even on loopback.
const largeBody = JSON.stringify({ filler: 'a'.repeat(512 * 1024) });
let server: RunningServer;
let locked: RunningServer;

beforeAll(async () => {
  server = await startServer(app);
  locked = await startServer(createApp({ data: fixtures, log: false, apiKey: KEY }));
});

afterAll(async () => {
  await server?.close();
  await locked?.close();
});

/** Answers Hono gives before reading a large body: each refuses the request as it stands. */
const EARLY_REFUSALS = [
  {
    name: 'a 415 for a text/plain body',
    status: 415,
    locked: false,
    request: { method: 'POST', path: '/profiles/searching', type: 'text/plain' },
  },
  {
    name: 'a 401 without the API key',
    status: 401,
    locked: true,
    request: { method: 'POST', path: '/profiles/searching', type: 'application/json' },
  },
  {
    name: 'a 405 for a POST to grading',
    status: 405,
    locked: false,
    request: { method: 'POST', path: '/profiles/grading', type: 'application/json' },
  },
] as const;
const EARLY_CASES = EARLY_REFUSALS.map((refusal) => [refusal.name, refusal] as const);

describe('a pooled client (undici) after early answers', () => {
  it('gets 413, 414 and then 415, each on a usable connection', async () => {
    const pool = new Pool(server.url, { connections: 1, pipelining: 1 });
    try {
      const tooLarge = await pool.request({
        path: '/profiles/searching',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: bigBody,
      });
      expect(tooLarge.statusCode).toBe(413);
      expect(tooLarge.headers.connection).toBe('close');
      await tooLarge.body.json();
      const tooLong = await pool.request({
        path: `/profiles/searching?source_keys=${sources}&q=${'a'.repeat(70 * 1024)}`,
        method: 'GET',
      });
      expect(tooLong.statusCode).toBe(414);
      expect(tooLong.headers.connection).toBe('close');
      await tooLong.body.json();
      const wrongType = await pool.request({
        path: '/profiles/searching',
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'source_keys=abc',
      });
      expect(wrongType.statusCode).toBe(415);
      expect((await wrongType.body.json()) as { code: number }).toMatchObject({ code: 415 });
    } finally {
      await pool.close();
    }
  });

  it.each(EARLY_CASES)(
    'says Connection: close on %s before a large body, and the next request succeeds',
    async (_, { status, locked: needsKey, request }) => {
      const url = needsKey ? locked.url : server.url;
      const pool = new Pool(url, { connections: 1, pipelining: 1 });
      try {
        const refused = await pool.request({
          path: request.path,
          method: request.method,
          headers: { 'content-type': request.type },
          body: largeBody,
        });
        expect(refused.statusCode).toBe(status);
        expect(refused.headers.connection).toBe('close');
        expect((await refused.body.json()) as { code: number }).toMatchObject({ code: status });
        const next = await pool.request({
          path: '/_mock/target',
          method: 'GET',
          headers: { 'x-api-key': KEY },
        });
        expect(next.statusCode).toBe(200);
        await next.body.json();
      } finally {
        await pool.close();
      }
    },
  );

  it('keeps the connection of an ordinary answer, error or not, for the next request', async () => {
    const pool = new Pool(server.url, { connections: 1, pipelining: 1 });
    const sockets = new Set<unknown>();
    pool.on('connect', (_origin, [client]) => sockets.add(client));
    try {
      for (const path of [
        '/_mock/target',
        '/profiles/searching',
        `/profiles/searching?source_keys=${sources}`,
      ]) {
        const reply = await pool.request({ path, method: 'GET' });
        expect(reply.headers.connection).toBe('keep-alive');
        await reply.body.text();
      }
      expect(sockets.size).toBe(1);
    } finally {
      await pool.close();
    }
  });
});

/** Sends raw bytes on one socket and collects what comes back until the server closes it. */
function rawExchange(
  chunks: string[],
  gapMs = 0,
  port = server.port,
): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (data) => {
      text += data;
    });
    socket.on('error', reject);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, 5_000);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}

function statuses(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
}

describe('raw sockets', () => {
  it('keeps the socket after an answer from the cache, written before Node marks a GET complete', async () => {
    const get = 'GET /_mock/target HTTP/1.1\r\nHost: x\r\n\r\n';
    const { text } = await rawExchange([get, get, `${get.slice(0, -2)}Connection: close\r\n\r\n`]);
    expect(statuses(text)).toEqual([200, 200, 200]);
    expect(text.match(/connection: keep-alive/gi)).toHaveLength(2);
  });

  it('answers the next request on the same socket after an ordinary one', async () => {
    const get = (path: string, last = false) =>
      `GET ${path} HTTP/1.1\r\nHost: x\r\n${last ? 'Connection: close\r\n' : ''}\r\n`;
    const { text } = await rawExchange([
      get('/_mock/target'),
      get('/nowhere'),
      get('/_mock/target', true),
    ]);
    expect(statuses(text)).toEqual([200, 404, 200]);
  });

  it('closes, saying so, after a 413 whose body it did not read', async () => {
    const head =
      'POST /profiles/searching HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${bigBody.length}\r\n\r\n`;
    const { text, closed } = await rawExchange([head, bigBody.slice(0, 4096)]);
    expect(statuses(text)).toEqual([413]);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(closed).toBe(true);
  });

  it.each(EARLY_CASES)(
    'closes, saying so, after %s written before the large body was read',
    async (_, { status, locked: needsKey, request }) => {
      const head =
        `${request.method} ${request.path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${request.type}\r\n` +
        `Content-Length: ${largeBody.length}\r\n\r\n`;
      const { text, closed } = await rawExchange(
        [head, largeBody.slice(0, 4096)],
        0,
        needsKey ? locked.port : server.port,
      );
      expect(statuses(text)).toEqual([status]);
      expect(text).toMatch(/\r\nconnection: close\r\n/i);
      expect(closed).toBe(true);
    },
  );

  it('cuts a chunked body at the limit instead of reading it to its end', async () => {
    const head =
      'POST /profiles/searching HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      'Transfer-Encoding: chunked\r\n\r\n';
    const chunk = `${(64 * 1024).toString(16)}\r\n${'a'.repeat(64 * 1024)}\r\n`;
    // 32 chunks of 64 KiB: 2 MiB, twice the limit; the server answers after the first MiB.
    const { text, closed } = await rawExchange([head, ...Array(32).fill(chunk)], 20);
    expect(statuses(text)).toEqual([413]);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(closed).toBe(true);
  });

  it('answers headers over the limit with a 431 envelope, and closes', async () => {
    const huge = `GET /_mock/target HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(300 * 1024)}\r\n\r\n`;
    const { text, closed } = await rawExchange([huge]);
    expect(statuses(text)).toEqual([431]);
    expect(text).toMatch(/\r\nConnection: close\r\n/);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 431 });
    expect(closed).toBe(true);
  });

  it('answers a request that is not HTTP with a 400 envelope, and closes', async () => {
    const { text, closed } = await rawExchange(['HELLO THERE\r\n\r\n']);
    expect(statuses(text)).toEqual([400]);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 400 });
    expect(closed).toBe(true);
  });
});

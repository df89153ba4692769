import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { createApp } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';

const app = createApp({ data: buildFixtures({ profiles: 100, jobs: 20 }), log: false });
let server: RunningServer;

// Short limits so the test is quick; `serve` defaults are 10 s for headers and 30 s per request.
beforeAll(async () => {
  server = await startServer(app, { timeouts: { headersMs: 1_000, requestMs: 2_000 } });
});

afterAll(async () => {
  await server?.close();
});

type Trickle = { socket: Socket; closedAt: Promise<number>; answer: () => string };

/** A client that sends `text` a few bytes at a time, every `everyMs`, until the server hangs up. */
function trickle(text: string, bytes: number, everyMs: number): Trickle {
  const socket = connect(server.port, '127.0.0.1');
  let answer = '';
  socket.setEncoding('latin1');
  socket.on('data', (data) => {
    answer += data;
  });
  socket.on('error', () => {});
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || at >= text.length) return;
    socket.write(text.slice(at, at + bytes));
    at += bytes;
  }, everyMs);
  const closedAt = new Promise<number>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve(Date.now());
    }),
  );
  return { socket, closedAt, answer: () => answer };
}

/** Ordinary requests, one after another, for `ms`: how long each took. */
async function ordinaryTraffic(ms: number): Promise<number[]> {
  const took: number[] = [];
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const started = Date.now();
    const response = await fetch(`${server.url}/_mock/target`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    took.push(Date.now() - started);
    await new Promise((r) => setTimeout(r, 25));
  }
  return took;
}

describe('slow clients', () => {
  it('answers ordinary requests while 200 connections send headers a byte at a time, then cuts those', async () => {
    const started = Date.now();
    const slow = Array.from({ length: 200 }, () =>
      trickle('GET /_mock/target HTTP/1.1\r\nHost: x\r\nX-Slow: 1234567890\r\n\r\n', 1, 250),
    );
    // Bounds are generous (a busy 2-core machine): what counts is that ordinary requests are
    // answered while the slow ones are held, and that the slow ones are cut by the 1 s header
    // limit, long before their headers could end (55 bytes at 4 a second: ~14 s).
    const took = await ordinaryTraffic(1_500);
    expect(took.length).toBeGreaterThan(3);
    expect(Math.max(...took)).toBeLessThan(5_000);
    const closed = await Promise.all(slow.map((s) => s.closedAt));
    expect(Math.max(...closed) - started).toBeLessThan(10_000);
    expect(slow[0]?.answer()).toMatch(/^HTTP\/1\.1 408 /);
    expect(slow[0]?.answer()).toMatch(/"code":408/);
  }, 20_000);

  it('answers ordinary requests while 50 bodies trickle in at 10 bytes a second, then cuts those', async () => {
    const started = Date.now();
    const body = JSON.stringify({
      source_keys: ['0'.repeat(40)],
      text_keywords: ['x'.repeat(200)],
    });
    const head = `POST /profiles/searching HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const slow = Array.from({ length: 50 }, () => {
      const client = trickle(body, 1, 100);
      client.socket.write(head);
      return client;
    });
    // Cut by the 2 s request limit, long before the ~240-byte bodies end (~24 s at 10 a second).
    const took = await ordinaryTraffic(1_500);
    expect(took.length).toBeGreaterThan(3);
    expect(Math.max(...took)).toBeLessThan(5_000);
    const closed = await Promise.all(slow.map((s) => s.closedAt));
    expect(Math.max(...closed) - started).toBeLessThan(15_000);
    expect(slow[0]?.answer()).toMatch(/^HTTP\/1\.1 408 /);
  }, 25_000);
});

describe('a client that stops reading its answers', () => {
  it('is disconnected after --write-timeout without progress', async () => {
    const writeMs = 500;
    const own = await startServer(app, { timeouts: { writeMs } });
    try {
      const source = app.store.profile.containers.keys().next().value as string;
      const path = `/profiles/searching?source_keys=${encodeURIComponent(JSON.stringify([source]))}&limit=100`;
      const one = await fetch(`${own.url}${path}`);
      const answerBytes = (await one.arrayBuffer()).byteLength;
      const requests = 100;
      const socket = connect(own.port, '127.0.0.1');
      socket.on('error', () => {});
      socket.pause();
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(requests));
      // Far longer than the write timeout, while the client reads nothing.
      await new Promise((r) => setTimeout(r, writeMs * 5));
      let received = 0;
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
      });
      socket.resume();
      const outcome = await Promise.race([
        closed.then(() => 'closed'),
        new Promise((r) => setTimeout(() => r('still open'), 4_000)),
      ]);
      socket.destroy();
      expect(outcome).toBe('closed');
      expect(received).toBeLessThan(answerBytes * requests);
    } finally {
      await own.close();
    }
  });

  it('is not confused with an answer that takes longer than --write-timeout to make', async () => {
    const slow = createApp({
      data: buildFixtures({ profiles: 100, jobs: 20 }),
      log: false,
      chaos: { seed: 1, latency: { min: 1_200, max: 1_200 } },
    });
    const own = await startServer(slow, { timeouts: { writeMs: 300 } });
    try {
      const source = slow.store.profile.containers.keys().next().value as string;
      const started = performance.now();
      const response = await fetch(
        `${own.url}/profiles/searching?source_keys=${encodeURIComponent(JSON.stringify([source]))}`,
      );
      expect(response.status).toBe(200);
      expect((await response.json()).data.profiles.length).toBeGreaterThan(0);
      expect(performance.now() - started).toBeGreaterThan(1_000);
    } finally {
      await own.close();
    }
  });
});

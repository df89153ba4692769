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

type Trickle = {
  socket: Socket;
  /** Resolves when the server hung up: how many bytes had been sent of how many. */
  closed: Promise<{ sent: number; of: number }>;
  isOpen: () => boolean;
  answer: () => string;
};

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
  let open = true;
  const closed = new Promise<{ sent: number; of: number }>((resolve) =>
    socket.on('close', () => {
      open = false;
      clearInterval(timer);
      resolve({ sent: at, of: text.length });
    }),
  );
  return { socket, closed, isOpen: () => open, answer: () => answer };
}

/**
 * Five ordinary requests, one after another, while `slow` are held: each answered 200, and how
 * many slow connections were still open when the first answer came (counts, not clocks).
 */
async function ordinaryTraffic(slow: Trickle[]): Promise<number> {
  let heldAtFirst = -1;
  for (let i = 0; i < 5; i++) {
    const response = await fetch(`${server.url}/_mock/target`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    if (heldAtFirst < 0) heldAtFirst = slow.filter((s) => s.isOpen()).length;
  }
  return heldAtFirst;
}

/** Every slow client was hung up on before it could send all it had: cut by a limit, not done. */
async function allCut(slow: Trickle[]) {
  const ends = await Promise.all(slow.map((s) => s.closed));
  expect(ends.filter((e) => e.sent >= e.of)).toEqual([]);
}

describe('slow clients', () => {
  it('answers ordinary requests while 200 connections send headers a byte at a time, then cuts those', async () => {
    const slow = Array.from({ length: 200 }, () =>
      trickle('GET /_mock/target HTTP/1.1\r\nHost: x\r\nX-Slow: 1234567890\r\n\r\n', 1, 250),
    );
    // What counts: ordinary requests are answered while the slow ones are held, and the slow
    // ones are cut by the 1 s header limit, long before their headers could end (55 bytes at 4
    // a second: ~14 s), with a 408.
    expect(await ordinaryTraffic(slow)).toBeGreaterThan(0);
    await allCut(slow);
    expect(slow[0]?.answer()).toMatch(/^HTTP\/1\.1 408 /);
    expect(slow[0]?.answer()).toMatch(/"code":408/);
  }, 60_000);

  it('answers ordinary requests while 50 bodies trickle in at 10 bytes a second, then cuts those', async () => {
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
    expect(await ordinaryTraffic(slow)).toBeGreaterThan(0);
    await allCut(slow);
    expect(slow[0]?.answer()).toMatch(/^HTTP\/1\.1 408 /);
  }, 60_000);
});

describe('a client that stops reading its answers', () => {
  it('is disconnected after --write-timeout without progress', async () => {
    const writeMs = 500;
    const own = await startServer(app, { timeouts: { writeMs } });
    try {
      const source = app.state.store.profile.containers.keys().next().value as string;
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
      const source = slow.state.store.profile.containers.keys().next().value as string;
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

import { request as httpRequest, IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import { query } from '../support/mock-app.ts';

// The fast path answers the operations without Hono; it must answer byte for byte as Hono does,
// and leave everything else to it. Two servers over the same data, one with it and one without.
const fixtures = buildFixtures({ profiles: 300, jobs: 80 });
const apps = [0, 1].map(() => createApp({ data: fixtures, log: false, basePath: '/v1' }));
const t = targetOf(apps[0]?.state.store as NonNullable<(typeof apps)[0]>['state']['store']);
let fast: RunningServer;
let hono: RunningServer;

beforeAll(async () => {
  fast = await startServer(apps[0] as (typeof apps)[0], { answerCacheBytes: 0 });
  hono = await startServer(apps[1] as (typeof apps)[0], { answerCacheBytes: 0, fastPath: false });
});

afterAll(async () => {
  await fast?.close();
  await hono?.close();
});

type Sent = { method?: string; path: string; body?: string; headers?: Record<string, string> };

function send(base: string, sent: Sent, gzip: boolean) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const headers: Record<string, string> = { ...sent.headers };
      if (gzip) headers['accept-encoding'] = 'gzip, deflate, br';
      if (sent.body !== undefined) headers['content-type'] ??= 'application/json';
      const req = httpRequest(
        `${base}${sent.path}`,
        { method: sent.method ?? 'GET', headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            const zipped = res.headers['content-encoding'] === 'gzip';
            const { date: _, 'content-length': __, 'content-encoding': ___, ...rest } = res.headers;
            resolve({
              status: res.statusCode ?? 0,
              headers: rest,
              body: zipped ? gunzipSync(raw) : raw,
            });
          });
        },
      );
      req.on('error', reject);
      req.end(sent.body);
    },
  );
}

const grading = {
  algorithm_key: t.profiles.algorithm_key,
  board_key: t.profiles.board_key,
  job_key: t.profiles.job_key,
  profile_ids: t.profiles.profile_ids,
};
const search = { source_keys: t.profiles.source_keys, text_keywords: ['english'], limit: 30 };
const scoring = { ...search, board_key: grading.board_key, job_key: grading.job_key };
const jobs = { board_keys: t.jobs.board_keys, limit: 20 };
const jobScoring = { ...jobs, source_key: t.jobs.source_key, profile_key: t.jobs.profile_key };

const requests: [string, Sent][] = [
  ['grading, minimal', { path: `/v1/profiles/grading?${query(grading)}` }],
  [
    'grading, full',
    { path: `/v1/profiles/grading?${query({ ...grading, return_profile: true })}` },
  ],
  ['grading at the singular path', { path: `/v1/profile/grading?${query(grading)}` }],
  [
    'job grading, full',
    {
      path: `/v1/jobs/grading?${query({ algorithm_key: 'a', source_key: t.jobs.source_key, profile_key: t.jobs.profile_key, job_ids: t.jobs.job_ids, return_job: 1 })}`,
    },
  ],
  ['searching by GET', { path: `/v1/profiles/searching?${query(search)}` }],
  [
    'searching by POST',
    { method: 'POST', path: '/v1/profiles/searching', body: JSON.stringify(search) },
  ],
  [
    'scoring by POST',
    { method: 'POST', path: '/v1/profiles/scoring', body: JSON.stringify(scoring) },
  ],
  ['job searching', { path: `/v1/jobs/searching?${query(jobs)}` }],
  [
    'job scoring by POST',
    { method: 'POST', path: '/v1/jobs/scoring', body: JSON.stringify(jobScoring) },
  ],
  [
    'an empty result',
    { path: `/v1/profiles/searching?${query({ ...search, text_keywords: ['zzqx'] })}` },
  ],
  ['a 400 (left to Hono)', { path: '/v1/profiles/searching' }],
  [
    'a 404 for an unknown key',
    { path: `/v1/profiles/grading?${query({ ...grading, job_key: 'f'.repeat(40) })}` },
  ],
  ['a 405', { method: 'DELETE', path: '/v1/profiles/searching' }],
  [
    'a 415',
    {
      method: 'POST',
      path: '/v1/jobs/searching',
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    },
  ],
  ['malformed JSON', { method: 'POST', path: '/v1/jobs/searching', body: '{"board_keys": [' }],
  [
    'a Prefer scenario',
    { path: `/v1/profiles/searching?${query(search)}`, headers: { prefer: 'example=empty' } },
  ],
  ['a path outside the base', { path: `/profiles/searching?${query(search)}` }],
  ['the target', { path: '/v1/_mock/target' }],
];

describe('the fast path', () => {
  it.each(
    requests.flatMap(([name, sent]) => [
      [`${name}, plain`, sent, false] as const,
      [`${name}, gzip`, sent, true] as const,
    ]),
  )('answers %s exactly as Hono does', async (_, sent, gzip) => {
    const [quick, slow] = await Promise.all([
      send(fast.url, sent, gzip),
      send(hono.url, sent, gzip),
    ]);
    expect(quick.status).toBe(slow.status);
    expect(quick.headers).toEqual(slow.headers);
    expect(quick.body.equals(slow.body)).toBe(true);
  });

  it('gzips an answer made of full objects from their compressed parts', async () => {
    const path = `/v1/profiles/searching?${query(search)}`;
    const zipped = await new Promise<{ encoding: unknown; length: number }>((resolve) =>
      httpRequest(`${fast.url}${path}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        let length = 0;
        res.on('data', (c) => {
          length += c.length;
        });
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], length }));
      }).end(),
    );
    const plain = await send(fast.url, { path }, false);
    expect(zipped.encoding).toBe('gzip');
    expect(zipped.length).toBeLessThan(plain.body.length / 2);
  });

  it('sends a mostly-glue answer (minimal grading) uncompressed, where gzip would not pay', async () => {
    const encoding = await new Promise<unknown>((resolve) =>
      httpRequest(
        `${fast.url}/v1/profiles/grading?${query(grading)}`,
        { headers: { 'accept-encoding': 'gzip' } },
        (res) => {
          res.resume();
          resolve(res.headers['content-encoding']);
        },
      ).end(),
    );
    expect(encoding).toBeUndefined();
  });

  // Answers made in one turn of the event loop are written together after it: each must still
  // reach its own client, in order on a pipelined connection, and a client gone before the
  // write must cost the others nothing.
  it('writes answers made together each to its own client', async () => {
    const keys = t.profiles.profile_ids as unknown[];
    const sent: Sent[] = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? {
            path: `/v1/profiles/grading?${query({ ...grading, profile_ids: [keys[i % keys.length]] })}`,
          }
        : {
            method: 'POST',
            path: '/v1/profiles/searching',
            body: JSON.stringify({ ...search, limit: 1 + (i % 7), page: 1 + (i % 3) }),
          },
    );
    const quick = await Promise.all(sent.map((s, i) => send(fast.url, s, i % 4 < 2)));
    const slow = await Promise.all(sent.map((s, i) => send(hono.url, s, i % 4 < 2)));
    quick.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(answer.body.equals((slow[i] as (typeof slow)[number]).body)).toBe(true);
    });
  });

  // Without the answer cache, answers are made in buffers of a pool that are made into other
  // answers once written: an answer still waiting for a slow client must keep its bytes.
  // A wide time bound: slow on a loaded machine.
  it('keeps the bytes of answers waiting on a client that does not read, while others are answered', async () => {
    const { port } = new URL(fast.url);
    const bodies = Array.from({ length: 60 }, (_, i) =>
      JSON.stringify({ source_keys: search.source_keys, limit: 60 + (i % 41), page: 1 + (i % 3) }),
    );
    const stalled = connect(Number(port), '127.0.0.1');
    stalled.on('error', () => {});
    stalled.pause();
    const received: Buffer[] = [];
    stalled.on('data', (chunk) => received.push(chunk));
    stalled.write(
      bodies
        .map(
          (body) =>
            `POST /v1/profiles/searching HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        )
        .join(''),
    );
    // Meanwhile other clients are answered, in buffers given back and taken again.
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          send(
            fast.url,
            {
              method: 'POST',
              path: '/v1/profiles/searching',
              body: JSON.stringify({ ...search, limit: 1 + ((i * 7 + round) % 90) }),
            },
            i % 2 === 0,
          ),
        ),
      );
    }
    const expected = await Promise.all(
      bodies.map((body) =>
        send(hono.url, { method: 'POST', path: '/v1/profiles/searching', body }, false),
      ),
    );
    const total = expected.reduce((sum, answer) => sum + answer.body.length, 0);
    // More than the kernel holds for a client that does not read: some answers had to wait.
    expect(total).toBeGreaterThan(6 * 1024 * 1024);
    stalled.resume();
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const check = () => {
        const all = Buffer.concat(received);
        if (httpBodies(all).length === bodies.length) resolve(all);
      };
      stalled.on('data', check);
      stalled.on('error', reject);
      check();
    });
    stalled.destroy();
    const answers = httpBodies(raw);
    answers.forEach((body, i) => {
      expect(body.equals((expected[i] as (typeof expected)[number]).body)).toBe(true);
    });
  }, 90_000);

  it('reads a POST body sent in pieces, with pauses between them, to its end', async () => {
    const body = JSON.stringify({ ...search, limit: 7 });
    const cut = [0, 5, 40, body.length - 1, body.length];
    const { port } = new URL(fast.url);
    // The body pieces the server's request reads: each piece is sent once the one before arrived.
    const pieces: number[] = [];
    const push = vi.spyOn(IncomingMessage.prototype, 'push').mockImplementation(function (
      this: IncomingMessage,
      chunk: unknown,
      ...rest: [BufferEncoding?]
    ) {
      if (this.method === 'POST' && chunk !== null) pieces.push(Buffer.byteLength(chunk as Buffer));
      return Readable.prototype.push.call(this, chunk, ...rest);
    });
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      const received: Buffer[] = [];
      socket.on('data', (chunk) => {
        received.push(chunk);
        const all = Buffer.concat(received);
        if (httpBodies(all).length === 1) {
          socket.end();
          resolve(all);
        }
      });
      socket.on('error', reject);
      socket.write(
        `POST /v1/profiles/searching HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      const next = (k: number) => {
        if (k === cut.length - 1) return;
        socket.write(body.slice(cut[k], cut[k + 1]));
        const arrived = setInterval(() => {
          if (pieces.length <= k) return;
          clearInterval(arrived);
          next(k + 1);
        }, 5);
      };
      next(0);
    }).finally(() => push.mockRestore());
    expect(pieces).toEqual(cut.slice(1).map((end, k) => end - (cut[k] as number)));
    const whole = await send(
      fast.url,
      { method: 'POST', path: '/v1/profiles/searching', body },
      false,
    );
    expect(whole.status).toBe(200);
    expect(JSON.parse(whole.body.toString()).meta.count).toBe(7);
    expect(httpBodies(raw)[0]?.equals(whole.body)).toBe(true);
  });

  it('answers pipelined requests in order, and clients gone before the write cost nothing', async () => {
    const { port } = new URL(fast.url);
    const gone = Array.from({ length: 10 }, () => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => {});
      socket.write(`GET /v1/profiles/grading?${query(grading)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      socket.destroy();
      return socket;
    });
    const paths = [1, 2, 3].map((limit) => `/v1/profiles/searching?${query({ ...search, limit })}`);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if ((text.match(/HTTP\/1\.1 200/g) ?? []).length === 3 && text.endsWith('}}')) {
          socket.end();
          resolve(text);
        }
      });
      socket.on('error', reject);
      socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
    });
    const counts = [...raw.matchAll(/"count":(\d+)/g)].map((m) => Number(m[1]));
    expect(counts).toEqual([1, 2, 3]);
    expect(gone.every((socket) => socket.destroyed)).toBe(true);
    expect((await send(fast.url, { path: paths[0] as string }, false)).status).toBe(200);
  });
});

/** The bodies of the complete HTTP/1.1 answers in `raw`, framed by their Content-Length. */
function httpBodies(raw: Buffer): Buffer[] {
  const bodies: Buffer[] = [];
  let at = 0;
  for (;;) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end < 0) return bodies;
    const head = raw.subarray(at, end).toString('latin1');
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? Number.NaN);
    if (!Number.isFinite(length) || end + 4 + length > raw.length) return bodies;
    bodies.push(raw.subarray(end + 4, end + 4 + length));
    at = end + 4 + length;
  }
}

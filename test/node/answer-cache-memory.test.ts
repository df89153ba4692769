import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { AnswerCache } from '../../src/node/answer-cache.ts';
import { createNodeListener } from '../../src/node/node-listener.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const BUDGET = 2 * 1024 * 1024;
const app = createApp({ data: buildFixtures({ profiles: 300, jobs: 60 }), log: false });
const target = targetOf(app.state.store);
const cache = new AnswerCache(BUDGET);
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(createNodeListener(app, { answerCacheBytes: BUDGET, cache }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));
});

type Sent = { path: string; gzip?: boolean; body?: string };

function send({ path, gzip, body }: Sent): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = gzip ? { 'accept-encoding': 'gzip' } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = httpRequest(
      `${base}${path}`,
      { agent, method: body === undefined ? 'GET' : 'POST', headers },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function sendAll(requests: Sent[]): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) statuses.push(await send(requests[next++] as Sent));
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return statuses;
}

/** Heap and buffers still reachable after two full collections. */
function live(): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

/** Distinct requests of the shapes a client sends: small refusals, pages, POSTs, gzip. */
function traffic(count: number): Sent[] {
  const sources = encodeURIComponent(JSON.stringify(target.profiles.source_keys));
  const requests: Sent[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 4;
    if (kind === 0) requests.push({ path: `/profiles/searching?source_keys=${i}&page=x${i}` });
    else if (kind === 1)
      requests.push({
        path: `/profiles/searching?source_keys=${sources}&limit=3&page=${1 + (i % 90)}&order_by=${i % 8 < 4 ? 'asc' : 'desc'}&text_keywords=${encodeURIComponent(JSON.stringify([`w${i}`]))}`,
        gzip: i % 8 === 1,
      });
    else if (kind === 2)
      requests.push({
        path: '/profiles/searching',
        body: JSON.stringify({ source_keys: target.profiles.source_keys, limit: 2, page: i }),
      });
    else
      requests.push({
        path: `/jobs/searching?board_keys=${encodeURIComponent(JSON.stringify(target.jobs.board_keys))}&limit=4&page=${1 + (i % 75)}`,
        gzip: true,
      });
  }
  return requests;
}

describe('the answer cache', () => {
  // A wide time bound: slow on a loaded machine.
  it('holds no more live memory than its budget, gzip added after an answer was kept included', async () => {
    const requests = traffic(8_000);
    // Every answer is asked for twice: without gzip, then with it, as mixed clients do.
    const statuses = await sendAll(requests.map((r) => ({ ...r, gzip: false })));
    await sendAll(requests.map((r) => ({ ...r, gzip: true })));
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(6_000);
    expect(statuses.filter((s) => s === 400).length).toBeGreaterThanOrEqual(2_000);
    expect(cache.size).toBeGreaterThan(100);
    const withCache = live();
    const entries = cache.size;
    const counted = cache.bytes;
    cache.clear();
    const without = live();
    const held = withCache - without;
    console.log(
      `answer cache: ${entries} entries hold ${(held / 1024 / 1024).toFixed(2)} MiB live of a ${(BUDGET / 1024 / 1024).toFixed(0)} MiB budget (counted ${(counted / 1024 / 1024).toFixed(2)} MiB)`,
    );
    expect(held).toBeLessThanOrEqual(BUDGET);
  }, 90_000);
});

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildFixtures } from '../../../mocks/build-fixtures.ts';
import { targetOf } from '../../../src/hr/target.ts';
import { FEED_LIMITS, FeedCount, liveFeed } from '../../../src/http/admin/live-feed.ts';
import { createApp } from '../../../src/http/app.ts';
import { type RunningServer, startServer } from '../../../src/node/server.ts';
import { adminServers, JSON_TYPE } from '../../support/admin-server.ts';
import { query } from '../../support/mock-app.ts';
import { type FeedEvent, feedEvents } from '../../support/sse.ts';

// The control page's routes and its live feed on a real node server (fast path and answer cache
// on): what the page is told, and what bounds a feed. The page itself runs in
// test/browser/ui.test.ts.
const { serve, send } = adminServers();

/** Reads `count` server-sent events from an answer, then stops reading. */
async function events(answer: Response, count: number): Promise<FeedEvent[]> {
  const feed = feedEvents(answer.body as ReadableStream<Uint8Array>);
  const found: FeedEvent[] = [];
  for (let event = await feed.next(); event !== undefined; event = await feed.next()) {
    found.push(event);
    if (found.length === count) break;
  }
  await feed.cancel();
  return found;
}

const url = (server: RunningServer, path: string) => `http://127.0.0.1:${server.port}${path}`;
const fixtures = buildFixtures({ profiles: 60, jobs: 20 });
const keys = targetOf(createApp({ data: fixtures, log: false }).state.store).profiles.source_keys;
const SEARCH = `/profiles/searching?${query({ source_keys: keys, limit: 1 })}`;

describe('the control page at /_mock/ui', () => {
  it('serves its markup, script and style from this origin, with a policy that allows no other', async () => {
    const server = await serve();
    const page = await fetch(url(server, '/_mock/ui'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).toContain('/_mock/ui/app.js');
    expect(html).not.toMatch(/https?:\/\//);
    const sizes: number[] = [];
    for (const [path, type] of [
      ['/_mock/ui/app.js', 'text/javascript; charset=utf-8'],
      ['/_mock/ui/app.css', 'text/css; charset=utf-8'],
    ] as const) {
      const asset = await fetch(url(server, path));
      expect([asset.status, asset.headers.get('content-type')]).toEqual([200, type]);
      sizes.push(gzipSync(await asset.text()).length);
    }
    // Built into the package, at most 100 KB gzipped in all.
    sizes.push(gzipSync(html).length);
    expect(sizes.reduce((a, b) => a + b)).toBeLessThanOrEqual(100 * 1024);
  });

  it('serves the page shell without the key, and nothing it shows or changes', async () => {
    const server = await serve({ apiKey: 'k3y' });
    for (const path of ['/_mock/ui', '/_mock/ui/app.js', '/_mock/ui/app.css']) {
      const shell = await fetch(url(server, path));
      expect(shell.status).toBe(200);
      await shell.text();
    }
    expect((await send(server, 'GET', '/_mock/events')).status).toBe(401);
    expect((await send(server, 'POST', '/_mock/reset', JSON_TYPE)).status).toBe(401);
    const keyed = await fetch(url(server, '/_mock/events'), { headers: { 'X-API-KEY': 'k3y' } });
    expect(keyed.status).toBe(200);
    await keyed.body?.cancel();
  });

  it('answers the page and its feed to its own origin only, and to loopback names', async () => {
    const server = await serve();
    const hostile: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { host: 'evil.example' },
    ];
    for (const headers of hostile) {
      expect((await send(server, 'GET', '/_mock/ui', headers)).status).toBe(403);
      expect((await send(server, 'GET', '/_mock/events', headers)).status).toBe(403);
    }
  });
});

describe('the live feed at /_mock/events', () => {
  it('says hello with the journal so far, then each request with its first KB of answer', async () => {
    const server = await serve();
    await (await fetch(url(server, SEARCH))).arrayBuffer();
    const feed = await fetch(url(server, '/_mock/events'));
    expect(feed.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const told = events(feed, 4);
    // Served twice: once fresh, once from the answer cache; both are told, answers included.
    for (let i = 0; i < 2; i++) await (await fetch(url(server, `${SEARCH}&page=1`))).arrayBuffer();
    await send(
      server,
      'POST',
      '/_mock/scenarios',
      JSON_TYPE,
      JSON.stringify({
        path: '/jobs/searching',
        respond: { status: 503 },
      }),
    );
    const [hello, first, again, scenarios] = await told;
    expect(hello?.event).toBe('hello');
    const state = hello?.data as { kind: string; requests: { path: string }[]; api: string };
    expect(state.kind).toBe('mock');
    expect(state.api).toBe(`http://127.0.0.1:${server.port}`);
    expect(state.requests.map((r) => r.path)).toEqual(['/profiles/searching']);
    for (const told of [first, again]) {
      expect(told?.event).toBe('request');
      const entry = told?.data as { params: unknown; status: number; answer: string };
      expect(entry.status).toBe(200);
      expect(entry.params).toEqual({ source_keys: keys, limit: 1, page: 1 });
      expect(entry.answer.startsWith('{"code":200')).toBe(true);
      expect(Buffer.byteLength(entry.answer)).toBeLessThanOrEqual(1024);
    }
    expect(scenarios).toMatchObject({ event: 'scenarios', data: [{ id: 's1', matched: 0 }] });
  });

  it('tells a reset, and redacts a secret header in what it tells', async () => {
    const server = await serve();
    const feed = await fetch(url(server, '/_mock/events'));
    const told = events(feed, 3);
    await (
      await fetch(url(server, SEARCH), { headers: { authorization: 'Bearer s3cret' } })
    ).text();
    await send(server, 'POST', '/_mock/reset', JSON_TYPE);
    const [, request, reset] = await told;
    expect(JSON.stringify(request)).not.toContain('s3cret');
    expect(reset?.event).toBe('reset');
  });

  it(`refuses a feed past ${FEED_LIMITS.followers} open ones with a 429 that says what to do`, async () => {
    const server = await serve();
    const open: Response[] = [];
    for (let i = 0; i < FEED_LIMITS.followers; i++)
      open.push(await fetch(url(server, '/_mock/events')));
    expect(open.map((r) => r.status)).toEqual(open.map(() => 200));
    const refused = await send<{ message: string }>(server, 'GET', '/_mock/events');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/Close one/);
    await open[0]?.body?.cancel();
    await expect
      .poll(async () => {
        const again = await fetch(url(server, '/_mock/events'));
        await again.body?.cancel();
        return again.status;
      })
      .toBe(200);
    for (const feed of open.slice(1)) await feed.body?.cancel();
  });
});

describe('a feed whose reader falls behind', () => {
  it('ends with an overflow event once its backlog passes the bound, and frees its place', async () => {
    let send: (event: string, data: unknown) => void = () => {};
    let stopped = 0;
    const count = new FeedCount();
    const answer = liveFeed(
      {
        hello: () => ({}),
        follow: (to) => {
          send = to;
          return () => void stopped++;
        },
      },
      count,
      'http://127.0.0.1',
      new Set(),
    ) as Response;
    const big = 'x'.repeat(64 * 1024);
    // Nobody reads: the backlog grows until the bound, then the feed ends itself.
    for (let i = 0; i < 2 * (FEED_LIMITS.backlogBytes / big.length); i++) send('request', big);
    expect([count.open, stopped]).toEqual([0, 1]);
    const text = await answer.text();
    expect(text.length).toBeLessThan(FEED_LIMITS.backlogBytes + 2 * big.length);
    expect(text.endsWith(`event: overflow\ndata: {"reconnect":true}\n\n`)).toBe(true);
  });

  it('ends when the server stops, so that stopping never waits for a page', async () => {
    // A server of its own: the others are closed once, after the file.
    const server = await startServer(createApp({ data: fixtures, log: false }), { port: 0 });
    const feed = await fetch(url(server, '/_mock/events'));
    const read = feed.text();
    await server.close();
    await expect(read).resolves.toContain('event: hello');
  });
});

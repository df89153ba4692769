import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { BROWSER_DIST, buildBrowser } from '../../scripts/browser-bundle.ts';
import type * as hrmockBrowser from '../../src/browser/index.ts';
import { createMockFetch, mockControls } from '../../src/browser/index.ts';
import { isMockedUrl } from '../../src/browser/service-worker.ts';
import type { ScenarioInput } from '../../src/http/admin/scenarios.ts';
import { createApp } from '../../src/http/app.ts';
import { startServer } from '../../src/node/server.ts';
import { browserAvailable, launchChromium } from '../support/browser.ts';

// `use`, `requests` and `reset` of hrmock/browser in a real page: the library bundle steered in
// the page itself (as an MSW handler is), and the Service Worker steered over its /_mock/ API.

/** The page loads the library bundle and hands it to the test as `window.hrmock`. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>steering</title>
<script type="module">
  import * as hrmock from '/hrmock-browser.js';
  window.hrmock = hrmock;
  document.title = 'ready';
</script>`;

/** The page's window, the bundle put on it by the page's script (which TypeScript cannot see). */
type PageWindow = Window & { hrmock: typeof hrmockBrowser };

/** Serves the page and the two bundles, and keeps every path asked for. */
function pageServer(asked: string[]): Server {
  return createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    asked.push(path);
    const js = { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' };
    if (path === '/') res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE);
    else if (path === '/hrmock-browser.js' || path === '/hrmock-sw.js')
      res.writeHead(200, js).end(await readFile(`${BROWSER_DIST}${path.slice(1)}`));
    else res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`no ${path} here`);
  });
}

describe('isMockedUrl and the admin API', () => {
  const origin = 'https://app.example';
  it.each([
    ['/_mock/scenarios', true],
    ['/_mock/scenarios/s1', true],
    ['/_mock/requests', true],
    ['/_mock/reset', true],
    ['/_mock/other', false],
    ['/v1/_mock/reset', false],
  ])('says %s at the root is mocked, whatever the base path: %s', (path, mocked) => {
    expect(isMockedUrl(new URL(path, origin), origin, '/v1')).toBe(mocked);
  });
});

describe('the admin API in a page, without a browser', () => {
  const origin = 'https://app.example';
  const mock = createMockFetch({ profiles: 40, jobs: 10 });
  const call = (method: string, path: string, body?: unknown) =>
    mock(
      new Request(`${origin}/_mock/${path}`, {
        method,
        headers: { 'content-type': 'application/json', origin },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    );

  it("answers the page on whatever origin it is served from, with the API's CORS", async () => {
    const added = await call('POST', 'scenarios', {
      path: '/jobs/searching',
      respond: { status: 500 },
    });
    expect(added.status).toBe(201);
    expect(added.headers.get('access-control-allow-origin')).toBe('*');
    expect(mock.requests()).toEqual([]);
    expect((await call('POST', 'reset')).status).toBe(200);
    expect((await call('GET', 'scenarios')).status).toBe(200);
  });

  it('steers a mock on a port with mockControls: use, requests, reset', async () => {
    const server = await startServer(
      createApp({ data: buildFixtures({ profiles: 40, jobs: 10 }), log: false }),
      {
        port: 0,
      },
    );
    try {
      const controls = mockControls({ origin: server.url });
      const scenario = await controls.use({ path: '/jobs/searching', respond: { status: 500 } });
      expect(scenario).toMatchObject({ id: expect.any(String), matched: 0 });
      await fetch(`${server.url}/jobs/searching`);
      expect(await controls.requests({ status: 500 })).toHaveLength(1);
      await controls.reset();
      expect(await controls.requests()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(!browserAvailable())('steering hrmock/browser in headless Chromium', () => {
  const asked: string[] = [];
  const server = pageServer(asked);
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    await buildBrowser();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  async function open(): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => document.title === 'ready', undefined, { timeout: 30_000 });
    return page;
  }

  it('answers scenarios set with use() in the page, for their times, and lists what the page sent', async () => {
    const page = await open();
    const seen = await page.evaluate(async () => {
      const { createMockFetch } = (window as unknown as PageWindow).hrmock;
      const mock = createMockFetch({ profiles: 60, jobs: 20 });
      const get = (path: string, init?: RequestInit) =>
        mock(new Request(`${location.origin}${path}`, init));
      const target = (await (await get('/_mock/target')).json()).data;
      const keys = encodeURIComponent(JSON.stringify(target.profiles.source_keys));
      const search = `/profiles/searching?source_keys=${keys}&limit=3`;
      const normal = await (await get(search)).json();

      mock.use({ path: '/profiles/searching', respond: { status: 429 }, times: 1 });
      const limited = await get(search);
      const limitedBody = await limited.json();
      const after = await (await get(search)).json();

      mock.use({ path: '/profiles/searching', respond: { example: 'empty' }, times: 1 });
      const empty = await (await get(search)).json();
      mock.use({ path: '/profiles/searching', method: 'POST', respond: { delay: 300 }, times: 1 });
      const started = performance.now();
      const delayed = await get('/profiles/searching', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ source_keys: target.profiles.source_keys, text_keywords: ['sql'] }),
      });
      const waited = performance.now() - started;
      mock.use({ path: '/profiles/searching', respond: { fault: 'reset' }, times: 1 });
      const reset = await get(search).then(
        (r: Response) => `answered ${r.status}`,
        (e: Error) => `${e.name}: ${e.message}`,
      );
      let bad = '';
      try {
        mock.use({ path: '/nowhere', respond: { status: 500 } });
      } catch (error) {
        bad = (error as Error).message;
      }
      const sent = mock.requests({ path: '/profiles/searching' });
      mock.reset();
      const afterReset = mock.requests();
      const final = await get(search);
      return {
        normal: normal.data.profiles.length,
        limited: [limited.status, limited.headers.get('retry-after'), limitedBody.code],
        after: JSON.stringify(after) === JSON.stringify(normal),
        empty: [empty.data.profiles.length, empty.meta.total],
        delayed: [delayed.status, waited],
        reset,
        bad,
        sent: sent.map((e) => [e.method, e.status, e.scenario, e.params]),
        afterReset: afterReset.length,
        final: final.status,
      };
    });
    expect(seen.normal).toBe(3);
    expect(seen.limited).toEqual([429, '1', 429]);
    expect(seen.after).toBe(true);
    expect(seen.empty).toEqual([0, 0]);
    expect(seen.delayed[0]).toBe(200);
    expect(seen.delayed[1]).toBeGreaterThanOrEqual(250);
    expect(seen.reset).toBe('TypeError: fetch failed');
    expect(seen.bad).toMatch(/path must be one of/);
    expect(seen.sent.map(([method, status]: unknown[]) => [method, status])).toEqual([
      ['GET', 200],
      ['GET', 429],
      ['GET', 200],
      ['GET', 200],
      ['POST', 200],
      ['GET', null],
    ]);
    expect(seen.sent[1]?.[2]).toMatch(/^s\d+$/);
    expect(seen.sent[0]?.[2]).toBeNull();
    expect(seen.sent[4]?.[3]).toMatchObject({ text_keywords: ['sql'] });
    expect(seen.sent[0]?.[3]).toMatchObject({ limit: 3 });
    expect(seen.afterReset).toBe(0);
    expect(seen.final).toBe(200);
    await page.close();
  }, 60_000);

  it('answers body, patch and header-matched scenarios in the page as on Node', async () => {
    const page = await open();
    const seen = await page.evaluate(async () => {
      const { createMockFetch } = (window as unknown as PageWindow).hrmock;
      const mock = createMockFetch({ profiles: 60, jobs: 20 });
      const get = (path: string, init?: RequestInit) =>
        mock(new Request(`${location.origin}${path}`, init));
      const target = (await (await get('/_mock/target')).json()).data;
      const keys = encodeURIComponent(JSON.stringify(target.profiles.source_keys));
      const search = `/profiles/searching?source_keys=${keys}&limit=1`;
      const mine = { code: 200, message: 'mine', data: { profiles: [] }, meta: {} };
      mock.use({ path: '/profiles/searching', respond: { body: mine }, times: 1 });
      const body = await (await get(search)).json();
      mock.use({
        path: '/profiles/searching',
        respond: { patch: { message: 'patched' } },
        times: 1,
      });
      const patched = await (await get(search)).json();
      mock.use({
        path: '/profiles/searching',
        headers: { 'X-Tenant': 'a' },
        respond: { status: 503 },
      });
      const untagged = (await get(search)).status;
      const tagged = (await get(search, { headers: { 'x-tenant': 'a' } })).status;
      return {
        body: body.message,
        patched: [patched.message, patched.data.profiles.length],
        untagged,
        tagged,
      };
    });
    expect(seen).toEqual({ body: 'mine', patched: ['patched', 1], untagged: 200, tagged: 503 });
    await page.close();
  }, 60_000);

  it('steers the Service Worker from the page with mockControls, the server seeing none of it', async () => {
    const page = await open();
    const seen = await page.evaluate(async () => {
      const { serviceWorker } = navigator;
      await serviceWorker.register('/hrmock-sw.js', { scope: '/' });
      await serviceWorker.ready;
      if (serviceWorker.controller === null)
        await new Promise((resolve) =>
          serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
        );
      const controls = (window as unknown as PageWindow).hrmock.mockControls();
      const target = (await (await fetch('/_mock/target')).json()).data;
      const query = new URLSearchParams({
        board_keys: JSON.stringify(target.jobs.board_keys),
        limit: '2',
      });
      const search = `/jobs/searching?${query}`;
      const scenario = await controls.use({
        path: '/jobs/searching',
        params: { limit: 2 },
        respond: { status: 500 },
        times: 2,
      });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(search)).status);
      const other = (await fetch(`/jobs/searching?board_keys=${query.get('board_keys')}&limit=4`))
        .status;
      // A fault the type forbids, sent as plain JavaScript could send it.
      const unknownFault = { path: '/jobs/searching', respond: { fault: 'x' } };
      const bad = await controls.use(unknownFault as unknown as ScenarioInput).then(
        () => 'accepted',
        (e: Error) => e.message,
      );
      const sent = await controls.requests({ path: '/jobs/searching', status: 500 });
      await controls.reset();
      const afterReset = await controls.requests();
      return {
        fromWorker: serviceWorker.controller !== null,
        scenario,
        statuses,
        other,
        bad,
        sent: sent.map((e) => [e.status, e.scenario, e.params.limit]),
        afterReset: afterReset.length,
      };
    });
    expect(seen.fromWorker).toBe(true);
    expect(seen.scenario).toMatchObject({ id: expect.any(String), times: 2, matched: 0 });
    expect(seen.statuses).toEqual([500, 500, 200]);
    expect(seen.other).toBe(200);
    expect(seen.bad).toMatch(/^POST \/_mock\/scenarios: 400 .*respond\.fault must be one of/);
    expect(seen.sent).toEqual([
      [500, seen.scenario.id, 2],
      [500, seen.scenario.id, 2],
    ]);
    expect(seen.afterReset).toBe(0);
    expect(asked).toContain('/hrmock-sw.js');
    expect(asked.filter((p) => /^\/(profiles|jobs|_mock)\//.test(p))).toEqual([]);
    await page.close();
  }, 60_000);
});

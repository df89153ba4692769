import { readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { setupServer } from 'msw/node';
import type { Browser, Response as PageResponse } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handlers, mockFetch } from '../../examples/msw/handlers.ts';
import { lazyFixtures } from '../../mocks/lazy-fixtures.ts';
import { browserShims } from '../../scripts/browser-shims.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { browserAvailable, launchChromium } from '../support/browser.ts';
import { query } from '../support/mock-app.ts';

// What `hrmock serve --seed 42` answers, which the MSW handlers must answer too.
const app = createApp({ data: lazyFixtures({ seed: 42 }), log: false });
const t = targetOf(app.state.store);
const searching = `/profiles/searching?${query({ source_keys: t.profiles.source_keys, text_keywords: ['python'], limit: 5 })}`;

describe('the MSW handlers of examples/msw in Node (setupServer)', () => {
  const server = setupServer(...handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it.each([
    ['a GET search', searching, undefined, 200],
    [
      'a POST scoring',
      '/jobs/scoring',
      JSON.stringify({
        algorithm_key: 'scorer',
        board_keys: t.jobs.board_keys,
        source_key: t.jobs.source_key,
        profile_key: t.jobs.profile_key,
        limit: 3,
      }),
      200,
    ],
    ['a bad request', '/profiles/searching?limit=0', undefined, 400],
    ['the target', '/_mock/target', undefined, 200],
  ])('answers %s on any origin exactly as the app does', async (_, path, body, status) => {
    const init: RequestInit =
      body === undefined
        ? {}
        : { method: 'POST', body, headers: { 'content-type': 'application/json' } };
    const expected = await app.request(path, init);
    const got = await fetch(`https://api.example${path}`, init);
    expect(expected.status).toBe(status);
    expect(got.status).toBe(status);
    expect(await got.json()).toEqual(await expected.json());
  });

  it('answers a scenario set with use() for its times, then as before, and journals what was sent', async () => {
    mockFetch.reset();
    mockFetch.use({ path: '/profiles/searching', respond: { status: 429 }, times: 1 });
    const limited = await fetch(`https://api.example${searching}`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect((await limited.json()).code).toBe(429);
    expect((await fetch(`https://api.example${searching}`)).status).toBe(200);
    const sent = mockFetch.requests({ path: '/profiles/searching' });
    expect(sent.map((e) => e.status)).toEqual([429, 200]);
    expect(sent[0]?.params).toMatchObject({ text_keywords: ['python'], limit: 5 });
    mockFetch.reset();
    expect(mockFetch.requests()).toEqual([]);
  });

  it('gives a network error, not a 500, for a reset fault', async () => {
    mockFetch.use({ path: '/jobs/searching', respond: { fault: 'reset' }, times: 1 });
    const search = `https://api.example/jobs/searching?${query({ board_keys: t.jobs.board_keys })}`;
    await expect(fetch(search)).rejects.toThrow(TypeError);
    expect((await fetch(search)).status).toBe(200);
    mockFetch.reset();
  });

  it('leaves other paths unhandled', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(fetch('https://api.example/health')).rejects.toThrow();
    expect(String(printed.mock.calls[0]?.[0])).toMatch(/without a matching request handler/);
    printed.mockRestore();
  });
});

const EXAMPLE = fileURLToPath(new URL('../../examples/msw/', import.meta.url));
const WORKER = fileURLToPath(
  new URL('../../node_modules/msw/lib/mockServiceWorker.js', import.meta.url),
);
const BUNDLE = `${tmpdir()}/hrmock-msw-example-${process.pid}.js`;

/** Serves the page, its bundle and MSW's worker script, and keeps every path asked for. */
function pageServer(asked: string[]): Server {
  const files: Record<string, [string, string]> = {
    '/': [`${EXAMPLE}index.html`, 'text/html; charset=utf-8'],
    '/main.js': [BUNDLE, 'text/javascript; charset=utf-8'],
    '/mockServiceWorker.js': [WORKER, 'text/javascript; charset=utf-8'],
  };
  return createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    asked.push(path);
    const file = files[path];
    if (file === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`no ${path} here`);
      return;
    }
    res
      .writeHead(200, { 'Content-Type': file[1], 'Cache-Control': 'no-store' })
      .end(await readFile(file[0]));
  });
}

describe.skipIf(!browserAvailable())('the MSW example page in headless Chromium', () => {
  const asked: string[] = [];
  const server = pageServer(asked);
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    const result = await build({
      entryPoints: [`${EXAMPLE}main.ts`],
      outfile: BUNDLE,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      plugins: [browserShims()],
      logLevel: 'silent',
    });
    expect(result.warnings).toEqual([]);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server.close(resolve));
    await rm(BUNDLE, { force: true });
  });

  it('answers the page through the MSW worker as the app does, with no server answering the API', async () => {
    const page = await browser.newPage();
    const responses: PageResponse[] = [];
    page.on('response', (r) => responses.push(r));
    await page.goto(`${origin}/`);
    await page.locator('#status[data-state]').waitFor({ timeout: 30_000 });
    const expected = await (await app.request(searching)).json();
    expect(await page.locator('#status').textContent()).toBe(
      `${expected.meta.total} profiles mention Python, answered through MSW`,
    );
    expect(expected.meta.total).toBeGreaterThan(0);
    const search = responses.find((r) => r.url().includes('/profiles/searching?'));
    expect(search?.fromServiceWorker()).toBe(true);

    const inPage = await page.evaluate(
      (u) => fetch(u).then((r) => r.json()),
      `${origin}${searching}`,
    );
    expect(inPage).toEqual(expected);
    expect(asked).toContain('/mockServiceWorker.js');
    expect(asked.filter((p) => /^\/(profiles|jobs|_mock)\//.test(p))).toEqual([]);
  }, 60_000);
});

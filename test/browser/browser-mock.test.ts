import * as nodeCrypto from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Response as PageResponse } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { lazyFixtures } from '../../mocks/lazy-fixtures.ts';
import { BROWSER_DIST, buildBrowser } from '../../scripts/browser-bundle.ts';
import { createMockFetch, installServiceWorkerMock, isMockedUrl } from '../../src/browser/index.ts';
import type { MockFetchEvent } from '../../src/browser/service-worker.ts';
import { createHash, hash } from '../../src/browser/shims/crypto.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import type { ProfilesSearching } from '../support/answers.ts';
import { browserAvailable, launchChromium } from '../support/browser.ts';
import { nth, obj } from '../support/json-reads.ts';
import { query } from '../support/mock-app.ts';

// Lengths around the padding edges, multi-byte UTF-8, and a key path as mocks/keys.ts hashes it.
const TEXTS = [
  ['the empty text', ''],
  ['"abc"', 'abc'],
  ['a fixture key path', '42:profile:17'],
  ['55 bytes, the most one block holds', 'x'.repeat(55)],
  ['56 bytes, which needs a second block', 'x'.repeat(56)],
  ['64 bytes, one whole block', 'y'.repeat(64)],
  ['multi-byte UTF-8', 'é😀ü'],
  ['1,000 bytes', 'z'.repeat(1000)],
];

describe('the node:crypto shim of the browser build', () => {
  it.each(TEXTS)('hashes %s with sha1 exactly as node:crypto does', (_, text) => {
    expect(hash('sha1', text)).toBe(nodeCrypto.hash('sha1', text, 'hex'));
  });

  it.each(TEXTS)('hashes %s with sha256 exactly as node:crypto does', (_, text) => {
    expect(createHash('sha256').update(text).digest('hex')).toBe(
      nodeCrypto.createHash('sha256').update(text).digest('hex'),
    );
  });
});

const searchPath = (sourceKeys: string[]) =>
  `/profiles/searching?${query({ source_keys: sourceKeys, text_keywords: ['python'], limit: 5 })}`;

describe('createMockFetch', () => {
  it('answers /profiles/searching as createApp does over the same seed, sizes and base path', async () => {
    const options = { seed: 7, profiles: 200, jobs: 50, basePath: '/v1' };
    const app = createApp({ data: buildFixtures(options), basePath: '/v1', log: false });
    const path = `/v1${searchPath(targetOf(app.state.store).profiles.source_keys)}`;
    const expected = await (await app.request(path)).json();
    const response = await createMockFetch(options)(new Request(`http://localhost${path}`));
    expect(response.status).toBe(200);
    expect(expected.meta.total).toBeGreaterThan(0);
    expect(await response.json()).toEqual(expected);
  });

  it('rejects a bad fixture size when created, not on its first request', () => {
    expect(() => createMockFetch({ profiles: -1 })).toThrow(/profiles must be a whole number/);
  });
});

describe('isMockedUrl', () => {
  const origin = 'https://app.example';
  it.each([
    ['/profiles/searching?limit=1', '/', true],
    ['/jobs/grading', '/', true],
    ['/_mock/target', '/', true],
    ['/openapi.json', '/', true],
    ['/v1/profiles/scoring', '/v1', true],
    ['/profiles/searching', '/v1', false],
    ['/v1x/profiles/searching', '/v1', false],
    ['/', '/', false],
    ['/main.js', '/', false],
    ['/profiles', '/', false],
    ['/docs', '/', false],
  ])('says %s under base path %s is mocked: %s', (path, basePath, mocked) => {
    expect(isMockedUrl(new URL(path, origin), origin, basePath)).toBe(mocked);
  });

  it('leaves the same path on another origin to the network', () => {
    expect(isMockedUrl(new URL('https://api.example/profiles/searching'), origin)).toBe(false);
  });
});

describe('installServiceWorkerMock', () => {
  /** A worker scope that records which fetch events got an answer. */
  function fakeScope() {
    let listener: ((event: MockFetchEvent) => void) | undefined;
    const scope = {
      location: { origin: 'https://app.example' },
      addEventListener: (_type: 'fetch', l: (event: MockFetchEvent) => void) => {
        listener = l;
      },
    };
    const dispatch = (url: string) => {
      let answer: Promise<Response> | undefined;
      listener?.({ request: new Request(url), respondWith: (r) => (answer = r) });
      return answer;
    };
    return { scope, dispatch };
  }

  it('answers an API request on its origin with the mock', async () => {
    const { scope, dispatch } = fakeScope();
    installServiceWorkerMock(scope, { profiles: 20, jobs: 5 });
    const answer = await dispatch('https://app.example/_mock/target');
    expect(answer?.status).toBe(200);
    const body = await answer?.json();
    expect(body?.data.profiles.source_keys).toHaveLength(3);
  });

  it('leaves pages, scripts and other origins to the network', () => {
    const { scope, dispatch } = fakeScope();
    installServiceWorkerMock(scope, { profiles: 20, jobs: 5 });
    expect(dispatch('https://app.example/index.html')).toBeUndefined();
    expect(dispatch('https://api.example/profiles/searching')).toBeUndefined();
  });

  it('answers the API on the origin baseUrl names, under its path, and the admin API on its own', async () => {
    const { scope, dispatch } = fakeScope();
    installServiceWorkerMock(scope, { profiles: 20, jobs: 5, baseUrl: 'https://api.example/v1' });
    expect((await dispatch('https://api.example/v1/_mock/target'))?.status).toBe(200);
    expect((await dispatch('https://app.example/_mock/requests'))?.status).toBe(200);
    expect(dispatch('https://api.example/_mock/target')).toBeUndefined();
    expect(dispatch('https://other.example/v1/_mock/target')).toBeUndefined();
  });

  it('answers what a custom match accepts, and only that', async () => {
    const { scope, dispatch } = fakeScope();
    installServiceWorkerMock(scope, {
      profiles: 20,
      jobs: 5,
      match: (url) => url.hostname === 'api.example',
    });
    expect((await dispatch('https://api.example/_mock/target'))?.status).toBe(200);
    expect(dispatch('https://app.example/_mock/target')).toBeUndefined();
  });
});

const EXAMPLE = fileURLToPath(new URL('../../examples/browser/', import.meta.url));
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
};

/** Serves the example's files and the bundles, nothing else, and keeps every path asked for. */
function staticServer(asked: string[]): Server {
  return createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    asked.push(path);
    const name = path === '/' ? 'index.html' : path.slice(1);
    const type = TYPES[name.split('.').pop() ?? ''];
    // One plain file name: no directories, no way out of the two folders.
    const dirs = type !== undefined && /^[\w-]+\.\w+$/.test(name) ? [EXAMPLE, BROWSER_DIST] : [];
    for (const dir of dirs) {
      const body = await readFile(`${dir}${name}`).catch(() => undefined);
      if (body === undefined) continue;
      res.writeHead(200, { 'Content-Type': type as string, 'Cache-Control': 'no-store' }).end(body);
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`no ${path} here`);
  });
}

describe.skipIf(!browserAvailable())('the example page in headless Chromium', () => {
  const asked: string[] = [];
  const server = staticServer(asked);
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    await buildBrowser();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('renders the search results the Service Worker answers, with no server answering the API', async () => {
    const page = await browser.newPage();
    const responses: PageResponse[] = [];
    page.on('response', (r) => responses.push(r));
    await page.goto(`${origin}/`);
    // The page shows either its results or why it has none.
    await page.locator('#results li, #status.failed').first().waitFor({ timeout: 30_000 });
    expect(await page.locator('#status').textContent()).toMatch(/profiles mention Python/);
    const response = responses.find((r) => r.url().includes('/profiles/searching?'));
    expect(response?.fromServiceWorker()).toBe(true);

    // What hrmock serve --seed 42 answers, computed here in Node.
    const url = new URL(response?.url() ?? '');
    const app = createApp({ data: lazyFixtures({ seed: 42 }), log: false });
    const expected: ProfilesSearching = await (await app.request(url.pathname + url.search)).json();
    const inPage = await page.evaluate((u) => fetch(u).then((r) => r.json()), url.href);
    expect(inPage).toEqual(expected);

    const items = await page.locator('#results li').allTextContents();
    expect(items.length).toBeGreaterThan(0);
    expect(items).toHaveLength(expected.data.profiles.length);
    expected.data.profiles.forEach((profile, i) => {
      expect(items[i]).toContain(profile.info.full_name);
      expect(items[i]).toContain(nth(profile.experiences, 0).title);
      expect(items[i]).toContain(obj(profile.info.location.fields).city);
    });

    expect(asked).toContain('/hrmock-sw.js');
    expect(asked.filter((p) => /^\/(profiles|jobs|_mock)\//.test(p))).toEqual([]);
  }, 60_000);
});

import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Response as PageResponse } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyFixtures } from '../../mocks/lazy-fixtures.ts';
import { buildBrowser } from '../../scripts/browser-bundle.ts';
import { createApp } from '../../src/http/app.ts';
import { browserAvailable, launchChromium } from '../support/browser.ts';
import { runHrmock } from '../support/command-run.ts';
import { tempDir } from '../support/temp-dir.ts';

const DOCS = fileURLToPath(new URL('../../docs/browser.md', import.meta.url));

/** The block docs/browser.md fences as ```js in-page: what a reader pastes into their page. */
async function documentedSnippet(): Promise<string> {
  const blocks = [...(await readFile(DOCS, 'utf8')).matchAll(/^```js in-page\n([\s\S]*?)^```$/gm)];
  expect(blocks).toHaveLength(1);
  return blocks[0]?.[1] as string;
}

/**
 * The page: the documented block as written, then a search with the keys it read, the outcome
 * left on <body> (data-result or data-failed).
 */
function page(snippet: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>an app</title>
<script>
  const failed = (e) => { document.body.dataset.failed = String(e.reason ?? e.message ?? e); };
  addEventListener('error', failed);
  addEventListener('unhandledrejection', failed);
</script>
<script type="module">
${snippet}
const query = new URLSearchParams({
  source_keys: JSON.stringify(target.profiles.source_keys),
  text_keywords: JSON.stringify(['python']),
  limit: '3',
});
const search = await (await fetch('/profiles/searching?' + query)).json();
document.body.dataset.result = JSON.stringify({ target, search, query: query.toString() });
</script>
</head><body></body></html>`;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
};

/** A static file server over one folder, keeping every path asked for. */
function staticServer(dir: string, asked: string[]): Server {
  return createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    asked.push(path);
    const name = path === '/' ? 'index.html' : path.slice(1);
    const type = TYPES[name.split('.').pop() ?? ''];
    const body = /^[\w-]+\.\w+$/.test(name)
      ? await readFile(join(dir, name)).catch(() => undefined)
      : undefined;
    if (type === undefined || body === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`no ${path} here`);
      return;
    }
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body);
  });
}

describe.skipIf(!browserAvailable())(
  'hrmock init and the documented registration in Chromium',
  () => {
    const asked: string[] = [];
    let server: Server;
    let origin: string;
    let browser: Browser;

    beforeAll(async () => {
      await buildBrowser({ serviceWorker: false });
      browser = await launchChromium();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      if (server !== undefined) await new Promise((resolve) => server.close(resolve));
    });

    it('answers the target and a search from the worker on a first visit, the server seeing no API request', async () => {
      const dir = await tempDir('init-public');
      const init = await runHrmock([
        'init',
        dir,
        '--seed',
        '7',
        '--profiles',
        '300',
        '--jobs',
        '60',
      ]);
      expect(init.stderr).toBe('');
      expect(init.code).toBe(0);
      await writeFile(join(dir, 'index.html'), page(await documentedSnippet()));
      server = staticServer(dir, asked);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

      // A fresh context: no worker registered yet, as on a user's first visit.
      const context = await browser.newContext();
      const tab = await context.newPage();
      const responses: PageResponse[] = [];
      tab.on('response', (r) => responses.push(r));
      await tab.goto(`${origin}/`);
      await tab
        .locator('body[data-result], body[data-failed]')
        .waitFor({ state: 'attached', timeout: 30_000 });
      const failed = await tab.locator('body').getAttribute('data-failed');
      const apiAsked = () => asked.filter((p) => /^\/(profiles|jobs|profile|job|_mock)\//.test(p));
      expect({ failed, serverAskedFor: apiAsked() }).toEqual({ failed: null, serverAskedFor: [] });
      const { target, search, query } = JSON.parse(
        (await tab.locator('body').getAttribute('data-result')) as string,
      );

      // What hrmock serve --seed 7 --profiles 300 --jobs 60 answers, computed here in Node.
      const app = createApp({
        data: lazyFixtures({ seed: 7, profiles: 300, jobs: 60 }),
        log: false,
      });
      expect(target).toEqual((await (await app.request('/_mock/target')).json()).data);
      const expected = await (await app.request(`/profiles/searching?${query}`)).json();
      expect(expected.meta.total).toBeGreaterThan(0);
      expect(search).toEqual(expected);

      const api = responses.filter((r) => /\/(_mock|profiles)\//.test(new URL(r.url()).pathname));
      expect(api.map((r) => new URL(r.url()).pathname)).toEqual([
        '/_mock/target',
        '/profiles/searching',
      ]);
      expect(api.map((r) => r.fromServiceWorker())).toEqual([true, true]);
      expect(asked).toContain('/hrmock-sw.js');
      expect(asked).toContain('/hrmock-browser.js');
      expect(apiAsked()).toEqual([]);
      await context.close();
    }, 90_000);
  },
);

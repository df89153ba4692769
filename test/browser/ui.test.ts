import { writeFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import { browserAvailable, launchChromium } from '../support/browser.ts';
import { query } from '../support/mock-app.ts';

// The control page (/_mock/ui) in headless Chromium, steered and watched as a developer would:
// requests from another client arrive live, the form adds a scenario, Reset clears, and the page
// asks nothing of another origin and logs no error.
const app = createApp({ data: buildFixtures({ profiles: 120, jobs: 30 }), log: false });
const t = targetOf(app.state.store);
let server: RunningServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const elsewhere: string[] = [];

const searchJobs = () =>
  `${server.url}/jobs/searching?${query({ board_keys: t.jobs.board_keys, limit: 2 })}`;

/** The page loaded once, following the feed ("Live"), each problem it shows kept. */
async function openPage(width: number, height: number): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const opened = await context.newPage();
  opened.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  opened.on('pageerror', (e) => problems.push(e.message));
  opened.on('request', (r) => !r.url().startsWith(server.url) && elsewhere.push(r.url()));
  await opened.goto(`${server.url}/_mock/ui`);
  await opened.getByText('Live', { exact: true }).waitFor();
  return opened;
}

describe.skipIf(!browserAvailable())('the control page in headless Chromium', () => {
  beforeAll(async () => {
    server = await startServer(app);
    browser = await launchChromium();
    page = await openPage(1280, 800);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  beforeEach(async () => {
    await fetch(`${server.url}/_mock/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    await page.locator('.rows > li').first().waitFor({ state: 'detached' });
  });

  it('shows a request made by another client within 1 s, without a reload', async () => {
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const answered = await fetch(searchJobs());
    await answered.arrayBuffer();
    const row = page.locator('.row', { hasText: '/jobs/searching' });
    await row.waitFor({ timeout: 1000 });
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    await expect.poll(() => row.locator('.status').textContent()).toBe('200');
    expect(await page.locator('#sum-ops').textContent()).toBe('1');
    // Opened from the keyboard: parameters, headers, the first KB of the answer.
    await row.focus();
    await page.keyboard.press('Enter');
    expect(await row.getAttribute('aria-expanded')).toBe('true');
    const detail = page.locator('.detail').first();
    expect(await detail.textContent()).toContain(JSON.stringify(t.jobs.board_keys[0]));
    expect(await detail.locator('pre').nth(2).textContent()).toMatch(/^\{"code":200/);
    // Copy as curl: the line sends the same request again.
    await detail.getByRole('button', { name: 'Copy as curl' }).click();
    await detail.getByRole('button', { name: 'Copied' }).waitFor();
    const line = await page.evaluate(() => navigator.clipboard.readText());
    const again = /^curl -sS '([^']+)'$/.exec(line)?.[1];
    const sent = new URL(searchJobs());
    const copied = new URL(again ?? '');
    expect([copied.origin + copied.pathname, [...copied.searchParams]]).toEqual([
      sent.origin + sent.pathname,
      [...sent.searchParams],
    ]);
  });

  it('adds a scenario from its form that answers the next request, then Reset clears it', async () => {
    for (const label of ['Path', 'Method', 'Status', 'Example', 'Delay', 'Fault', 'Times', 'Body'])
      expect(await page.getByLabel(label, { exact: true }).count()).toBe(1);
    await page.getByLabel('Path', { exact: true }).selectOption('/jobs/searching');
    await page.getByLabel('Status', { exact: true }).fill('503');
    await page.getByLabel('Times', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Add scenario' }).click();
    await page.locator('#scenarios li').waitFor();
    expect(await page.locator('#scenarios').textContent()).toContain('matched 0');
    expect((await fetch(searchJobs())).status).toBe(503);
    await page.locator('#scenarios', { hasText: 'matched 1' }).waitFor();
    await page.locator('.row .status', { hasText: '503' }).waitFor();

    // A second one, removed by its own button: the first stays.
    await page.getByLabel('Path', { exact: true }).selectOption('/profiles/grading');
    await page.getByLabel('Status', { exact: true }).fill('500');
    await page.getByRole('button', { name: 'Add scenario' }).click();
    await expect.poll(() => page.locator('#scenarios li').count()).toBe(2);
    const second = page.locator('#scenarios li', { hasText: '/profiles/grading' });
    await second.getByRole('button', { name: /^Remove scenario s\d+$/ }).click();
    await expect.poll(() => page.locator('#scenarios li').count()).toBe(1);
    expect(await page.locator('#scenarios').textContent()).toContain('/jobs/searching');

    await page.getByRole('button', { name: 'Reset' }).click();
    await page.locator('#scenarios li').waitFor({ state: 'detached' });
    await page.locator('.rows > li').first().waitFor({ state: 'detached' });
    expect((await fetch(searchJobs())).status).toBe(200);
  });

  it('shows the server’s own words for a scenario it refuses, in the form', async () => {
    await page.getByLabel('Path', { exact: true }).selectOption('/profiles/grading');
    await page.getByLabel('Status', { exact: true }).fill('');
    await page.getByLabel('Times', { exact: true }).fill('');
    await page.getByLabel('Delay', { exact: true }).fill('20');
    await page.getByLabel('Fault', { exact: true }).selectOption('reset');
    await page.getByRole('button', { name: 'Add scenario' }).click();
    await page.getByRole('alert').filter({ hasText: 'exactly one of' }).waitFor();
    expect(await page.locator('#scenarios li').count()).toBe(0);
    await page.getByLabel('Delay', { exact: true }).fill('');
    await page.getByLabel('Fault', { exact: true }).selectOption('');
  });

  it('filters the rows by path and by status', async () => {
    await (await fetch(searchJobs())).arrayBuffer();
    await (await fetch(`${server.url}/jobs/searching`)).arrayBuffer();
    await (await fetch(`${server.url}/profiles/grading`)).arrayBuffer();
    await expect.poll(() => page.locator('.rows > li').count()).toBe(3);
    await page.getByLabel('Status filter').fill('4xx');
    await expect.poll(() => page.locator('.rows > li').count()).toBe(2);
    await page.getByLabel('Path filter').fill('/jobs');
    await expect.poll(() => page.locator('.rows > li').count()).toBe(1);
    await page.getByLabel('Status filter').fill('');
    await page.getByLabel('Path filter').fill('');
    expect(await page.locator('#sum-4xx').textContent()).toBe('2');
  });

  it('shows markup a client sent as text, never as markup', async () => {
    const sent = '<img src=x onerror="window.pwned=1">';
    await (await fetch(`${server.url}/jobs/searching?${query({ q: sent })}`)).arrayBuffer();
    await page.locator('.row', { hasText: sent }).waitFor();
    expect(await page.locator('.rows img').count()).toBe(0);
    expect(await page.evaluate(() => 'pwned' in window)).toBe(false);
  });

  it('fits a phone’s 390×844 and a laptop’s 1280×800 without sideways scrolling', async () => {
    const scenario = { path: '/profiles/grading', respond: { status: 503 }, times: 5 };
    await fetch(`${server.url}/_mock/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(scenario),
    });
    for (const url of [
      searchJobs(),
      `${server.url}/profiles/grading`,
      `${server.url}/jobs/scoring`,
    ])
      await (await fetch(url)).arrayBuffer();
    await (await fetch(searchJobs())).arrayBuffer();
    await page.locator('.row', { hasText: '/jobs/searching' }).first().click();
    const phone = await openPage(390, 844);
    for (const shown of [page, phone]) {
      await shown.locator('.row').first().waitFor();
      const [scroll, width] = await shown.evaluate(() => [
        document.documentElement.scrollWidth,
        window.innerWidth,
      ]);
      expect(scroll).toBeLessThanOrEqual(width);
      expect(await shown.getByRole('button', { name: 'Add scenario' }).isVisible()).toBe(true);
    }
    const shot = process.env.HRMOCK_UI_SCREENSHOT;
    if (shot !== undefined) await writeFile(shot, await page.screenshot());
    await phone.close();
  });

  it('logged no error and asked nothing of another origin', () => {
    // Chromium logs the one 400 a test asked for (the refused scenario): that, and nothing else.
    expect(problems).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
    expect(elsewhere).toEqual([]);
  });
});

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '../../contract/suite/reporters.ts';
import type { Report } from '../../contract/suite/run-suite.ts';
import { browserAvailable, launchChromium } from '../support/browser.ts';
import { HOSTILE_IMG, HOSTILE_SCRIPT, hostileReport } from '../support/hostile-report.ts';
import { tempDir } from '../support/temp-dir.ts';

let browser: Browser;
let report: Report;

describe.skipIf(!browserAvailable())('the HTML report in headless Chromium', () => {
  beforeAll(async () => {
    [report, browser] = await Promise.all([hostileReport(), launchChromium()]);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows rules, evidence and coverage of a hostile server, loading and running nothing', async () => {
    const file = join(await tempDir('html-report'), 'report.html');
    await writeFile(file, render(report, 'html'));
    const page = await browser.newPage();
    const self = pathToFileURL(file).href;
    const requests: string[] = [];
    const problems: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url === self) return route.continue();
      requests.push(url);
      return route.abort();
    });
    page.on('request', (r) => {
      if (r.url() !== self) requests.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      return dialog.dismiss();
    });
    await page.goto(self, { waitUntil: 'load' });

    await expect(page.getByText('FAIL', { exact: true }).first().isVisible()).resolves.toBe(true);
    for (const { id } of report.results)
      expect(await page.locator('.rule .id', { hasText: new RegExp(`^${id}$`) }).count(), id).toBe(
        1,
      );
    expect(await page.locator('.rule.fail').count()).toBe(report.failed);
    expect(await page.locator('table.coverage tbody tr').count()).toBe(12);
    expect(await page.locator('script, img, iframe, a, link[href]').count()).toBe(0);
    const evidence = page.locator('#rule-ENV .evidence').first();
    await expect(evidence.getByText(HOSTILE_SCRIPT).isVisible()).resolves.toBe(true);
    await expect(evidence.getByText(HOSTILE_IMG).isVisible()).resolves.toBe(true);
    await expect(evidence.locator('pre.command').innerText()).resolves.toMatch(/^curl -sS -i -g /);

    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

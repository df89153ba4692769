import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, field, toList } from '../../contract/suite/json-shape.ts';
import { deref, loadContract } from '../../contract/suite/openapi.ts';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import { browserAvailable, launchChromium } from '../support/browser.ts';
import { SDK_FILTERS } from '../support/sdk-parameters.ts';

const app = createApp({ data: buildFixtures({ profiles: 120, jobs: 30 }), log: false });
let server: RunningServer;
let browser: Browser;

describe.skipIf(!browserAvailable())('/docs in headless Chromium', () => {
  beforeAll(async () => {
    server = await startServer(app);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists the twelve operations, and a try-it call gets a 200 from the mock, all offline', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    expect(await page.locator('.opblock').count()).toBe(12);
    for (const id of ['gradeProfilesSingular', 'gradeJobsSingular'])
      expect(
        await page
          .locator(`#operations-${id.startsWith('gradeP') ? 'Profiles' : 'Jobs'}-${id}`)
          .count(),
      ).toBe(1);

    const operation = page.locator('#operations-Profiles-searchProfiles');
    await operation.locator('.opblock-summary').click();
    // The page opens every operation in "try it out" mode already.
    // The page pre-fills the keys this mock has: executing as it stands must work.
    const sourceKeys = JSON.stringify(targetOf(app.state.store).profiles.source_keys);
    const input = operation.locator('tr[data-param-name="source_keys"] input').first();
    expect(await input.inputValue()).toBe(sourceKeys);
    const { status, shown } = await execute(operation);
    expect(status, shown).toMatch(/^200/);
    expect(JSON.parse(shown ?? '{}').meta.total).toBe(120);
    // Every parameter the SDKs send is listed with its own row.
    for (const name of SDK_FILTERS) {
      expect(await operation.locator(`tr[data-param-name="${name}"]`).count(), name).toBe(1);
    }

    expect(
      requested.filter((url) => !url.startsWith(server.url) && !url.startsWith('data:')),
    ).toEqual([]);
    expect(requested.some((url) => url.includes('/profiles/searching?'))).toBe(true);
  }, 60_000);

  it('executes every operation with the values it shows, each a 200, no field a file picker', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    const operations = page.locator('.opblock');
    const count = await operations.count();
    expect(count).toBe(12);
    const outcomes: string[] = [];
    for (let i = 0; i < count; i++) {
      const operation = operations.nth(i);
      const name = `${await operation.locator('.opblock-summary-method').textContent()} ${await operation.locator('.opblock-summary-path').getAttribute('data-path')}`;
      await operation.locator('.opblock-summary').click();
      await operation.locator('button.execute').waitFor({ timeout: 20_000 });
      expect(await operation.locator('input[type="file"]').count(), name).toBe(0);
      const { status, shown } = await execute(operation);
      outcomes.push(`${name} ${status.slice(0, 3)} ${shown.slice(0, 200)}`);
      await operation.locator('.opblock-summary').click();
    }
    for (const outcome of outcomes) expect(outcome).toMatch(/^(GET|POST) \S+ 200 /);
    await page.close();
  }, 120_000);

  it('shows the grading batch pre-filled and the single mode empty, with a typed example', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    const operation = page.locator('#operations-Profiles-gradeProfiles');
    await operation.locator('.opblock-summary').click();
    const field = (name: string) =>
      operation.locator(`tr[data-param-name="${name}"] input`).first();
    const ids = JSON.parse(await field('profile_ids').inputValue());
    expect(ids).toEqual(targetOf(app.state.store).profiles.profile_ids.slice(0, 3));
    expect(await field('profile_key').inputValue()).toBe('');
    expect(await field('source_key').inputValue()).toBe('');
    expect(await operation.locator('tr[data-param-name="profile_key"]').textContent()).toMatch(
      /Example: [0-9a-f]{40}/,
    );
    await page.close();
  }, 60_000);

  it.each([
    ['Profiles', 'scoreProfiles', '/profiles/scoring'],
    ['Jobs', 'scoreJobs', '/jobs/scoring'],
    ['Profiles', 'searchProfiles', '/profiles/searching'],
    ['Jobs', 'searchJobs', '/jobs/searching'],
  ])(
    "lists in %s %s every parameter of the contract, the SDKs' names and sort orders among them",
    async (tag, id, path) => {
      const page = await browser.newPage();
      await page.goto(`${server.url}/docs`);
      await page.waitForSelector('.opblock', { timeout: 20_000 });
      const operation = page.locator(`#operations-${tag}-${id}`);
      await operation.locator('.opblock-summary').click();
      const names = parameterNames(path);
      const sdkNames = path.endsWith('scoring')
        ? ['agent_key', 'use_agent', 'stage', 'tags']
        : ['stage', 'tags'];
      for (const name of sdkNames) expect(names, name).toContain(name);
      for (const name of names) {
        expect(await operation.locator(`tr[data-param-name="${name}"]`).count(), name).toBe(1);
      }
      const sorts = await operation
        .locator('tr[data-param-name="sort_by"] select option')
        .allTextContents();
      for (const sort of [
        'date',
        'date_reception',
        'location_experience',
        'location_education',
        'scoring',
      ])
        expect(sorts, sort).toContain(sort);
      await page.close();
    },
    60_000,
  );
});

/** Clicks an operation's Execute and reads the status and body the page then shows. */
async function execute(operation: Locator): Promise<{ status: string; shown: string }> {
  await operation.locator('button.execute').click();
  const status = operation.locator('.live-responses-table tbody .response-col_status').first();
  await status.waitFor({ timeout: 20_000 });
  const shown = await operation.locator('.live-responses-table .microlight').first().textContent();
  return { status: (await status.textContent())?.trim() ?? '', shown: shown ?? '' };
}

/** The query parameters the contract documents for GET on `path`. */
function parameterNames(path: string): string[] {
  const contract = loadContract();
  return toList(at(contract, 'paths', path, 'get', 'parameters')).map((p) =>
    String(field(deref(contract, p), 'name')),
  );
}

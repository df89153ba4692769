// Steering the mock from a test: a per-test override with use(), reset() after each test, and
// an assertion on what the app sent. The app under test sends no special header.
import { type RunningMock, startMock } from 'hrmock';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ seed: 42, profiles: 100, jobs: 30 });
});
afterEach(() => mock.reset());
afterAll(() => mock.close());

/** Stands for the app: searches profiles, and says "retry later" when the API fails. */
async function searchPython(baseUrl: string, sourceKeys: string[]): Promise<string> {
  const query = new URLSearchParams({
    source_keys: JSON.stringify(sourceKeys),
    text_keywords: JSON.stringify(['python']),
    limit: '5',
  });
  const response = await fetch(`${baseUrl}/profiles/searching?${query}`);
  return response.ok ? 'results' : 'retry later';
}

it('shows "retry later" when searching fails once', async () => {
  mock.use({ path: '/profiles/searching', respond: { status: 500 }, times: 1 });
  const sourceKeys = mock.target.profiles.source_keys;
  expect(await searchPython(mock.url, sourceKeys)).toBe('retry later');
  expect(await searchPython(mock.url, sourceKeys)).toBe('results');
});

it('sends the keywords the user typed', async () => {
  await searchPython(mock.url, mock.target.profiles.source_keys);
  const [sent] = mock.requests({ path: '/profiles/searching' });
  expect(sent?.params.text_keywords).toEqual(['python']);
  expect(sent?.params.limit).toBe(5);
});

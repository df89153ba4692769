import { createApp, lazyFixtures } from 'hrmock';
import { expect, it } from 'vitest';

it('answers in process, with no port, through app.request', async () => {
  const app = createApp({ data: lazyFixtures({ seed: 7, profiles: 100, jobs: 20 }), log: false });
  const response = await app.request('/_mock/target');
  expect(response.status).toBe(200);
  const missing = await app.request('/profiles/searching');
  expect(missing.status).toBe(400);
  expect((await missing.json()).errors[0].param).toBe('source_keys');
});

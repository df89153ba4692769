import type { ProfilesSearchingResponse } from 'hrmock';
import { expect, inject, it } from 'vitest';

it('finds Python profiles on the mock the global setup started', async () => {
  const query = new URLSearchParams({
    source_keys: JSON.stringify(inject('hrmockSourceKeys')),
    text_keywords: JSON.stringify(['python']),
    limit: '5',
  });
  const response = await fetch(`${inject('hrmockUrl')}/profiles/searching?${query}`);
  const body = (await response.json()) as ProfilesSearchingResponse;
  expect(response.status).toBe(200);
  expect(body.data.profiles.length).toBeGreaterThan(0);
  for (const profile of body.data.profiles) expect(profile.text.toLowerCase()).toContain('python');
});

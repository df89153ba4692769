import { describe, expect, it } from 'vitest';
import { POST_LONG } from '../../contract/suite/rules/methods.ts';
import { realFetch, runRule } from '../mutants/judge.ts';

describe('POST-LONG', () => {
  it('sends every list operation a POST body of 32 KB or more, and passes on the mock', async () => {
    const sent: { path: string; bytes: number }[] = [];
    const outcome = await runRule(POST_LONG, async (request) => {
      const text = await request.clone().text();
      sent.push({ path: new URL(request.url).pathname, bytes: Buffer.byteLength(text) });
      return realFetch(request);
    });
    expect(outcome).toMatchObject({ status: 'pass' });
    expect(sent.map((s) => s.path)).toEqual([
      '/profiles/searching',
      '/jobs/searching',
      '/profiles/scoring',
      '/jobs/scoring',
    ]);
    for (const { bytes } of sent) expect(bytes).toBeGreaterThanOrEqual(32 * 1024);
  });
});

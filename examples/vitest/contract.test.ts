import { runCheck } from 'hrmock/check';
import { expect, inject, it } from 'vitest';

it('holds every contract rule, checked from inside the test runner', async () => {
  const report = await runCheck({ baseUrl: inject('hrmockUrl'), timeoutMs: 10_000 });
  const failed = report.results.filter((r) => r.outcome.status === 'fail').map((r) => r.id);
  expect(report.error).toBeUndefined();
  expect(failed).toEqual([]);
  expect(report.passed).toBe(report.results.length);
}, 60_000);

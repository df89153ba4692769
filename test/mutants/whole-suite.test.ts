import { describe, expect, it } from 'vitest';
import { checkAll, realFetch } from './judge.ts';
import { CONFORMING } from './mutants.ts';

// Each mutant against its rule, and the mutation score: mutation.test.ts.

describe('the whole contract suite, as hrmock check runs it', () => {
  it('passes every rule on the unbroken mock', async () => {
    const report = await checkAll(realFetch);
    expect(report.results.filter((r) => r.outcome.status !== 'pass')).toEqual([]);
  });

  it.each(CONFORMING.map((c) => [c.name, c] as const))(
    'passes every rule on a server that %s',
    async (_, conforming) => {
      const report = await checkAll(conforming.wrap(realFetch));
      expect(report.results.filter((r) => r.outcome.status !== 'pass')).toEqual([]);
    },
  );
});

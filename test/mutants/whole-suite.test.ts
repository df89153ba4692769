import { describe, expect, it } from 'vitest';
import { checkAll, judgeOfMutants, realFetch } from './judge.ts';
import { CONFORMING, MUTANTS } from './mutants.ts';

const whyEscaped = judgeOfMutants();

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

  it('catches every mutant: a mutation score of 100%', async () => {
    const escaped: [string, string][] = [];
    for (const mutant of MUTANTS) {
      const why = await whyEscaped(mutant);
      if (why !== undefined) escaped.push([mutant.name, why]);
    }
    const caught = MUTANTS.length - escaped.length;
    process.stdout.write(
      `mutation score: ${caught}/${MUTANTS.length} mutants caught (${Math.round((caught / MUTANTS.length) * 100)}%)\n`,
    );
    expect(escaped).toEqual([]);
  }, 120_000);
});

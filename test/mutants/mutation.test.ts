import { afterAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../contract/suite/rule.ts';
import { BAD_INPUT } from '../../contract/suite/rules/bad-input.ts';
import { RULES } from '../../contract/suite/run-suite.ts';
import { judgeOfMutants, realFetch, runRule } from './judge.ts';
import { CONFORMING, MUTANTS, WITHOUT_ERRORS_LIST } from './mutants.ts';

const whyEscaped = judgeOfMutants();

// Each test runs one rule: `npm run mutate` runs, for a mutant of a rule, only that rule's tests.
describe('each rule of the contract suite against mutants of the mock', () => {
  it.each(RULES.map((r) => [r.id, r] as const))(
    '%s passes on the unbroken mock',
    async (_, rule) => {
      const outcome = await runRule(rule, realFetch);
      expect(outcome).toMatchObject({ status: 'pass' });
    },
  );

  it.each(CONFORMING.flatMap((c) => RULES.map((r) => [r.id, c.name, r, c] as const)))(
    '%s passes on a server that %s',
    async (_, __, rule, conforming) => {
      expect(await runRule(rule, conforming.wrap(realFetch))).toMatchObject({ status: 'pass' });
    },
  );

  it('has at least one mutant for every rule', () => {
    expect(new Set(MUTANTS.map((m) => m.rule))).toEqual(new Set(RULES.map((r) => r.id)));
  });

  it('gives every mutant its own name', () => {
    expect(new Set(MUTANTS.map((m) => m.name)).size).toBe(MUTANTS.length);
  });

  const escaped = new Map<string, string | undefined>();
  it.each(MUTANTS.map((m) => [m.rule, m.name, m] as const))(
    '%s catches: %s',
    async (_rule, _, mutant) => {
      const why = await whyEscaped(mutant);
      escaped.set(mutant.name, why);
      expect(why).toBeUndefined();
    },
  );

  // Printed only when every mutant was judged (not under a filter that ran a few).
  afterAll(() => {
    if (escaped.size !== MUTANTS.length) return;
    const caught = [...escaped.values()].filter((why) => why === undefined).length;
    process.stdout.write(
      `mutation score: ${caught}/${MUTANTS.length} mutants caught (${Math.round((caught / MUTANTS.length) * 100)}%)\n`,
    );
  });

  it('BAD-INPUT passes, checking less, when the optional errors list is left out of 400s', async () => {
    const checks = (outcome: Outcome) => (outcome.status === 'pass' ? outcome.checks : 0);
    const without = await runRule(BAD_INPUT, WITHOUT_ERRORS_LIST(realFetch));
    expect(without).toMatchObject({ status: 'pass' });
    // It passed without naming: with no errors list there was no parameter name to check.
    expect(checks(without)).toBeGreaterThan(0);
    expect(checks(without)).toBeLessThan(checks(await runRule(BAD_INPUT, realFetch)));
  });
});

import { describe, expect, it } from 'vitest';
import { NoAnswer } from '../../contract/suite/client.ts';
import { type Rule, type RuleContext, Violation } from '../../contract/suite/rule.ts';
import { settle } from '../../contract/suite/run-suite.ts';

const ctx = { checks: { count: 0 } } as unknown as RuleContext;
const rule = (run: Rule['run']): Rule => ({ id: 'TEST', title: 'a rule under test', run });

describe('a rule run to its outcome', () => {
  it('fails with its evidence on a violation, not as a crash', async () => {
    const outcome = await settle(
      rule(async () => {
        throw new Violation({ request: 'GET /x', expected: 'a 200', got: 'a 500' });
      }),
      ctx,
    );
    expect(outcome).toEqual({
      status: 'fail',
      evidence: { request: 'GET /x', expected: 'a 200', got: 'a 500' },
    });
  });

  it('fails with the request on a missing answer, not as a crash', async () => {
    const outcome = await settle(
      rule(async () => {
        throw new NoAnswer('GET /x', 'no answer in 1 s');
      }),
      ctx,
    );
    expect(outcome).toMatchObject({ status: 'fail', evidence: { got: 'no answer in 1 s' } });
    expect(outcome).not.toHaveProperty('crashed');
  });

  it('reports a rule that throws anything else as crashed, naming the error', async () => {
    const outcome = await settle(
      rule(async () => {
        (undefined as unknown as { data: unknown }).data;
      }),
      ctx,
    );
    expect(outcome).toMatchObject({ status: 'fail', crashed: true });
    expect(outcome.status === 'fail' && outcome.evidence.got).toMatch(/crashed: TypeError/);
  });
});

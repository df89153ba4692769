import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../contract/suite/client.ts';
import type { Outcome, RuleContext } from '../../contract/suite/rule.ts';
import { PRISM } from '../../contract/suite/rules/prism.ts';
import { settle } from '../../contract/suite/run-suite.ts';

/** An exchange as `prism proxy` hands it back, with its `sl-violations` header when given. */
function exchange(violations?: string): Exchange {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (violations !== undefined) headers.set('sl-violations', violations);
  return {
    method: 'GET',
    path: '/profiles/searching',
    params: { source_keys: ['a'] },
    status: 200,
    headers,
    text: '{}',
    body: {},
    ms: 1,
  };
}

function judge(...exchanges: Exchange[]): Promise<Outcome> {
  const ctx = { client: { exchanges }, checks: { count: 0 } } as unknown as RuleContext;
  return settle(PRISM, ctx);
}

const violation = (location: string[], message: string) => ({ location, code: 'x', message });

describe('PRISM judges the violations prism proxy reports', () => {
  it('passes, having checked nothing, when no answer carries a violations header', async () => {
    expect(await judge(exchange(), exchange())).toEqual({ status: 'pass', checks: 0 });
  });

  it('passes on violations of requests only: the suite sends bad requests on purpose', async () => {
    const header = JSON.stringify([violation(['request', 'query', 'limit'], 'must be <= 100')]);
    expect(await judge(exchange(header), exchange(header))).toEqual({ status: 'pass', checks: 2 });
  });

  it('fails on a response violation, naming where it is and what Prism said', async () => {
    const header = JSON.stringify([
      violation(['request', 'query'], 'ignored'),
      violation(['response', 'body', 'data'], "must have required property 'profiles'"),
    ]);
    expect(await judge(exchange(), exchange(header))).toEqual({
      status: 'fail',
      evidence: {
        request: 'GET /profiles/searching?source_keys=["a"]',
        expected: 'no response violation reported by Prism',
        got: "response.body.data: must have required property 'profiles'",
      },
    });
  });

  it('lists the first three response violations, joined', async () => {
    const header = JSON.stringify(
      ['a', 'b', 'c', 'd'].map((field) => violation(['response', field], `${field} is wrong`)),
    );
    const outcome = await judge(exchange(header));
    expect(outcome.status === 'fail' && outcome.evidence.got).toBe(
      'response.a: a is wrong; response.b: b is wrong; response.c: c is wrong',
    );
  });

  it('takes a header that is not JSON as one response violation, quoted whole', async () => {
    const outcome = await judge(exchange('body: not an object'));
    expect(outcome.status === 'fail' && outcome.evidence.got).toBe('response: body: not an object');
  });

  it('reads a violation without a location as one about the request', async () => {
    const header = JSON.stringify([{ message: 'somewhere' }]);
    expect(await judge(exchange(header))).toEqual({ status: 'pass', checks: 1 });
  });
});

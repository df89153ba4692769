import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FuzzCase, fuzzCases } from '../../contract/suite/fuzz/cases.ts';
import { resumedAt } from '../../contract/suite/fuzz/fuzz-rule.ts';
import { loadContract } from '../../contract/suite/openapi.ts';
import { contractOperations } from '../../contract/suite/operation-inputs.ts';
import { parseTarget } from '../../contract/suite/target.ts';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';

const contract = loadContract();
const app = createApp({ data: buildFixtures({ profiles: 40, jobs: 20 }), log: false });
const target = parseTarget(targetOf(app.state.store), null, 'the mock');
const cases = fuzzCases(contract, contractOperations(contract), target);

/** The cases fast-check draws with `resumedAt(options, from)`, in order. */
async function drawn(options: { runs: number; seed: number }, from: number): Promise<string[]> {
  const seen: string[] = [];
  const property = fc.asyncProperty(cases, async (c: FuzzCase) => {
    seen.push(JSON.stringify(c));
    return true;
  });
  await fc.check(property, resumedAt(options, from));
  return seen;
}

describe('resumedAt', () => {
  it('draws from request k on the very cases a run from the start draws there', async () => {
    const options = { runs: 120, seed: 2 ** 40 + 5 };
    const whole = await drawn(options, 0);
    expect(whole).toHaveLength(120);
    for (const from of [1, 37, 119]) expect(await drawn(options, from)).toEqual(whole.slice(from));
  });
});

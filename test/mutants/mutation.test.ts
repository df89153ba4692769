import { describe, expect, it } from 'vitest';
import { SuiteClient } from '../../contract/suite/client.ts';
import { loadContract, loadHistory, type OpenApiDoc } from '../../contract/suite/openapi.ts';
import type { Outcome, RuleContext } from '../../contract/suite/rule.ts';
import { RULES, runSuite, settle } from '../../contract/suite/run-suite.ts';
import { parseTarget } from '../../contract/suite/target.ts';
import { ContractValidator } from '../../contract/suite/validator.ts';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/domain/target.ts';
import { createApp } from '../../src/http/app.ts';
import {
  type Fetch,
  MUTANTS,
  type Mutant,
  mutatedContract,
  said,
  WITHOUT_ERRORS_LIST,
} from './mutants.ts';

const app = createApp({ data: buildFixtures({ profiles: 400, jobs: 120 }), log: false });
const target = parseTarget(targetOf(app.store), null, 'the mock');
const contract = loadContract();
const validator = new ContractValidator(contract);
const history = loadHistory().map((h) => ({ ...h, validator: new ContractValidator(h.doc) }));
const realFetch: Fetch = async (request) => app.fetch(request);
const client = (fetch: Fetch) => new SuiteClient({ baseUrl: 'http://mock', fetch });

/** Every rule, as `hrmock check` runs them. */
function checkAll(fetch: Fetch) {
  return runSuite({ client: client(fetch), baseUrl: 'http://mock', target });
}

/** Only the rule that must catch `mutant`, against the mutated server or contract. */
async function outcomeOf(mutant: Mutant): Promise<Outcome | undefined> {
  const rule = RULES.find((r) => r.id === mutant.rule);
  if (rule === undefined) return undefined;
  const doc: OpenApiDoc = mutant.contract ? mutatedContract(mutant, contract) : contract;
  const ctx: RuleContext = {
    client: client(mutant.wrap ? mutant.wrap(realFetch) : realFetch),
    target,
    contract: doc,
    validator: mutant.contract ? new ContractValidator(doc) : validator,
    history,
    checks: { count: 0 },
  };
  return settle(rule, ctx);
}

/** Each mutant's outcome, found once and shared, so that every test can also run on its own. */
const outcomes = new Map<Mutant, Promise<Outcome | undefined>>();
function outcomeOnce(mutant: Mutant): Promise<Outcome | undefined> {
  let outcome = outcomes.get(mutant);
  if (outcome === undefined) {
    outcome = outcomeOf(mutant);
    outcomes.set(mutant, outcome);
  }
  return outcome;
}

/** Why `mutant` escaped its rule, or undefined when the rule caught it with the evidence it states. */
async function whyEscaped(mutant: Mutant): Promise<string | undefined> {
  const outcome = await outcomeOnce(mutant);
  if (outcome === undefined) return `no rule ${mutant.rule}`;
  if (outcome.status !== 'fail') return `${mutant.rule} did not fail`;
  if (outcome.crashed) return `${mutant.rule} crashed: ${outcome.evidence.got}`;
  const text = said(outcome.evidence);
  if (!mutant.evidence.test(text)) return `${mutant.rule} failed for another reason: ${text}`;
  return undefined;
}

describe('the contract suite against mutants of the mock', () => {
  it('passes every rule on the unbroken mock', async () => {
    const report = await checkAll(realFetch);
    expect(report.results.filter((r) => r.outcome.status !== 'pass')).toEqual([]);
  });

  it('has at least one mutant for every rule', () => {
    expect(new Set(MUTANTS.map((m) => m.rule))).toEqual(new Set(RULES.map((r) => r.id)));
  });

  it('gives every mutant its own name', () => {
    expect(new Set(MUTANTS.map((m) => m.name)).size).toBe(MUTANTS.length);
  });

  it.each(MUTANTS.map((m) => [m.rule, m.name, m] as const))(
    '%s catches: %s',
    async (_rule, _, mutant) => {
      expect(await whyEscaped(mutant)).toBeUndefined();
    },
  );

  it('passes every rule on a server that leaves the optional errors list out of its 400s', async () => {
    const checksOf = (report: Awaited<ReturnType<typeof checkAll>>) => {
      const outcome = report.results.find((r) => r.id === 'BAD-INPUT')?.outcome;
      return outcome?.status === 'pass' ? outcome.checks : 0;
    };
    const report = await checkAll(WITHOUT_ERRORS_LIST(realFetch));
    expect(report.results.filter((r) => r.outcome.status !== 'pass')).toEqual([]);
    // It passed without naming: with no errors list there was no parameter name to check.
    expect(checksOf(report)).toBeGreaterThan(0);
    expect(checksOf(report)).toBeLessThan(checksOf(await checkAll(realFetch)));
  });

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

import { SuiteClient } from '../../contract/suite/client.ts';
import { loadContract, loadHistory, type OpenApiDoc } from '../../contract/suite/openapi.ts';
import type { Outcome, Rule, RuleContext } from '../../contract/suite/rule.ts';
import { RULES, runSuite, settle } from '../../contract/suite/run-suite.ts';
import { parseTarget } from '../../contract/suite/target.ts';
import { ContractValidator } from '../../contract/suite/validator.ts';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { type Fetch, type Mutant, mutatedContract, said } from './rewrite.ts';

const app = createApp({ data: buildFixtures({ profiles: 160, jobs: 70 }), log: false });
const target = parseTarget(targetOf(app.state.store), null, 'the mock');
const contract = loadContract();
const validator = new ContractValidator(contract);
let history: RuleContext['history'] | undefined;
/** The published contracts, compiled when a rule first asks for them (OLD-CLIENT, ADDITIVE). */
const historyOnce = () => {
  history ??= loadHistory().map((h) => ({ ...h, validator: new ContractValidator(h.doc) }));
  return history;
};

/** The unbroken mock, in process. */
export const realFetch: Fetch = async (request) => app.fetch(request);

const client = (fetch: Fetch) => new SuiteClient({ baseUrl: 'http://mock', fetch });

/** Every rule, as `hrmock check` runs them. */
export function checkAll(fetch: Fetch) {
  return runSuite({ client: client(fetch), baseUrl: 'http://mock', target });
}

/** One rule alone against `fetch`, judging `doc` as the checkout's contract. */
export function runRule(rule: Rule, fetch: Fetch, doc: OpenApiDoc = contract): Promise<Outcome> {
  const ctx: RuleContext = {
    client: client(fetch),
    target,
    contract: doc,
    validator: doc === contract ? validator : new ContractValidator(doc),
    get history() {
      return historyOnce();
    },
    checks: { count: 0 },
  };
  return settle(rule, ctx);
}

/**
 * A judge of mutants: why a mutant escaped its rule, or undefined when the rule caught it with the
 * evidence it states. Each outcome is found once and shared by the tests that ask the same judge.
 */
export function judgeOfMutants(): (mutant: Mutant) => Promise<string | undefined> {
  const outcomes = new Map<Mutant, Promise<Outcome | undefined>>();
  const outcomeOf = (mutant: Mutant) => {
    let outcome = outcomes.get(mutant);
    if (outcome === undefined) {
      const rule = RULES.find((r) => r.id === mutant.rule);
      outcome = rule
        ? runRule(
            rule,
            mutant.wrap ? mutant.wrap(realFetch) : realFetch,
            mutant.contract ? mutatedContract(mutant, contract) : contract,
          )
        : Promise.resolve(undefined);
      outcomes.set(mutant, outcome);
    }
    return outcome;
  };
  return async (mutant) => {
    const outcome = await outcomeOf(mutant);
    if (outcome === undefined) return `no rule ${mutant.rule}`;
    if (outcome.status !== 'fail') return `${mutant.rule} did not fail`;
    if (outcome.crashed) return `${mutant.rule} crashed: ${outcome.evidence.got}`;
    const text = said(outcome.evidence);
    if (!mutant.evidence.test(text)) return `${mutant.rule} failed for another reason: ${text}`;
    return undefined;
  };
}

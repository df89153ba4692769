import { describe, expect, it } from 'vitest';
import { SuiteClient } from '../../contract/suite/client.ts';
import { loadContract } from '../../contract/suite/openapi.ts';
import { RULES, runSuite } from '../../contract/suite/run-suite.ts';
import { parseTarget } from '../../contract/suite/target.ts';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import {
  type Fetch,
  MUTANTS,
  type Mutant,
  mutatedContract,
  WITHOUT_ERRORS_LIST,
} from './mutants.ts';

const app = createApp({ data: buildFixtures({ profiles: 400, jobs: 120 }), log: false });
const target = parseTarget(targetOf(app.store), null, 'the mock');
const contract = loadContract();

async function check(fetch: Fetch, mutant?: Mutant) {
  const client = new SuiteClient({ baseUrl: 'http://mock', fetch });
  const options = {
    client,
    baseUrl: 'http://mock',
    target,
    ...(mutant?.contract && { contract: mutatedContract(mutant, contract) }),
  };
  return runSuite(options);
}

const realFetch: Fetch = async (request) => app.fetch(request);

type Report = Awaited<ReturnType<typeof check>>;
/** Each mutant's report, made once and shared, so that every test can also run on its own. */
const reports = new Map<Mutant, Promise<Report>>();
function reportOn(mutant: Mutant): Promise<Report> {
  let report = reports.get(mutant);
  if (report === undefined) {
    report = check(mutant.wrap ? mutant.wrap(realFetch) : realFetch, mutant);
    reports.set(mutant, report);
  }
  return report;
}

/** Why `mutant` was not caught by its rule, or undefined when it was: a crash is not a catch. */
function whyEscaped(report: Report, mutant: Mutant): string | undefined {
  const outcome = report.results.find((r) => r.id === mutant.rule)?.outcome;
  if (outcome?.status !== 'fail') return `${mutant.rule} did not fail`;
  if (outcome.crashed) return `${mutant.rule} crashed: ${outcome.evidence.got}`;
  if (mutant.evidence !== undefined && !mutant.evidence.test(outcome.evidence.expected))
    return `${mutant.rule} failed for another reason: ${outcome.evidence.expected}`;
  return undefined;
}

describe('the contract suite against mutants of the mock', () => {
  it('passes every rule on the unbroken mock', async () => {
    const report = await check(realFetch);
    expect(report.results.filter((r) => r.outcome.status !== 'pass')).toEqual([]);
  });

  it('has at least one mutant for every rule', () => {
    expect(new Set(MUTANTS.map((m) => m.rule))).toEqual(new Set(RULES.map((r) => r.id)));
  });

  it.each(MUTANTS.map((m) => [m.rule, m.name, m] as const))(
    '%s catches: %s',
    async (_rule, _, mutant) => {
      expect(whyEscaped(await reportOn(mutant), mutant)).toBeUndefined();
    },
  );

  it('passes every rule on a server that leaves the optional errors list out of its 400s', async () => {
    const checksOf = (report: Awaited<ReturnType<typeof check>>) => {
      const outcome = report.results.find((r) => r.id === 'BAD-INPUT')?.outcome;
      return outcome?.status === 'pass' ? outcome.checks : 0;
    };
    const report = await check(WITHOUT_ERRORS_LIST(realFetch));
    expect(report.results.filter((r) => r.outcome.status !== 'pass')).toEqual([]);
    // It passed without naming: with no errors list there was no parameter name to check.
    expect(checksOf(report)).toBeGreaterThan(0);
    expect(checksOf(report)).toBeLessThan(checksOf(await check(realFetch)));
  });

  it('catches every mutant: a mutation score of 100%', async () => {
    const escaped = (
      await Promise.all(
        MUTANTS.map(async (m) => [m.name, whyEscaped(await reportOn(m), m)] as const),
      )
    ).filter(([, why]) => why !== undefined);
    const caught = MUTANTS.length - escaped.length;
    process.stdout.write(
      `mutation score: ${caught}/${MUTANTS.length} mutants caught (${Math.round((caught / MUTANTS.length) * 100)}%)\n`,
    );
    expect(escaped).toEqual([]);
  }, 120_000);
});

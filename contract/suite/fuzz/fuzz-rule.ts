import fc from 'fast-check';
import { describeRequest, type Exchange, NoAnswer } from '../client.ts';
import { contractOperations } from '../operation-inputs.ts';
import { type Evidence, type Rule, type RuleContext, Violation } from '../rule.ts';
import { type FuzzCase, fuzzCases, outgoing } from './cases.ts';
import { judge } from './judge.ts';

export const FUZZ_ID = 'FUZZ';

/** Requests spent making a failing request smaller before it is reported as it stands. */
const SHRINK_BUDGET = 250;

type Failure = { evidence: Evidence; exchange?: Exchange };

/**
 * After the rules, `runs` requests generated from the contract with fast-check from `seed`
 * (the same seed sends the same requests), each judged alone (judge.ts). The first failure is
 * shrunk (fewer parameters, shorter values) and reported with its reproducer and the seed.
 */
export function fuzzRule(options: { runs: number; seed: number }): Rule {
  return {
    id: FUZZ_ID,
    title: `${options.runs} requests generated from the contract (seed ${options.seed}): no 5xx, every 4xx in the error envelope, every 2xx valid and holding the per-answer rules`,
    async run(ctx) {
      const cases = fuzzCases(ctx.contract, contractOperations(ctx.contract), ctx.target);
      let last: Failure | undefined;
      let firstAt = 0;
      let sent = 0;
      let afterFailure = 0;
      let deadlinePassed: string | undefined;
      const property = fc.asyncProperty(cases, async (c) => {
        if (deadlinePassed !== undefined) return true;
        if (last !== undefined && ++afterFailure > SHRINK_BUDGET) return true;
        sent++;
        const failure = await attempt(ctx, c);
        if (failure === 'deadline') {
          deadlinePassed = `the run's deadline passed after ${sent - 1} of ${options.runs} generated requests`;
          return true;
        }
        if (failure === undefined) return true;
        if (last === undefined) firstAt = sent;
        last = failure;
        return false;
      });
      const details = await fc.check(property, {
        seed: toSeed(options.seed),
        numRuns: options.runs,
      });
      ctx.checks.count += sent;
      if (last !== undefined) {
        const { evidence } = last;
        const shrinks = details.numShrinks;
        throw new Violation({
          ...evidence,
          request: `${evidence.request} (request ${firstAt} of seed ${options.seed}, shrunk ${shrinks} time${shrinks === 1 ? '' : 's'}; replay: --fuzz ${options.runs} --seed ${options.seed})`,
        });
      }
      if (deadlinePassed !== undefined)
        throw new Violation({
          request: `generated requests of seed ${options.seed}`,
          expected: `${options.runs} requests judged`,
          got: deadlinePassed,
        });
    },
  };
}

/** Sends one case and judges it; its failure, 'deadline' when the run's time is up, or undefined. */
async function attempt(ctx: RuleContext, c: FuzzCase): Promise<Failure | 'deadline' | undefined> {
  const out = outgoing(c);
  let exchange: Exchange;
  try {
    exchange = await ctx.client.send(out);
  } catch (error) {
    if (!(error instanceof NoAnswer)) throw error;
    if (error.reason.startsWith('not sent')) return 'deadline';
    const evidence: Evidence = { request: error.request, expected: 'an answer', got: error.reason };
    if (error.reproduce !== undefined) evidence.reproduce = error.reproduce;
    return { evidence };
  }
  try {
    judge(ctx, c, exchange);
    return undefined;
  } catch (error) {
    if (!(error instanceof Violation)) throw error;
    const why = c.hostile === undefined ? '' : `, ${c.hostile.why}`;
    return {
      exchange,
      evidence: { ...error.evidence, request: `${describeRequest(exchange)}${why}` },
    };
  }
}

/** fast-check takes a 32-bit seed: a larger one (a CI run id) is folded into it, the same way each time. */
function toSeed(seed: number): number {
  return Number(BigInt(seed) % 2n ** 32n) | 0;
}

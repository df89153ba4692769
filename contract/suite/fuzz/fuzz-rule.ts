import fc from 'fast-check';
import { describeRequest, type Exchange, NoAnswer } from '../client.ts';
import { contractOperations } from '../operation-inputs.ts';
import { type Evidence, type Rule, type RuleContext, Violation } from '../rule.ts';
import { type FuzzCase, fuzzCases, outgoing } from './cases.ts';
import { judge } from './judge.ts';

export const FUZZ_ID = 'FUZZ';

/** Requests spent making one failing request smaller before it is reported as it stands. */
const SHRINK_BUDGET = 250;

/** Distinct failures one run reports; the fuzz stops at the last. */
export const FUZZ_FAILURES = 10;

const DEADLINE = "the run's deadline passed";

/** How far the fuzz got, read after the run: the report's `fuzz` and the coverage gate. */
export type FuzzProgress = {
  /** Generated requests judged, of the `runs` asked for. */
  judged: number;
  /** Set when the fuzz stopped before its last request: after how many, and why. */
  stoppedEarly?: string | undefined;
};

export type FuzzRule = Rule & { readonly progress: FuzzProgress };

type Failure = { evidence: Evidence; exchange?: Exchange };

/** One distinct failure: the request that first showed it (its number), shrunk. */
type Kept = { cause: string; at: number; failure: Failure; shrinks: number };

/** A fuzz under way: the next generated request (0-based), what was sent and kept, why it stopped. */
type Hunt = { next: number; sent: number; kept: Kept[]; stop?: string };

/**
 * After the rules, `runs` requests generated from the contract with fast-check from `seed`
 * (the same seed sends the same requests), each judged alone (judge.ts). A failure of a new
 * cause (`causeOf`) is shrunk (fewer parameters, shorter values) and kept, and the fuzz goes on
 * with the next request; one of a cause already kept is not sent again in smaller forms. It
 * reports up to FUZZ_FAILURES failures, each with its reproducer and the seed.
 */
export function fuzzRule(options: { runs: number; seed: number }): FuzzRule {
  const progress: FuzzProgress = { judged: 0 };
  return {
    id: FUZZ_ID,
    title: `${options.runs} requests generated from the contract (seed ${options.seed}): no 5xx, every 4xx in the error envelope, every 2xx valid and holding the per-answer rules`,
    progress,
    async run(ctx) {
      const cases = fuzzCases(ctx.contract, contractOperations(ctx.contract), ctx.target);
      const hunt: Hunt = { next: 0, sent: 0, kept: [] };
      while (hunt.next < options.runs && hunt.stop === undefined) {
        const found = await onePass(ctx, cases, options, hunt);
        if (found === undefined) break;
        hunt.kept.push(found);
        if (hunt.kept.length === FUZZ_FAILURES && hunt.next < options.runs)
          hunt.stop = `${FUZZ_FAILURES} distinct failures were found`;
      }
      ctx.checks.count += hunt.sent;
      progress.judged = hunt.next;
      progress.stoppedEarly =
        hunt.next < options.runs
          ? `fuzz stopped after ${hunt.next} of ${options.runs} generated requests: ${hunt.stop}`
          : undefined;
      const evidence = hunt.kept.map((k) => reported(k, options));
      if (hunt.stop === DEADLINE)
        evidence.push({
          request: `generated requests of seed ${options.seed}`,
          expected: `${options.runs} requests judged`,
          got: `the run's deadline passed after ${hunt.next} of ${options.runs} generated requests`,
        });
      const [first, ...more] = evidence;
      if (first !== undefined) throw new Violation(first, more);
    },
  };
}

/**
 * One fast-check run from request `hunt.next` on: requests are judged until one fails for a new
 * cause, which fast-check then shrinks within SHRINK_BUDGET requests; that failure, or
 * undefined when the requests ran out first. A smaller request counts only if it fails for the
 * same cause, so that shrinking never wanders to another defect.
 */
async function onePass(
  ctx: RuleContext,
  cases: fc.Arbitrary<FuzzCase>,
  options: { runs: number; seed: number },
  hunt: Hunt,
): Promise<Kept | undefined> {
  let found: Kept | undefined;
  let spent = 0;
  let crash: { error: unknown } | undefined;
  const generated = async (c: FuzzCase): Promise<boolean> => {
    const failure = await attempt(ctx, c);
    if (failure === 'deadline') {
      hunt.stop = DEADLINE;
      return true;
    }
    hunt.sent++;
    hunt.next++;
    if (failure === undefined) return true;
    const cause = causeOf(c, failure);
    if (hunt.kept.some((k) => k.cause === cause)) return true;
    found = { cause, at: hunt.next, failure, shrinks: 0 };
    return false;
  };
  const smaller = async (c: FuzzCase, kept: Kept): Promise<boolean> => {
    spent++;
    const failure = await attempt(ctx, c);
    if (failure === 'deadline') {
      hunt.stop = DEADLINE;
      return true;
    }
    hunt.sent++;
    if (failure === undefined || causeOf(c, failure) !== kept.cause) return true;
    kept.failure = failure;
    return false;
  };
  const property = fc.asyncProperty(cases, async (c) => {
    // Past the deadline, after a crash or with the shrink budget spent, fast-check is
    // interrupted (a failure found stays found): nothing more is sent in this run.
    if (crash !== undefined || hunt.stop !== undefined || spent === SHRINK_BUDGET)
      throw new fc.PreconditionFailure(true);
    try {
      return found === undefined ? await generated(c) : await smaller(c, found);
    } catch (error) {
      crash = { error };
      throw new fc.PreconditionFailure(true);
    }
  });
  const details = await fc.check(property, resumedAt(options, hunt.next));
  if (crash !== undefined) throw crash.error;
  if (found !== undefined) found.shrinks = details.numShrinks;
  return found;
}

/**
 * fast-check's parameters for the generated requests from `from` (0-based) on: its replay path
 * names the first, and the values are those a run from the start would draw there.
 */
export function resumedAt(
  options: { runs: number; seed: number },
  from: number,
): fc.Parameters<[FuzzCase]> {
  const seed = toSeed(options.seed);
  const numRuns = options.runs - from;
  return from === 0 ? { seed, numRuns } : { seed, numRuns, path: String(from) };
}

/**
 * What makes two failures one: the request's method and path, the answer's status class, and the
 * broken promise with its numbers left out (`at most 30 items` and `at most 100 items` alike).
 */
function causeOf(c: FuzzCase, failure: Failure): string {
  const { method, path } = outgoing(c);
  const status =
    failure.exchange === undefined ? 'no answer' : `${Math.floor(failure.exchange.status / 100)}xx`;
  return `${method} ${path} ${status} ${failure.evidence.expected.replace(/\d+(\.\d+)?/g, 'N')}`;
}

/** A kept failure as evidence: its request says which of the seed's it was, and how to replay. */
function reported(kept: Kept, options: { runs: number; seed: number }): Evidence {
  const { evidence } = kept.failure;
  const { shrinks } = kept;
  return {
    ...evidence,
    request: `${evidence.request} (request ${kept.at} of seed ${options.seed}, shrunk ${shrinks} time${shrinks === 1 ? '' : 's'}; replay: --fuzz ${options.runs} --seed ${options.seed})`,
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
    // Not sent, or cut short, because the run's time is up: no verdict on the server.
    if (/the run's deadline/.test(error.reason)) return 'deadline';
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

import { probeApi } from './api-probe.ts';
import { NoAnswer, type SuiteClient } from './client.ts';
import { type Coverage, coverageOf, gated } from './coverage.ts';
import { type OpenApiDoc, sharedContract, sharedHistory } from './openapi.ts';
import { contractOperations } from './operation-inputs.ts';
import { boundEvidence } from './reproduce-files.ts';
import {
  type Evidence,
  type Outcome,
  type Rule,
  type RuleContext,
  Skip,
  type Subject,
  Violation,
} from './rule.ts';
import { ENV, judgeAnswers } from './rules/env.ts';
import { RULES } from './rules/index.ts';
import { LATENCY_ID, latencyRule } from './rules/latency.ts';
import { PRISM } from './rules/prism.ts';
import type { Target } from './target.ts';
import { validatorOf } from './validator.ts';

export { RULES };

export type RuleResult = {
  id: string;
  title: string;
  subject: Subject;
  outcome: Outcome;
  ms: number;
};

export type Report = {
  baseUrl: string;
  results: RuleResult[];
  passed: number;
  failed: number;
  skipped: number;
  ms: number;
  /** What the run exercised of the contract's operations (absent when it could not run). */
  coverage?: Coverage;
  /**
   * With `--fuzz`: how many requests were asked for, the seed that replays them, how many were
   * judged, and why the fuzz stopped before the last (the deadline, enough failures).
   */
  fuzz?: { runs: number; seed: number; judged?: number; stoppedEarly?: string };
  /** The command that runs this check again. */
  rerun?: string;
  /** Answers that were 429 and were waited out and sent again (never failures). */
  rateLimited?: number;
  /** Set when the check could not run at all (exit status 2). */
  error?: string;
};

export type SuiteOptions = {
  client: SuiteClient;
  baseUrl: string;
  target: Target;
  /** Defaults to contract/openapi.yaml and contract/history/. */
  contract?: OpenApiDoc;
  history?: { name: string; doc: OpenApiDoc }[];
  /** Also fail on response violations that a Prism proxy in front reported. */
  viaPrism?: boolean;
  /** After the rules, this many generated requests from this seed (the FUZZ rule). */
  fuzz?: { runs: number; seed: number };
  /** The coverage percent under which the run fails (`--min-coverage`). */
  minCoverage?: number;
  /** The p95 answer time over which an operation fails LATENCY (`--max-latency`). */
  maxLatencyMs?: number;
  /** The command that runs the check again: the reproduce line of a failure with no request of its own. */
  rerun?: string;
  /** The caller already asked whether this is the API at all (`probeApi`): do not ask again. */
  probed?: boolean;
  /** Only the rules with these ids (`--rule`, see `chosenRules`); absent, every rule. */
  only?: readonly string[];
};

/** The ids a run can be narrowed to (`--rule`), and what an optional rule needs to run at all. */
export const OPTIONAL_RULES: Record<string, string> = {
  [PRISM.id]: '--via-prism',
  FUZZ: '--fuzz N', // fuzz/fuzz-rule.ts's FUZZ_ID: that module loads only for a fuzzed run
  [LATENCY_ID]: '--max-latency MS',
};

/**
 * The rules `--rule` names (repeatable, any case), checked against what this run has: an unknown
 * id, or an optional rule without the option that turns it on, throws with what to send instead.
 */
export function chosenRules(
  ids: readonly string[] | undefined,
  enabled: { viaPrism: boolean; fuzz: boolean; latency: boolean },
): string[] | undefined {
  if (ids === undefined || ids.length === 0) return undefined;
  const on = { [PRISM.id]: enabled.viaPrism, FUZZ: enabled.fuzz, [LATENCY_ID]: enabled.latency };
  return ids.map((given) => {
    const id = given.trim().toUpperCase();
    const needs = OPTIONAL_RULES[id];
    if (needs !== undefined && !on[id])
      throw new RangeError(`--rule ${id} runs only with ${needs}: send it too`);
    if (needs === undefined && !RULES.some((r) => r.id === id))
      throw new RangeError(
        `--rule takes a rule id, one of ${[...RULES.map((r) => r.id), ...Object.keys(OPTIONAL_RULES)].join(', ')} (docs/contract-rules.md), got ${JSON.stringify(given)}`,
      );
    return id;
  });
}

/** A run that could not start: the report says why, with no rule results. */
export function couldNotRun(baseUrl: string, why: string): Report {
  return { baseUrl, results: [], passed: 0, failed: 0, skipped: 0, ms: 0, error: why };
}

export async function runSuite(options: SuiteOptions): Promise<Report> {
  const started = performance.now();
  const notApi = options.probed ? undefined : await probe(options.client);
  if (notApi !== undefined) return couldNotRun(options.baseUrl, notApi);
  const contract = options.contract ?? sharedContract();
  const history = (options.history ?? sharedHistory()).map((h) => ({
    ...h,
    validator: validatorOf(h.doc),
  }));
  const base = {
    client: options.client,
    target: options.target,
    contract,
    validator: validatorOf(contract),
    history,
  };
  // Loaded only when asked for: fast-check stays out of every other command's start-up.
  const fuzzing =
    options.fuzz === undefined
      ? undefined
      : (await import('./fuzz/fuzz-rule.ts')).fuzzRule(options.fuzz);
  const fuzz: Rule[] = fuzzing === undefined ? [] : [fuzzing];
  const latency = options.maxLatencyMs === undefined ? [] : [latencyRule(options.maxLatencyMs)];
  const rules = [...RULES, ...(options.viaPrism ? [PRISM] : []), ...fuzz, ...latency].filter(
    (r) => options.only === undefined || options.only.includes(r.id),
  );
  // ENV judges every answer the rules got, so it runs after them; FUZZ comes after them, and
  // LATENCY, which times every answer, after everything.
  const runOrder = [
    ...rules.filter((r) => r !== ENV && r !== PRISM && !fuzz.includes(r) && !latency.includes(r)),
    ENV,
    PRISM,
    ...fuzz,
    ...latency,
  ].filter((r) => rules.includes(r));
  const results = new Map<string, RuleResult>();
  // ENV judges each answer as it comes, so the client keeps none for it; ENV reports at its turn.
  const envContext: RuleContext = { ...base, checks: { count: 0 } };
  const stopJudging = rules.includes(ENV) ? judgeAnswers(envContext) : () => {};
  for (const rule of runOrder) {
    if (rule === ENV) stopJudging();
    const ctx: RuleContext = rule === ENV ? envContext : { ...base, checks: { count: 0 } };
    const ruleStarted = performance.now();
    const outcome = bounded(await settle(rule, ctx));
    // Evidence with no request of its own is reproduced by running the check again.
    if (outcome.status === 'fail')
      for (const evidence of [outcome.evidence, ...(outcome.more ?? [])])
        evidence.reproduce ??= options.rerun ?? 'npx --no-install hrmock check';
    results.set(rule.id, {
      id: rule.id,
      title: rule.title,
      subject: rule.subject ?? 'server',
      outcome,
      ms: performance.now() - ruleStarted,
    });
  }
  const ordered = rules.map((r) => results.get(r.id) as RuleResult);
  const count = (status: Outcome['status']) =>
    ordered.filter((r) => r.outcome.status === status).length;
  const coverage = coverageOf(contractOperations(contract), options.client.exchanges);
  return {
    baseUrl: options.baseUrl,
    results: ordered,
    passed: count('pass'),
    failed: count('fail'),
    skipped: count('skip'),
    ms: performance.now() - started,
    coverage: gated(coverage, options.minCoverage, fuzzing?.progress.stoppedEarly),
    ...(options.fuzz === undefined ? {} : { fuzz: { ...options.fuzz, ...fuzzing?.progress } }),
    rateLimited: options.client.rateLimited,
    ...(options.rerun === undefined ? {} : { rerun: options.rerun }),
  };
}

/** Whether the base URL answers like the API; its requests are not part of the run's exchanges. */
async function probe(client: SuiteClient): Promise<string | undefined> {
  const before = client.exchanges.length;
  try {
    return await probeApi(async (path) => {
      const answer = await client.get(path).catch((error) => {
        if (error instanceof NoAnswer) return undefined;
        throw error;
      });
      if (answer === undefined) return undefined;
      const contentType = answer.headers.get('content-type');
      return {
        method: 'GET',
        url: client.url(path),
        status: answer.status,
        contentType,
        text: answer.text,
      };
    });
  } finally {
    client.exchanges.splice(before);
  }
}

/** A failure's evidence with no field over 8 KB but its reproduce line (see reproduce-files.ts). */
function bounded(outcome: Outcome): Outcome {
  if (outcome.status !== 'fail') return outcome;
  const more = outcome.more?.map(boundEvidence);
  return { ...outcome, evidence: boundEvidence(outcome.evidence), ...(more ? { more } : {}) };
}

function failed(evidence: Evidence, more: Evidence[]): Outcome {
  return more.length === 0 ? { status: 'fail', evidence } : { status: 'fail', evidence, more };
}

/** One rule run to its outcome: a violation fails it, a missing answer fails it, a throw is a crash. */
export async function settle(rule: Rule, ctx: RuleContext): Promise<Outcome> {
  try {
    await rule.run(ctx);
    const [first, ...more] = ctx.failures ?? [];
    if (first !== undefined) return failed(first, more);
    return { status: 'pass', checks: ctx.checks.count };
  } catch (error) {
    if (error instanceof Violation) {
      const [first, ...more] = [...(ctx.failures ?? []), error.evidence, ...error.more];
      return failed(first as Evidence, more);
    }
    if (error instanceof Skip) return { status: 'skip', why: error.message };
    if (error instanceof NoAnswer) {
      const evidence: Evidence = {
        request: error.request,
        expected: 'an answer',
        got: error.reason,
      };
      if (error.reproduce !== undefined) evidence.reproduce = error.reproduce;
      return { status: 'fail', evidence };
    }
    // Neither a violation nor a missing answer: the rule broke. It fails, and says it crashed.
    return {
      status: 'fail',
      crashed: true,
      evidence: {
        request: `the rule ${rule.id} itself`,
        expected: 'the rule to run to its end',
        got: `it crashed: ${String((error as Error)?.stack ?? error)
          .split('\n')
          .slice(0, 3)
          .join(' ')}`,
      },
    };
  }
}

import type { Exchange, KeptExchange, SuiteClient } from './client.ts';
import { describeRequest } from './client.ts';
import { at } from './json-shape.ts';
import type { OpenApiDoc } from './openapi.ts';
import type { Target } from './target.ts';
import type { ContractValidator } from './validator.ts';

export type Evidence = {
  request: string;
  expected: string;
  got: string;
  /** A curl command that sends the failing request again (absent when no request failed). */
  reproduce?: string;
};

export type Outcome =
  | { status: 'pass'; checks: number }
  | {
      status: 'fail';
      /** The first broken promise. */
      evidence: Evidence;
      /** Further broken promises of the same rule, each about another operation or cause. */
      more?: Evidence[];
      /** The rule itself threw: a bug, not a verdict. */
      crashed?: true;
    }
  | { status: 'skip'; why: string };

export type RuleContext = {
  client: SuiteClient;
  target: Target;
  contract: OpenApiDoc;
  validator: ContractValidator;
  history: { name: string; doc: OpenApiDoc; validator: ContractValidator }[];
  /** Counts the checks a rule made, so a pass says how much it looked at. */
  checks: { count: number };
  /** Broken promises kept by `part` while the rule goes on (at most EVIDENCE_PER_RULE). */
  failures?: Evidence[];
};

/** How many pieces of evidence one rule reports: enough to fix several causes in one round. */
export const EVIDENCE_PER_RULE = 5;

/**
 * What a rule's verdict is about: the server at the base URL, or the contract documents of this
 * checkout (contract/openapi.yaml and contract/history/), which it reads whatever the base URL.
 */
export type Subject = 'server' | 'documents';

export type Rule = {
  id: string;
  title: string;
  /** `server` unless said otherwise. */
  subject?: Subject;
  run: (ctx: RuleContext) => Promise<void>;
};

/** A broken promise: stops the rule (or its `part`) and becomes its evidence. */
export class Violation extends Error {
  readonly evidence: Evidence;
  /** Further evidence found before it (a rule that collects, as FUZZ does). */
  readonly more: Evidence[];
  constructor(evidence: Evidence, more: Evidence[] = []) {
    super(`${evidence.request}: expected ${evidence.expected}, got ${evidence.got}`);
    this.evidence = evidence;
    this.more = more;
  }
}

/**
 * Runs one independent part of a rule (an operation, a parameter, a case): a violation in it is
 * kept as evidence and the rule goes on with its next part. The rule fails at its end when any
 * part did. Parts that fail for the same reason as one already kept are counted, not repeated.
 */
export async function part(ctx: RuleContext, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    keepViolation(ctx, error);
  }
}

/** `part` for a check that does not wait: a violation is kept as evidence, anything else thrown. */
export function partNow(ctx: RuleContext, run: () => void): void {
  try {
    run();
  } catch (error) {
    keepViolation(ctx, error);
  }
}

function keepViolation(ctx: RuleContext, error: unknown): void {
  if (!(error instanceof Violation)) throw error;
  ctx.failures ??= [];
  const kept = ctx.failures;
  const { request, expected } = error.evidence;
  const known = kept.some((e) => e.expected === expected && sameOperation(e.request, request));
  if (!known && kept.length < EVIDENCE_PER_RULE) kept.push(error.evidence);
}

/** `GET /profiles/searching?…` and `GET /profiles/searching?…`: the same method and path. */
function sameOperation(a: string, b: string): boolean {
  const head = (s: string) => s.split(/[?\s]/, 2).join(' ');
  return head(a) === head(b);
}

/** The rule cannot apply to this implementation or target; says why. */
export class Skip extends Error {}

/** Why an answer's text was not read as JSON, as a prefix for evidence showing it (or nothing). */
export function notJson(exchange: Pick<Exchange, 'notJson'>): string {
  return exchange.notJson === undefined ? '' : `${exchange.notJson}: `;
}

/** Shows part of a value in a report. */
export function shown(value: unknown, max = 240): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** One promise of the contract: passes, or throws a Violation with the request as evidence. */
export function expectThat(
  ctx: Pick<RuleContext, 'checks'> & { client?: RuleContext['client'] },
  holds: boolean,
  about: KeptExchange | string,
  expected: string,
  got: () => unknown,
): void {
  ctx.checks.count++;
  if (holds) return;
  const request = typeof about === 'string' ? about : describeRequest(about);
  const value = got();
  const evidence: Evidence = {
    request,
    expected,
    got: typeof value === 'string' ? value : shown(value),
  };
  // A reproducer needs the request as sent and the client that sent it (not so in the proxy).
  if (typeof about !== 'string' && about.sent !== undefined && ctx.client !== undefined)
    evidence.reproduce = ctx.client.reproduce({ sent: about.sent });
  throw new Violation(evidence);
}

/**
 * The exchange answered 200 with a `data` object: the precondition of most rules. Returns the
 * data, which `typeof` calls an object: an array or null passes too.
 */
export function expectOk(ctx: Pick<RuleContext, 'checks'>, exchange: Exchange): unknown {
  const data = at(exchange.body, 'data');
  expectThat(
    ctx,
    exchange.status === 200 && typeof data === 'object',
    exchange,
    'status 200 with data',
    () => `status ${exchange.status}: ${notJson(exchange)}${shown(exchange.text, 200)}`,
  );
  return data;
}

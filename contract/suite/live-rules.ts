import type { Exchange } from './client.ts';
import { describeRequest } from './client.ts';
import { PARAMETER_DEFAULTS } from './contract-defaults.ts';
import { asArray, asObject, at, field, toList } from './json-shape.ts';
import { type OpenApiDoc, parametersOf, sharedContract, sharedHistory } from './openapi.ts';
import { checkRequest } from './request-rules.ts';
import { type Evidence, Violation } from './rule.ts';
import { checkEnvelope } from './rules/env.ts';
import { checkAligned, checkMinimalItems } from './rules/grading.ts';
import { checkPageMeta } from './rules/paging.ts';
import { checkPredictionPairs } from './rules/predictions.ts';
import { Remembered, remember, type SeenSummary, summaryOf } from './seen-answers.ts';
import { type ContractValidator, validatorOf } from './validator.ts';

/**
 * An exchange of live traffic (a proxy saw it, the suite did not send it): the suite's Exchange,
 * its `params` decoded by the caller (undefined when they could not be read), and the operation
 * it reached.
 */
export type LiveExchange = Exchange & {
  /** The operation's canonical path (`/profiles/grading` for `/profile/grading` too). */
  operation: string;
};

export type LiveViolation = Evidence & {
  rule: string;
  /** `client`: the request broke the contract; `server`: the answer did. */
  side: 'client' | 'server';
};

/** The rules judged on live traffic: those of `hrmock check` that one or two exchanges show. */
export const LIVE_RULES: { id: string; title: string }[] = [
  { id: 'CLIENT', title: 'the request is one the contract allows (method, required parameters)' },
  { id: 'ENV', title: 'the answer is JSON in the envelope, code = status, valid for its status' },
  { id: 'NO-5XX', title: 'no answer is a 5xx' },
  { id: 'OLD-CLIENT', title: 'a GET answer is valid under every contract in history/' },
  { id: 'GET-KEPT', title: 'searching and scoring still answer GET' },
  { id: 'GRD-DEFAULT', title: 'grading without return_profile/return_job gives minimal items' },
  { id: 'GRD-FULL', title: 'grading with =true gives full items agreeing with minimal twins' },
  { id: 'GRD-ALIGN', title: 'grading answers one item, score and error per key, in order' },
  { id: 'PAGE', title: 'count = items <= limit; page = min(page, maxPage); maxPage right' },
  { id: 'PRED', title: 'predictions align with items, pairs sum to 1; score_threshold holds' },
  { id: 'ORDER', title: 'an explicit sort_by/order_by orders the items' },
  { id: 'POST-EQ', title: 'POST answers what GET answered with the same parameters' },
  { id: 'STABLE', title: 'the same request gives the same data as when seen before' },
];

type Published = { name: string; doc: OpenApiDoc; validator: ContractValidator };
type Ctx = { checks: { count: number }; validator: ContractValidator; history: Published[] };
/** What judging an exchange found, kept so that a repeat of it is not judged again. */
type Verdict = {
  checks: Map<string, number>;
  violations: LiveViolation[];
  /** What the two-exchange rules keep of it (undefined: an answer they never compare). */
  seen: SeenSummary | undefined;
};
type Check = (ctx: Ctx, exchange: LiveExchange) => void;

const flagOn = (value: unknown) => value === true || /^(true|1)$/i.test(String(value ?? ''));
const isOk = (e: LiveExchange) => e.status === 200 && typeof asObject(e.body)?.data === 'object';
const listOf = (e: LiveExchange): 'profiles' | 'jobs' =>
  e.operation.startsWith('/profiles') ? 'profiles' : 'jobs';
/** The answer's list; one that is not a list is ENV's to report, and counts here as empty. */
const itemsOf = (e: LiveExchange): unknown[] => asArray(at(e.body, 'data', listOf(e))) ?? [];
const fullFlagOf = (e: LiveExchange) =>
  listOf(e) === 'profiles' ? 'return_profile' : 'return_job';
const isGrading = (e: LiveExchange) => e.operation.endsWith('/grading');
const isScoring = (e: LiveExchange) => e.operation.endsWith('/scoring');
const isList = (e: LiveExchange) => !isGrading(e);
const documented = (e: LiveExchange) => e.method === 'GET' || (e.method === 'POST' && isList(e));
const wholeNumber = (value: unknown, fallback: number) =>
  value === undefined ? fallback : Number.isSafeInteger(value) ? (value as number) : undefined;

function violated(ctx: Ctx, holds: boolean, e: LiveExchange, expected: string, got: string) {
  ctx.checks.count++;
  if (!holds) throw new Violation({ request: describeRequest(e), expected, got });
}

/** The keys grading asked for, in request order, or undefined when it named items otherwise. */
function askedKeys(e: LiveExchange): string[] | undefined {
  const list = listOf(e);
  const field = list === 'profiles' ? 'profile_key' : 'job_key';
  const ids = e.params?.[list === 'profiles' ? 'profile_ids' : 'job_ids'];
  if (Array.isArray(ids)) {
    const keys = ids.map((id) => (typeof id?.[field] === 'string' ? id[field] : undefined));
    return keys.every((k) => k !== undefined) ? keys : undefined;
  }
  const single = e.params?.[field];
  return typeof single === 'string' ? [single] : undefined;
}

/** The first index out of `direction`'s order, or -1. */
function ordered(values: number[], direction: string): number {
  for (let i = 1; i < values.length; i++) {
    const [a, b] = [values[i - 1] as number, values[i] as number];
    if (direction === 'asc' ? a > b : a < b) return i;
  }
  return -1;
}

/** What an old client could have sent: only parameters a published contract has for the path. */
function oldRequest(published: Published, e: LiveExchange): boolean {
  const known = new Set(parametersOf(published.doc, e.operation, 'get').map((p) => p.name));
  return Object.keys(e.params ?? {}).every((name) => known.has(name));
}

/** NO-5XX: no answer is a 5xx. */
const no5xx: Check = (ctx, e) =>
  violated(ctx, e.status < 500, e, 'an answer other than a 5xx', `status ${e.status}`);

/** OLD-CLIENT: a GET an old client could send gets an answer valid under that contract. */
const oldClient: Check = (ctx, e) => {
  if (e.method !== 'GET' || e.body === undefined || e.params === undefined) return;
  for (const published of ctx.history) {
    if (!oldRequest(published, e)) continue;
    const verdict = published.validator.validateResponse(e.operation, 'get', e.status, e.body);
    const got = verdict.ok ? '' : verdict.errors.slice(0, 3).join('; ');
    violated(ctx, verdict.ok, e, `an answer valid under history/${published.name}`, got);
  }
};

/** GET-KEPT: searching and scoring still answer GET. */
const getKept: Check = (ctx, e) => {
  if (e.method !== 'GET' || !isList(e)) return;
  violated(ctx, e.status !== 405, e, 'GET answered (not 405)', `status ${e.status}`);
};

/** GRD-DEFAULT: grading without the full flag (or with =false) gives minimal items. */
const gradingDefault: Check = (ctx, e) => {
  if (!isGrading(e) || !isOk(e) || flagOn(e.params?.[fullFlagOf(e)])) return;
  checkMinimalItems(ctx, e, listOf(e), itemsOf(e));
};

/** GRD-FULL: grading with the full flag gives full items (the twin comparison is seen-answers'). */
const gradingFull: Check = (ctx, e) => {
  if (!isGrading(e) || !isOk(e) || !flagOn(e.params?.[fullFlagOf(e)])) return;
  const schema = listOf(e) === 'profiles' ? 'Profile' : 'Job';
  itemsOf(e).forEach((item: unknown, i: number) => {
    if (item === null) return;
    const verdict = ctx.validator.validateSchema(schema, item);
    const got = verdict.ok ? '' : verdict.errors.slice(0, 3).join('; ');
    violated(ctx, verdict.ok, e, `item ${i} a full ${schema} (${fullFlagOf(e)}=true)`, got);
  });
};

/** GRD-ALIGN: one item, score and error per key asked, in request order. */
const gradingAlign: Check = (ctx, e) => {
  const wanted = askedKeys(e);
  if (!isGrading(e) || !isOk(e) || wanted === undefined) return;
  checkAligned(ctx, e, listOf(e), field(e.body, 'data'), wanted);
};

/**
 * What page n holds, given its meta: nothing past the last page; else at least what the other
 * maxPage - 1 pages, of at most `limit` items each, leave of `total` (pages together hold it).
 */
function pageFill(ctx: Ctx, e: LiveExchange, items: unknown[], limit: number, n: number) {
  const meta = field(e.body, 'meta');
  const total = field(meta, 'total');
  const maxPage = Number(field(meta, 'maxPage'));
  if (n > maxPage) {
    violated(ctx, items.length === 0, e, 'no items past the last page', `${items.length}`);
    return;
  }
  const least = Number(total) - (maxPage - 1) * limit;
  const others = `${maxPage - 1} other pages of ${limit}`;
  violated(
    ctx,
    items.length >= least,
    e,
    `at least ${least} items (total ${total}, ${others})`,
    `${items.length}`,
  );
}

/** PAGE: count = items <= limit, page and maxPage right, the page holding its share of total. */
const paging: Check = (ctx, e) => {
  const limit = wholeNumber(e.params?.limit, PARAMETER_DEFAULTS.limit);
  const page = wholeNumber(e.params?.page, PARAMETER_DEFAULTS.page);
  if (!isList(e) || !isOk(e) || limit === undefined || page === undefined) return;
  checkPageMeta(ctx, e, itemsOf(e), limit, page);
  pageFill(ctx, e, itemsOf(e), limit, page);
};

/** PRED: predictions align with items, pairs sum to 1, and every score holds score_threshold. */
const predictions: Check = (ctx, e) => {
  if (!isScoring(e) || !isOk(e)) return;
  const pairs = checkPredictionPairs(ctx, e, itemsOf(e)) as number[][];
  const threshold = e.params?.score_threshold;
  if (typeof threshold !== 'number') return;
  const below = pairs.find((p) => (p[1] as number) < threshold);
  const expected = `every score >= score_threshold=${threshold}`;
  violated(ctx, below === undefined, e, expected, JSON.stringify(below));
};

/** ORDER: an explicit order_by with sort_by created_at, updated_at or scoring orders the items. */
const order: Check = (ctx, e) => {
  const [sortBy, orderBy] = [e.params?.sort_by, e.params?.order_by];
  if (!isList(e) || !isOk(e) || (orderBy !== 'asc' && orderBy !== 'desc')) return;
  if (sortBy === 'created_at' || sortBy === 'updated_at') {
    const at = ordered(
      itemsOf(e).map((i) => Date.parse(String(asObject(i)?.[sortBy]))),
      orderBy,
    );
    violated(ctx, at < 0, e, `${listOf(e)} by ${sortBy} ${orderBy}`, `item ${at} out of order`);
  } else if (sortBy === 'scoring' && isScoring(e)) {
    const predictions = toList(field(field(e.body, 'data'), 'predictions')) as number[][];
    const scores = predictions.map((p) => p?.[1] as number);
    const at = ordered(scores, orderBy);
    violated(ctx, at < 0, e, `scores ordered ${orderBy}`, `score ${scores[at]} at ${at}`);
  }
};

/** ENV on a method the path lacks (the client's mistake): a 405 naming GET in Allow, or a 404. */
function wrongMethod(ctx: Ctx, e: LiveExchange) {
  const refused = e.status === 405 || e.status === 404;
  violated(ctx, refused, e, 'a 405 (or 404) to a method the path lacks', `${e.status}`);
  if (e.status !== 405) return;
  const allow = e.headers.get('allow') ?? 'none';
  violated(ctx, /\bGET\b/.test(allow), e, 'an Allow header listing GET', allow);
}

/** ENV: the answer is JSON in the envelope, code = status, valid for its status. */
const envelope: Check = (ctx, e) => {
  if (!documented(e)) wrongMethod(ctx, e);
  checkEnvelope(ctx, e);
};

/**
 * The one-exchange rules of LIVE_RULES but CLIENT, in report order. ENV and NO-5XX judge every
 * exchange of the six paths; the others only those the contract documents.
 */
const SINGLE: [string, Check][] = [
  ['ENV', envelope],
  ['NO-5XX', no5xx],
  ['OLD-CLIENT', oldClient],
  ['GET-KEPT', getKept],
  ['GRD-DEFAULT', gradingDefault],
  ['GRD-FULL', gradingFull],
  ['GRD-ALIGN', gradingAlign],
  ['PAGE', paging],
  ['PRED', predictions],
  ['ORDER', order],
];

export type LiveJudgeOptions = {
  contract?: OpenApiDoc;
  history?: { name: string; doc: OpenApiDoc }[];
  /** How many distinct requests are remembered for the two-exchange rules (default 5000). */
  remember?: number;
  /** How many verdicts are kept for repeats of an exchange (default 2000). */
  verdicts?: number;
};

/**
 * Judges exchanges one at a time, as they happen: every rule of LIVE_RULES that applies, each
 * reporting its first broken promise in that exchange. Counts checks and violations per rule.
 */
export class LiveJudge {
  readonly counts = new Map(LIVE_RULES.map((r) => [r.id, { checks: 0, violations: 0 }]));
  readonly #contract: OpenApiDoc;
  readonly #validator: ContractValidator;
  readonly #history: Published[];
  readonly #seen: Remembered;
  /** The one-exchange rules' verdicts by exchange fingerprint, the latest `verdicts`. */
  readonly #verdicts = new Map<string, Verdict>();
  readonly #keep: number;

  constructor(options: LiveJudgeOptions = {}) {
    this.#contract = options.contract ?? sharedContract();
    this.#validator = validatorOf(this.#contract);
    this.#history = (options.history ?? sharedHistory()).map((h) => ({
      ...h,
      validator: validatorOf(h.doc),
    }));
    this.#seen = new Remembered(options.remember ?? 5000);
    this.#keep = options.verdicts ?? 2000;
  }

  /**
   * The violations of one exchange. `fingerprint` (of its method, URL, request body, status,
   * content type and answer bytes) lets a repeat of an exchange judged before reuse the verdict
   * of the one-exchange rules, which depend on nothing else; the two-exchange rules always run.
   */
  judge(exchange: LiveExchange, fingerprint?: string): LiveViolation[] {
    const known = fingerprint === undefined ? undefined : this.#verdicts.get(fingerprint);
    if (known !== undefined) return this.#again(known);
    const found: LiveViolation[] = [];
    const verdict: Verdict = { checks: new Map(), violations: found, seen: undefined };
    const single = (rule: string, side: LiveViolation['side'], check: (ctx: Ctx) => void) =>
      verdict.checks.set(rule, this.#run(found, rule, side, check));
    single('CLIENT', 'client', (ctx) => checkRequest(ctx, this.#contract, exchange));
    for (const [rule, check] of SINGLE) {
      if (rule !== 'ENV' && rule !== 'NO-5XX' && !documented(exchange)) continue;
      single(rule, 'server', (ctx) => check(ctx, exchange));
    }
    if (documented(exchange) && exchange.params !== undefined) verdict.seen = summaryOf(exchange);
    if (fingerprint !== undefined) remember(this.#verdicts, fingerprint, verdict, this.#keep);
    return this.#again(verdict);
  }

  /**
   * The violations of a repeat of the exchange judged under `fingerprint`, or undefined when
   * that verdict is forgotten (the caller then has the exchange judged afresh, or not at all).
   */
  repeat(fingerprint: string): LiveViolation[] | undefined {
    const known = this.#verdicts.get(fingerprint);
    return known === undefined ? undefined : this.#again(known);
  }

  /** Counts a verdict's checks and violations, then runs the two-exchange rules on it. */
  #again(verdict: Verdict): LiveViolation[] {
    const found = [...verdict.violations];
    for (const [rule, checks] of verdict.checks) this.#count(rule, checks, 0);
    for (const violation of found) this.#count(violation.rule, 0, 1);
    if (verdict.seen === undefined) return found;
    const request = verdict.seen.entry.request;
    for (const { rule, holds, expected, got } of this.#seen.compareSummary(verdict.seen)) {
      const before = found.length;
      const checks = this.#run(found, rule, 'server', (ctx) => {
        ctx.checks.count++;
        if (!holds) throw new Violation({ request, expected, got });
      });
      this.#count(rule, checks, found.length - before);
    }
    return found;
  }

  /** Runs one check, adding what it finds to `found`; its number of checks. */
  #run(
    found: LiveViolation[],
    rule: string,
    side: LiveViolation['side'],
    check: (ctx: Ctx) => void,
  ): number {
    const ctx: Ctx = { checks: { count: 0 }, validator: this.#validator, history: this.#history };
    try {
      check(ctx);
    } catch (error) {
      if (!(error instanceof Violation)) throw error;
      found.push({ rule, side, ...error.evidence });
    }
    return ctx.checks.count;
  }

  #count(rule: string, checks: number, violations: number): void {
    const counted = this.counts.get(rule) as { checks: number; violations: number };
    counted.checks += checks;
    counted.violations += violations;
  }
}

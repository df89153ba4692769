import type { Exchange } from '../client.ts';
import { at } from '../json-shape.ts';
import { LISTS, pathOf } from '../operations.ts';
import {
  EVIDENCE_PER_RULE,
  expectThat,
  notJson,
  partNow,
  type Rule,
  type RuleContext,
  shown,
  Violation,
} from '../rule.ts';

const OPERATION_PATH = /\/(profiles|jobs)\/(grading|searching|scoring)$|\/(profile|job)\/grading$/;

/** Whether the contract has this operation (grading answers GET only). */
function documented(exchange: Exchange): boolean {
  if (!OPERATION_PATH.test(exchange.path)) return false;
  if (exchange.method === 'GET') return true;
  return exchange.method === 'POST' && !exchange.path.endsWith('/grading');
}

/** One answer in the envelope and valid against the contract: also judged live by the proxy. */
export function checkEnvelope(
  ctx: Pick<RuleContext, 'checks' | 'validator'>,
  exchange: Exchange,
): void {
  const type = exchange.headers.get('content-type') ?? '';
  expectThat(
    ctx,
    /^application\/json/i.test(type),
    exchange,
    'Content-Type application/json',
    () => type || 'none',
  );
  expectThat(
    ctx,
    exchange.body !== undefined,
    exchange,
    'a JSON body',
    () => `${notJson(exchange)}${shown(exchange.text, 120)}`,
  );
  expectThat(
    ctx,
    at(exchange.body, 'code') === exchange.status,
    exchange,
    `code = the HTTP status ${exchange.status}`,
    () => at(exchange.body, 'code'),
  );
  const verdict = documented(exchange)
    ? ctx.validator.validateResponse(
        exchange.path,
        exchange.method.toLowerCase(),
        exchange.status,
        exchange.body,
      )
    : ctx.validator.validateSchema('Error', exchange.body);
  expectThat(
    ctx,
    verdict.ok,
    exchange,
    `a body valid against the contract for status ${exchange.status}`,
    () => (verdict.ok ? '' : verdict.errors.slice(0, 3).join('; ')),
  );
}

/** A check of ENV that broke judging an answer (not a verdict), kept until ENV reports it. */
const crashes = new WeakMap<RuleContext, unknown>();

/**
 * Judges every answer the client gets from now on into `ctx`, ENV's context, as it comes: its
 * broken promises become ENV's evidence, and the run need not keep the answer for ENV. Returns
 * the stop. `runSuite` starts it before the first rule; ENV alone judges its own requests.
 */
export function judgeAnswers(ctx: RuleContext): () => void {
  return ctx.client.onAnswer((exchange) => {
    try {
      partNow(ctx, () => checkEnvelope(ctx, exchange));
    } catch (error) {
      if (!crashes.has(ctx)) crashes.set(ctx, error);
    }
  });
}

export const ENV: Rule = {
  id: 'ENV',
  title: 'every response is JSON in the envelope, code = status, valid against the contract',
  async run(ctx) {
    // Its own requests (each operation, a wrong path, a wrong method) judged as they come, as
    // `runSuite` has judged every answer the other rules got.
    const stop = judgeAnswers(ctx);
    let wrongMethod: Violation | undefined;
    try {
      await ownRequests(ctx);
    } catch (error) {
      if (!(error instanceof Violation)) throw error;
      wrongMethod = error;
    } finally {
      stop();
    }
    if (crashes.has(ctx)) throw crashes.get(ctx);
    if (wrongMethod === undefined) return;
    // The wrong method's verdict first, then what the answers showed.
    const judged = (ctx.failures ?? []).slice(0, EVIDENCE_PER_RULE - 1);
    ctx.failures = [];
    throw new Violation(wrongMethod.evidence, judged);
  },
};

async function ownRequests(ctx: RuleContext): Promise<void> {
  for (const op of LISTS) await ctx.client.post(pathOf(op, ctx.target), op.params(ctx.target));
  await ctx.client.get('/profiles/grade', {});
  const wrongMethod = await ctx.client.raw('DELETE', '/profiles/searching', undefined);
  expectThat(
    ctx,
    wrongMethod.status === 405 || wrongMethod.status === 404,
    wrongMethod,
    'a 405 (or 404)',
    () => `${wrongMethod.status}`,
  );
  if (wrongMethod.status === 405) {
    expectThat(
      ctx,
      /GET/.test(wrongMethod.headers.get('allow') ?? ''),
      wrongMethod,
      'an Allow header listing GET',
      () => wrongMethod.headers.get('allow') ?? 'none',
    );
  }
}

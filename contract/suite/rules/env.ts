import type { Exchange } from '../client.ts';
import { LISTS, pathOf } from '../operations.ts';
import { expectThat, part, type Rule, type RuleContext, shown } from '../rule.ts';

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
  expectThat(ctx, exchange.body !== undefined, exchange, 'a JSON body', () =>
    shown(exchange.text, 120),
  );
  expectThat(
    ctx,
    exchange.body?.code === exchange.status,
    exchange,
    `code = the HTTP status ${exchange.status}`,
    () => exchange.body?.code,
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

export const ENV: Rule = {
  id: 'ENV',
  title: 'every response is JSON in the envelope, code = status, valid against the contract',
  async run(ctx) {
    // Its own requests: each operation, a wrong path, a wrong method; then every answer the other rules got.
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
    for (const exchange of ctx.client.exchanges)
      await part(ctx, async () => checkEnvelope(ctx, exchange));
  },
};

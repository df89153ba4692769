import type { Exchange } from '../client.ts';
import { at, field, toList } from '../json-shape.ts';
import { pathOf, SCORING } from '../operations.ts';
import { expectOk, expectThat, part, type Rule, type RuleContext } from '../rule.ts';

/**
 * One prediction per item, each two numbers in [0, 1] summing to 1, meta.count of them; the
 * predictions, for the threshold check. Also judged live by the proxy.
 */
export function checkPredictionPairs(
  ctx: Pick<RuleContext, 'checks'>,
  exchange: Exchange,
  items: unknown[],
): unknown[] {
  const predictions = toList(field(field(exchange.body, 'data'), 'predictions'));
  expectThat(
    ctx,
    predictions.length === items.length,
    exchange,
    `${items.length} predictions, one per item`,
    () => `${predictions.length}`,
  );
  expectThat(
    ctx,
    at(exchange.body, 'meta', 'count') === predictions.length,
    exchange,
    'meta.count predictions',
    () => at(exchange.body, 'meta', 'count'),
  );
  predictions.forEach((pair, i) => {
    const ok =
      Array.isArray(pair) &&
      pair.length === 2 &&
      pair.every((x) => typeof x === 'number' && x >= 0 && x <= 1);
    expectThat(ctx, ok, exchange, `predictions[${i}] two numbers in [0, 1]`, () => pair);
    const [a, b] = pair as number[];
    expectThat(
      ctx,
      Math.abs((a as number) + (b as number) - 1) < 1e-6,
      exchange,
      `predictions[${i}] summing to 1`,
      () => pair,
    );
  });
  return predictions;
}

export const PRED: Rule = {
  id: 'PRED',
  title: 'predictions align with items, each pair in [0,1] summing to 1; score_threshold holds',
  async run(ctx) {
    for (const op of SCORING)
      await part(ctx, async () => {
        const exchange = await ctx.client.get(pathOf(op, ctx.target), {
          ...op.params(ctx.target),
          limit: 40,
          sort_by: 'scoring',
        });
        const data = expectOk(ctx, exchange);
        const predictions = checkPredictionPairs(ctx, exchange, toList(field(data, op.list)));
        if (predictions.length < 2) return;
        // A threshold in the middle of the scores seen, so that it must drop some.
        const scores = (predictions as number[][]).map((p) => p[1] as number).sort((x, y) => x - y);
        const threshold = scores[Math.floor(scores.length / 2)] as number;
        const filtered = await ctx.client.get(pathOf(op, ctx.target), {
          ...op.params(ctx.target),
          limit: 100,
          score_threshold: threshold,
        });
        const kept = toList(field(expectOk(ctx, filtered), 'predictions')) as number[][];
        const below = kept.find((p) => (p[1] as number) < threshold);
        expectThat(
          ctx,
          below === undefined,
          filtered,
          `every score >= score_threshold=${threshold}`,
          () => below,
        );
        // The totals as the servers wrote them, compared as JavaScript compares them.
        const total = at(exchange.body, 'meta', 'total') as number;
        const keptTotal = at(filtered.body, 'meta', 'total') as number;
        expectThat(
          ctx,
          keptTotal <= total,
          filtered,
          `total <= ${total} (a threshold only drops items)`,
          () => keptTotal,
        );
      });
  },
};

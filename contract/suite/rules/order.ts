import { asObject, field, toList } from '../json-shape.ts';
import { LISTS, pathOf, SCORING } from '../operations.ts';
import { expectOk, expectThat, part, type Rule } from '../rule.ts';

function ordered(values: number[], direction: 'asc' | 'desc'): number {
  for (let i = 1; i < values.length; i++) {
    const a = values[i - 1] as number;
    const b = values[i] as number;
    if (direction === 'asc' ? a > b : a < b) return i;
  }
  return -1;
}

export const ORDER: Rule = {
  id: 'ORDER',
  title: 'sort_by/order_by order the items; sort_by=scoring orders by score',
  async run(ctx) {
    for (const op of LISTS)
      await part(ctx, async () => {
        for (const sortBy of ['created_at', 'updated_at'] as const) {
          for (const orderBy of ['desc', 'asc'] as const) {
            const exchange = await ctx.client.get(pathOf(op, ctx.target), {
              ...op.params(ctx.target),
              sort_by: sortBy,
              order_by: orderBy,
              limit: 50,
            });
            const items = toList(field(expectOk(ctx, exchange), op.list));
            const values = items.map((i) => Date.parse(String(field(i, sortBy))));
            const at = ordered(values, orderBy);
            expectThat(
              ctx,
              at < 0,
              exchange,
              `${op.list} by ${sortBy} ${orderBy}`,
              () =>
                `item ${at} (${asObject(items[at])?.[sortBy]}) after ${asObject(items[at - 1])?.[sortBy]}`,
            );
          }
        }
      });
    for (const op of SCORING)
      await part(ctx, async () => {
        for (const orderBy of ['desc', 'asc'] as const) {
          const exchange = await ctx.client.get(pathOf(op, ctx.target), {
            ...op.params(ctx.target),
            sort_by: 'scoring',
            order_by: orderBy,
            limit: 50,
          });
          const predictions = toList(field(expectOk(ctx, exchange), 'predictions')) as number[][];
          const scores = predictions.map((p) => p[1] as number);
          const at = ordered(scores, orderBy);
          expectThat(
            ctx,
            at < 0,
            exchange,
            `scores ${orderBy === 'desc' ? 'non-increasing' : 'non-decreasing'}`,
            () => `score ${scores[at]} after ${scores[at - 1]} at ${at}`,
          );
        }
      });
  },
};

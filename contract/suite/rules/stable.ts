import { field } from '../json-shape.ts';
import { ALL_OPERATIONS, pathOf } from '../operations.ts';
import { expectOk, expectThat, part, type Rule, shown } from '../rule.ts';

export const STABLE: Rule = {
  id: 'STABLE',
  title: 'the same request twice gives the same data',
  async run(ctx) {
    for (const op of ALL_OPERATIONS)
      await part(ctx, async () => {
        const params = { ...op.params(ctx.target), ...(op.scoring && { sort_by: 'scoring' }) };
        const first = await ctx.client.get(pathOf(op, ctx.target), params);
        const second = await ctx.client.get(pathOf(op, ctx.target), params);
        const a = expectOk(ctx, first);
        const b = expectOk(ctx, second);
        expectThat(
          ctx,
          JSON.stringify(a) === JSON.stringify(b),
          second,
          `the data of the first answer (${shown(a, 100)})`,
          () => b,
        );
        expectThat(
          ctx,
          JSON.stringify(field(first.body, 'meta')) === JSON.stringify(field(second.body, 'meta')),
          second,
          `meta ${shown(field(first.body, 'meta'))}`,
          () => field(second.body, 'meta'),
        );
      });
  },
};

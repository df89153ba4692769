import { at, field } from '../json-shape.ts';
import { ALL_OPERATIONS, LISTS, pathOf } from '../operations.ts';
import { expectOk, expectThat, part, type Rule, shown } from '../rule.ts';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Lists in a POST body may also travel as JSON-encoded strings, as the GET query carries them. */
function stringified(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? JSON.stringify(v) : v]),
  );
}

export const POST_EQ: Rule = {
  id: 'POST-EQ',
  title: 'POST with a JSON body answers as GET with the same parameters, lists included',
  async run(ctx) {
    for (const op of LISTS)
      await part(ctx, async () => {
        const variants = [
          { ...op.params(ctx.target), limit: 4, page: 2, order_by: 'asc' },
          { ...op.params(ctx.target), limit: 3, text_keywords: ['e'], sort_by: 'updated_at' },
        ];
        for (const params of variants) {
          const viaGet = await ctx.client.get(pathOf(op, ctx.target), params);
          for (const body of [params, stringified(params)]) {
            const viaPost = await ctx.client.post(pathOf(op, ctx.target), body);
            expectThat(
              ctx,
              viaPost.status === viaGet.status,
              viaPost,
              `status ${viaGet.status}, as GET answers`,
              () => `${viaPost.status}`,
            );
            expectThat(
              ctx,
              same(at(viaPost.body, 'data'), at(viaGet.body, 'data')),
              viaPost,
              `the data GET answers (${shown(at(viaGet.body, 'data'), 100)})`,
              () => at(viaPost.body, 'data'),
            );
            expectThat(
              ctx,
              same(at(viaPost.body, 'meta'), at(viaGet.body, 'meta')),
              viaPost,
              `meta ${shown(at(viaGet.body, 'meta'))}, as GET answers`,
              () => at(viaPost.body, 'meta'),
            );
          }
        }
      });
  },
};

export const GET_KEPT: Rule = {
  id: 'GET-KEPT',
  title: 'every endpoint still answers GET',
  async run(ctx) {
    for (const op of ALL_OPERATIONS)
      await part(ctx, async () => {
        expectOk(ctx, await ctx.client.get(pathOf(op, ctx.target), op.params(ctx.target)));
      });
  },
};

export const POST_LONG: Rule = {
  id: 'POST-LONG',
  title: 'POST takes parameters too long for any URL (32 KB and more)',
  async run(ctx) {
    // One keyword repeated counts once, within the contract's cap of 50 distinct keywords.
    const keywords: string[] = new Array(4000).fill('keywordz');
    for (const op of LISTS)
      await part(ctx, async () => {
        // Each body is 32 KB or more (test/contract/post-long.test.ts measures what it sends).
        const params = { ...op.params(ctx.target), text_keywords: keywords };
        const exchange = await ctx.client.post(pathOf(op, ctx.target), params);
        const data = expectOk(ctx, exchange);
        expectThat(
          ctx,
          Array.isArray(field(data, op.list)),
          exchange,
          `data.${op.list} a list`,
          () => data,
        );
      });
  },
};

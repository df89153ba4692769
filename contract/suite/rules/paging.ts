import type { Exchange } from '../client.ts';
import { asObject, field, type JsonObject, toList } from '../json-shape.ts';
import { LISTS, pathOf, type SuiteOperation } from '../operations.ts';
import { expectOk, expectThat, part, type Rule, type RuleContext } from '../rule.ts';

const MAX_PAGES = 8;

/**
 * The meta of one page asked with `limit` and `page=n`: count = items <= limit, page = min(n,
 * maxPage), maxPage = max(1, ceil(total / limit)). Also judged live by the proxy.
 */
export function checkPageMeta(
  ctx: Pick<RuleContext, 'checks'>,
  exchange: Exchange,
  items: unknown[],
  limit: number,
  n: number,
): void {
  const meta = asObject(field(exchange.body, 'meta')) ?? {};
  expectThat(
    ctx,
    meta.count === items.length,
    exchange,
    `meta.count = ${items.length} (the items on the page)`,
    () => meta.count,
  );
  expectThat(
    ctx,
    items.length <= limit,
    exchange,
    `at most limit=${limit} items`,
    () => `${items.length}`,
  );
  // A page past the last is answered as the last page's number: page <= maxPage always holds.
  const expected = Math.min(n, Number(meta.maxPage));
  expectThat(
    ctx,
    meta.page === expected,
    exchange,
    `meta.page = min(${n}, maxPage) = ${expected}`,
    () => meta.page,
  );
  expectThat(
    ctx,
    meta.maxPage === Math.max(1, Math.ceil(Number(meta.total) / limit)),
    exchange,
    `meta.maxPage = max(1, ceil(${meta.total} / ${limit}))`,
    () => meta.maxPage,
  );
}

async function page(
  ctx: RuleContext,
  op: SuiteOperation,
  limit: number,
  n: number,
): Promise<{ exchange: Exchange; keys: unknown[]; meta: JsonObject }> {
  const exchange = await ctx.client.get(pathOf(op, ctx.target), {
    ...op.params(ctx.target),
    limit,
    page: n,
    sort_by: 'created_at',
    order_by: 'asc',
  });
  const data = expectOk(ctx, exchange);
  const items = toList(field(data, op.list));
  const meta = asObject(field(exchange.body, 'meta')) ?? {};
  checkPageMeta(ctx, exchange, items, limit, n);
  return { exchange, keys: items.map((i) => field(i, 'key')), meta };
}

export const PAGE: Rule = {
  id: 'PAGE',
  title:
    'count = items <= limit; pages are disjoint and together hold total; maxPage = max(1, ceil(total/limit)); page <= maxPage',
  async run(ctx) {
    for (const op of LISTS)
      await part(ctx, async () => {
        const probe = await page(ctx, op, 1, 1);
        // As the server wrote it: compared with === below, so not converted.
        const total = probe.meta.total as number;
        // Limits that rarely divide the total, so that maxPage must round up to be right.
        for (const odd of [3, 7]) await page(ctx, op, odd, 1);
        // A page size that covers everything in a few pages when the total allows it.
        const limit = Math.max(2, Math.min(100, Math.ceil(total / MAX_PAGES)));
        const seen = new Map<unknown, number>();
        const pages = Math.min(Math.ceil(total / limit), MAX_PAGES);
        let last: Exchange = probe.exchange;
        for (let n = 1; n <= pages; n++) {
          const { exchange, keys } = await page(ctx, op, limit, n);
          last = exchange;
          for (const key of keys) {
            expectThat(
              ctx,
              !seen.has(key),
              exchange,
              `page ${n} to share no item with earlier pages`,
              () => `${key} already on page ${seen.get(key)}`,
            );
            seen.set(key, n);
          }
        }
        if (total <= limit * MAX_PAGES) {
          expectThat(
            ctx,
            seen.size === total,
            last,
            `the ${pages} pages to hold total=${total} items`,
            () => `${seen.size}`,
          );
          const beyond = await page(ctx, op, limit, pages + 1);
          expectThat(
            ctx,
            beyond.keys.length === 0,
            beyond.exchange,
            'no items past the last page',
            () => `${beyond.keys.length}`,
          );
        }
        await emptyResult(ctx, op);
      });
  },
};

/** A keyword no deployment holds: an empty result is one empty page, `maxPage` 1. */
const NOWHERE = 'zq9x7hrmocknothing';

async function emptyResult(ctx: RuleContext, op: SuiteOperation): Promise<void> {
  const exchange = await ctx.client.get(pathOf(op, ctx.target), {
    ...op.params(ctx.target),
    text_keywords: [NOWHERE],
  });
  expectOk(ctx, exchange);
  const meta = asObject(field(exchange.body, 'meta')) ?? {};
  if (meta.total !== 0) return;
  expectThat(
    ctx,
    meta.maxPage === 1 && meta.page === 1 && meta.count === 0,
    exchange,
    'an empty result as one empty page: page 1, maxPage 1, count 0',
    () => JSON.stringify(meta),
  );
}

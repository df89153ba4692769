import type { Exchange } from '../client.ts';
import { defaultsOf } from '../contract-facts.ts';
import {
  baseOf,
  nameOf,
  type Operable,
  operable,
  sameAnswer,
  sendTo,
} from '../contract-requests.ts';
import { asArray, asObject, at, field } from '../json-shape.ts';
import { expectOk, expectThat, part, type Rule, type RuleContext, shown } from '../rule.ts';
import { checkMinimalItems } from './grading.ts';

/**
 * OpenAPI's `default` is what the server assumes when a parameter is left out. For every
 * operation and every optional parameter with a default in the contract: the answer without it
 * equals the answer with the default sent; where the answer shows the value, it is the default.
 */
export const DEFAULTS: Rule = {
  id: 'DEFAULTS',
  title:
    "every documented default holds: leaving a parameter out answers as sending its default, and the answer shows the default's effect",
  async run(ctx) {
    for (const entry of operable(ctx)) {
      const defaults = defaultsOf(ctx.contract, entry.op);
      if (defaults.length === 0) continue;
      const base = baseOf(ctx, entry);
      let bare: Exchange | undefined;
      await part(ctx, async () => {
        bare = await sendTo(ctx, entry.op, base);
        expectOk(ctx, bare);
        shownDefaults(ctx, entry, bare, new Map(defaults));
      });
      for (const [name, value] of defaults)
        await part(ctx, async () => {
          const sent = await sendTo(ctx, entry.op, { ...base, [name]: value });
          const left = bare ?? (await sendTo(ctx, entry.op, base));
          expectThat(
            ctx,
            sameAnswer(sent, left),
            sent,
            `the answer ${nameOf(entry.op)} gives without ${name} (the contract's default for ${name} is ${shown(value)}: sending it must change nothing)`,
            () =>
              `without ${name}: status ${left.status}, meta ${shown(at(left.body, 'meta'), 80)}, data ${shown(at(left.body, 'data'), 100)}; with ${name}=${shown(value)}: status ${sent.status}, meta ${shown(at(sent.body, 'meta'), 80)}, data ${shown(at(sent.body, 'data'), 100)}`,
          );
        });
    }
  },
};

/** What an answer without the parameters shows of their defaults. */
function shownDefaults(
  ctx: RuleContext,
  { op, suite }: Operable,
  exchange: Exchange,
  defaults: Map<string, unknown>,
): void {
  const data = field(exchange.body, 'data');
  const items = asArray(field(data, suite.list)) ?? [];
  const meta = asObject(field(exchange.body, 'meta')) ?? {};
  const page = defaults.get('page');
  if (typeof page === 'number')
    expectThat(
      ctx,
      meta.page === page,
      exchange,
      `meta.page = ${page}, the default page`,
      () => meta.page,
    );
  const limit = defaults.get('limit');
  if (typeof limit === 'number' && typeof meta.total === 'number')
    expectThat(
      ctx,
      items.length === Math.min(limit, meta.total) &&
        meta.maxPage === Math.max(1, Math.ceil(meta.total / limit)),
      exchange,
      `${Math.min(limit, meta.total)} items and maxPage ${Math.max(1, Math.ceil(meta.total / limit))}: pages of the default limit ${limit} (total ${meta.total})`,
      () => `${items.length} items, maxPage ${meta.maxPage}`,
    );
  const sortBy = defaults.get('sort_by');
  const orderBy = defaults.get('order_by');
  if ((sortBy === 'created_at' || sortBy === 'updated_at') && typeof orderBy === 'string') {
    const times = items.map((i) => Date.parse(String(asObject(i)?.[sortBy])));
    const at = times.findIndex((t, i) => {
      const before = times[i - 1] ?? t;
      return orderBy === 'asc' ? t < before : t > before;
    });
    expectThat(
      ctx,
      at < 0,
      exchange,
      `items by ${sortBy} ${orderBy}, the default order`,
      () =>
        `item ${at} (${asObject(items[at])?.[sortBy]}) after ${asObject(items[at - 1])?.[sortBy]}`,
    );
  }
  // return_profile / return_job default to false: the items are minimal.
  if (defaults.get(suite.list === 'profiles' ? 'return_profile' : 'return_job') === false)
    checkMinimalItems(ctx, exchange, suite.list, items);
  const algorithm = defaults.get('use_algorithm');
  if (algorithm === 1 || algorithm === true) {
    const predictions = asArray(field(data, 'predictions')) ?? [];
    expectThat(
      ctx,
      predictions.length === items.length,
      exchange,
      `one prediction per item: use_algorithm defaults to ${shown(algorithm)} on ${nameOf(op)}`,
      () => `${predictions.length} predictions for ${items.length} items`,
    );
  }
}

import { baseOf, nameOf, type Operable, operable, sendTo } from '../contract-requests.ts';
import { at, field, toList } from '../json-shape.ts';
import { deref, isObject, type OpenApiDoc, type Parameter } from '../openapi.ts';
import { expectOk, expectThat, part, type Rule, type RuleContext, shown } from '../rule.ts';
import { NOT_FILTERS, PROBES, type Side } from './filter-probes.ts';

/** The unfiltered page items are taken from, and each filtered page: newest first. */
const ORDER = { sort_by: 'created_at', order_by: 'desc' };
const SOURCE_LIMIT = 30;
/**
 * A filtered page is a subset in the same order, so an item at rank k unfiltered is at rank <= k
 * filtered: one page of 100 finds it, ties in creation time included.
 */
const FILTERED_LIMIT = 100;

/** The filters an operation documents (the contract's list, not the suite's). */
export function filtersOf({ op }: Operable): string[] {
  return [...new Set(op.inputs.map((i) => i.name))].filter((name) => !NOT_FILTERS.has(name));
}

async function probeOperation(ctx: RuleContext, entry: Operable): Promise<void> {
  const { op, suite } = entry;
  const base = { ...baseOf(ctx, entry), ...ORDER };
  const unfiltered = await sendTo(ctx, op, { ...base, limit: SOURCE_LIMIT });
  const items = toList(field(expectOk(ctx, unfiltered), suite.list));
  const side: Side = {
    list: suite.list,
    scoring: suite.scoring,
    ...(suite.scoring && suite.list === 'profiles' ? { jobKey: ctx.target.profiles.job_key } : {}),
  };
  for (const filter of filtersOf(entry)) {
    const probe = PROBES[filter];
    const item = items.find((i) => probe?.pick(i, side) !== undefined);
    if (probe === undefined || item === undefined) {
      // Nothing on the page to filter by: the filter, documented, is at least accepted.
      const sample = sampleOf(ctx.contract, filter);
      if (sample !== undefined)
        await part(ctx, async () => {
          expectOk(ctx, await sendTo(ctx, op, { ...base, ...sample }));
        });
      continue;
    }
    const sent = probe.pick(item, side) as Record<string, unknown>;
    const key = at(item, 'key');
    await part(ctx, async () => {
      const exchange = await sendTo(ctx, op, { ...base, ...sent, limit: FILTERED_LIMIT });
      const found = toList(field(expectOk(ctx, exchange), suite.list));
      const keys = found.map((i) => at(i, 'key'));
      const named = `${shown(sent, 160)} (taken from ${suite.list} ${key} of the unfiltered page)`;
      if (probe.excludes)
        expectThat(
          ctx,
          !keys.includes(key),
          exchange,
          `no ${key} when filtering ${named} out`,
          () => `${key} among the ${found.length} items of ${nameOf(op)}`,
        );
      else
        expectThat(
          ctx,
          keys.includes(key),
          exchange,
          `${key} found by ${named}: a filter keeps the items that match it`,
          () =>
            `${found.length} items (total ${at(exchange.body, 'meta', 'total')}), ${key} not among them`,
        );
      if (probe.holds === undefined) return;
      const wrong = found.find((i) => probe.holds?.(i, sent) === false);
      expectThat(
        ctx,
        wrong === undefined,
        exchange,
        `every item to satisfy ${shown(sent, 160)}, as the contract defines ${filter}`,
        () => `${at(wrong, 'key')} does not: ${shown(wrong, 200)}`,
      );
    });
  }
}

/** The contract's example of a filter (a point with a distance), else a value of its schema. */
function sampleOf(doc: OpenApiDoc, name: string): Record<string, unknown> | undefined {
  const parameter = Object.values(doc.components?.parameters ?? {})
    .map((p) => deref(doc, p) as Parameter)
    .find((p) => p?.name === name);
  if (parameter === undefined) return undefined;
  let value: unknown = parameter.example;
  if (typeof value === 'string' && /^[[{]/.test(value)) value = JSON.parse(value);
  if (value === undefined) {
    const schema = deref(doc, parameter.schema);
    if (isObject(schema) && Array.isArray(schema.enum)) value = schema.enum[0];
    else if (isObject(schema) && (schema.type === 'number' || schema.type === 'integer'))
      value = typeof schema.minimum === 'number' ? schema.minimum + 1 : 1;
  }
  if (value === undefined) return undefined;
  const distance = name.endsWith('_geopoint')
    ? { [name.replace(/geopoint$/, 'distance')]: 25 }
    : {};
  return { [name]: value, ...distance };
}

export const FILTERS: Rule = {
  id: 'FILTERS',
  title:
    'each filter of searching and scoring filters: filtering by a value taken from an item finds that item, and every item returned satisfies the filter where the contract defines it exactly; a filter no item can show is accepted',
  async run(ctx) {
    for (const entry of operable(ctx).filter((e) => !e.suite.path.endsWith('/grading')))
      await part(ctx, () => probeOperation(ctx, entry));
  },
};

import type { Exchange } from '../client.ts';
import { field, toList } from '../json-shape.ts';
import { fullFlag, GRADING, MINIMAL_FIELDS, pathOf, requestedKeys } from '../operations.ts';
import { expectOk, expectThat, part, type Rule, type RuleContext, shown } from '../rule.ts';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

type List = 'profiles' | 'jobs';

/** Grading's items carry only the minimal fields. Also judged live by the proxy. */
export function checkMinimalItems(
  ctx: Pick<RuleContext, 'checks'>,
  exchange: Exchange,
  list: List,
  items: unknown[],
): void {
  const allowed = new Set(MINIMAL_FIELDS[list]);
  for (const item of items) {
    // Parsed JSON holds no undefined: every item but null has keys to read.
    if (item === null || item === undefined) continue;
    const extra = Object.keys(item).filter((k) => !allowed.has(k));
    expectThat(
      ctx,
      extra.length === 0,
      exchange,
      `minimal ${list} (${[...allowed].join(', ')} only)`,
      () => `an item with ${extra.join(', ')}`,
    );
  }
}

/**
 * One item, score and error per key asked, in request order, each entry a score or else an
 * error. Also judged live by the proxy.
 */
export function checkAligned(
  ctx: Pick<RuleContext, 'checks'>,
  exchange: Exchange,
  list: List,
  data: unknown,
  wanted: string[],
): void {
  for (const name of [list, 'scores', 'errors']) {
    const got = field(data, name);
    expectThat(
      ctx,
      Array.isArray(got) && got.length === wanted.length,
      exchange,
      `${name} with ${wanted.length} entries`,
      () => `${Array.isArray(got) ? got.length : shown(got)}`,
    );
  }
  // Each of the three is a list by now: a check above stopped the rule otherwise.
  const scores = toList(field(data, 'scores'));
  const errors = toList(field(data, 'errors'));
  toList(field(data, list)).forEach((item, i) => {
    expectThat(
      ctx,
      item === null || field(item, 'key') === wanted[i],
      exchange,
      `${list}[${i}].key = ${wanted[i]} (request order)`,
      () => field(item, 'key'),
    );
    const scored = scores[i] !== null;
    const explained = errors[i] !== null;
    expectThat(
      ctx,
      scored !== explained,
      exchange,
      `entry ${i}: a score, or else an error saying why`,
      () => `score ${shown(scores[i])}, error ${shown(errors[i])}`,
    );
  });
}

export const GRD_DEFAULT: Rule = {
  id: 'GRD-DEFAULT',
  title: 'grading without return_profile/return_job equals =false and gives minimal items',
  async run(ctx) {
    for (const op of GRADING)
      await part(ctx, async () => {
        const params = op.params(ctx.target);
        const absent = await ctx.client.get(pathOf(op, ctx.target), params);
        const off = await ctx.client.get(pathOf(op, ctx.target), {
          ...params,
          [fullFlag(op)]: 'false',
        });
        const absentData = expectOk(ctx, absent);
        const offData = expectOk(ctx, off);
        expectThat(
          ctx,
          same(absentData, offData),
          absent,
          `the same data as with ${fullFlag(op)}=false (${shown(offData, 120)})`,
          () => absentData,
        );
        checkMinimalItems(ctx, absent, op.list, toList(field(absentData, op.list)));
      });
  },
};

export const GRD_FULL: Rule = {
  id: 'GRD-FULL',
  title:
    'grading with =true gives full items, same count and order, agreeing with their minimal twins',
  async run(ctx) {
    for (const op of GRADING)
      await part(ctx, async () => {
        const params = op.params(ctx.target);
        const minimal = expectOk(ctx, await ctx.client.get(pathOf(op, ctx.target), params));
        const fullExchange = await ctx.client.get(pathOf(op, ctx.target), {
          ...params,
          [fullFlag(op)]: 'true',
        });
        const full = expectOk(ctx, fullExchange);
        const minimalItems = toList(field(minimal, op.list));
        const fullItems = toList(field(full, op.list));
        expectThat(
          ctx,
          fullItems.length === minimalItems.length,
          fullExchange,
          `${minimalItems.length} ${op.list}, as without ${fullFlag(op)}`,
          () => `${fullItems.length}`,
        );
        const schema = op.list === 'profiles' ? 'Profile' : 'Job';
        fullItems.forEach((item, i) => {
          const twin = minimalItems[i];
          expectThat(
            ctx,
            (item === null) === (twin === null),
            fullExchange,
            `item ${i} null exactly when its minimal twin is`,
            () => shown(item, 80),
          );
          if (item === null) return;
          const verdict = ctx.validator.validateSchema(schema, item);
          expectThat(ctx, verdict.ok, fullExchange, `item ${i} a full ${schema}`, () =>
            verdict.ok ? '' : verdict.errors.slice(0, 3).join('; '),
          );
          for (const name of MINIMAL_FIELDS[op.list]) {
            expectThat(
              ctx,
              same(field(item, name), field(twin, name)),
              fullExchange,
              `item ${i}.${name} = ${shown(field(twin, name))} as in the minimal answer`,
              () => field(item, name),
            );
          }
        });
        expectThat(
          ctx,
          same(field(full, 'scores'), field(minimal, 'scores')),
          fullExchange,
          `scores unchanged by ${fullFlag(op)}`,
          () => field(full, 'scores'),
        );
        expectThat(
          ctx,
          same(field(full, 'errors'), field(minimal, 'errors')),
          fullExchange,
          `errors unchanged by ${fullFlag(op)}`,
          () => field(full, 'errors'),
        );
      });
  },
};

export const GRD_ALIGN: Rule = {
  id: 'GRD-ALIGN',
  title: 'grading answers one item, score and error per requested item, in request order',
  async run(ctx) {
    for (const op of GRADING)
      await part(ctx, async () => {
        const wanted = requestedKeys(op, ctx.target);
        for (const variant of [wanted, [...wanted].reverse()]) {
          const params = op.params(ctx.target);
          const idsName = op.list === 'profiles' ? 'profile_ids' : 'job_ids';
          const ids = params[idsName] as { profile_key?: string; job_key?: string }[];
          const ordered = variant.map((key) =>
            ids.find((i) => (i.profile_key ?? i.job_key) === key),
          );
          const exchange = await ctx.client.get(pathOf(op, ctx.target), {
            ...params,
            [idsName]: ordered,
          });
          checkAligned(ctx, exchange, op.list, expectOk(ctx, exchange), variant);
        }
      });
  },
};

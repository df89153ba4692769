import type { Exchange } from '../client.ts';
import { fullFlag, GRADING, MINIMAL_FIELDS, pathOf, requestedKeys } from '../operations.ts';
import { expectOk, expectThat, part, type Rule, type RuleContext, shown } from '../rule.ts';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

type List = 'profiles' | 'jobs';

/** Grading's items carry only the minimal fields. Also judged live by the proxy. */
export function checkMinimalItems(
  ctx: Pick<RuleContext, 'checks'>,
  exchange: Exchange,
  list: List,
  items: any[],
): void {
  const allowed = new Set(MINIMAL_FIELDS[list]);
  for (const item of items) {
    if (item === null) continue;
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
  data: any,
  wanted: string[],
): void {
  for (const field of [list, 'scores', 'errors']) {
    const got = data[field];
    expectThat(
      ctx,
      Array.isArray(got) && got.length === wanted.length,
      exchange,
      `${field} with ${wanted.length} entries`,
      () => `${Array.isArray(got) ? got.length : shown(got)}`,
    );
  }
  data[list].forEach((item: any, i: number) => {
    expectThat(
      ctx,
      item === null || item.key === wanted[i],
      exchange,
      `${list}[${i}].key = ${wanted[i]} (request order)`,
      () => item.key,
    );
    const scored = data.scores[i] !== null;
    const explained = data.errors[i] !== null;
    expectThat(
      ctx,
      scored !== explained,
      exchange,
      `entry ${i}: a score, or else an error saying why`,
      () => `score ${shown(data.scores[i])}, error ${shown(data.errors[i])}`,
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
        checkMinimalItems(ctx, absent, op.list, absentData[op.list] ?? []);
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
        const minimalItems: any[] = minimal[op.list] ?? [];
        const fullItems: any[] = full[op.list] ?? [];
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
          for (const field of MINIMAL_FIELDS[op.list]) {
            expectThat(
              ctx,
              same(item[field], twin[field]),
              fullExchange,
              `item ${i}.${field} = ${shown(twin[field])} as in the minimal answer`,
              () => item[field],
            );
          }
        });
        expectThat(
          ctx,
          same(full.scores, minimal.scores),
          fullExchange,
          `scores unchanged by ${fullFlag(op)}`,
          () => full.scores,
        );
        expectThat(
          ctx,
          same(full.errors, minimal.errors),
          fullExchange,
          `errors unchanged by ${fullFlag(op)}`,
          () => full.errors,
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

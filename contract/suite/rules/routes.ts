import type { Exchange } from '../client.ts';
import { baseOf, operable, sendTo } from '../contract-requests.ts';
import { at } from '../json-shape.ts';
import { HTTP_METHODS } from '../openapi.ts';
import { expectOk, expectThat, part, type Rule, type RuleContext, shown } from '../rule.ts';

/** Methods a client may send by mistake; HEAD and OPTIONS belong to HTTP itself and CORS. */
const WRONG_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Paths no contract will have: a typo of an operation and a path outside the API. */
const UNKNOWN_PATHS = ['/profiles/grade', '/hrmock-no-such-path'];

/** The error envelope with the status the contract documents, as JSON. */
function expectErrorEnvelope(ctx: RuleContext, exchange: Exchange, status: number, why: string) {
  const type = exchange.headers.get('content-type') ?? '';
  expectThat(
    ctx,
    exchange.status === status &&
      /^application\/json/i.test(type) &&
      at(exchange.body, 'code') === status &&
      typeof at(exchange.body, 'message') === 'string',
    exchange,
    `${status} in the JSON error envelope {code: ${status}, message} (${why})`,
    () => `${exchange.status} ${type || 'no Content-Type'}: ${shown(exchange.text, 120)}`,
  );
}

export const ROUTES: Rule = {
  id: 'ROUTES',
  title:
    'every documented path answers each documented method; any other method gets 405 with Allow in the error envelope; an unknown path gets the 404 envelope',
  async run(ctx) {
    for (const entry of operable(ctx))
      await part(ctx, async () => {
        expectOk(ctx, await sendTo(ctx, entry.op, baseOf(ctx, entry)));
      });
    for (const [path, item] of Object.entries(ctx.contract.paths)) {
      const allowed = HTTP_METHODS.filter((m) => item[m] !== undefined).map((m) => m.toUpperCase());
      const target = operable(ctx).find((e) => e.op.path === path);
      for (const method of WRONG_METHODS.filter((m) => !allowed.includes(m)))
        await part(ctx, async () => {
          const params = target === undefined ? {} : baseOf(ctx, target);
          const exchange =
            method === 'GET'
              ? await ctx.client.get(path, params)
              : await ctx.client.raw(method, path, JSON.stringify(params), { params });
          expectErrorEnvelope(ctx, exchange, 405, `${path} documents ${allowed.join(', ')} only`);
          const allow = (exchange.headers.get('allow') ?? '')
            .split(',')
            .map((m) => m.trim().toUpperCase());
          expectThat(
            ctx,
            allowed.every((m) => allow.includes(m)) && !allow.includes(method),
            exchange,
            `an Allow header listing ${allowed.join(', ')} (the methods ${path} documents), not ${method}`,
            () => exchange.headers.get('allow') ?? 'no Allow header',
          );
        });
    }
    for (const path of UNKNOWN_PATHS)
      await part(ctx, async () => {
        const exchange = await ctx.client.get(path, {});
        expectErrorEnvelope(ctx, exchange, 404, 'the contract documents 404 for an unknown path');
      });
  },
};

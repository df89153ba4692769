import { ALL_OPERATIONS, pathOf } from '../operations.ts';
import { expectThat, type Rule, shown } from '../rule.ts';

export const OLD_CLIENT: Rule = {
  id: 'OLD-CLIENT',
  title:
    'what an old client sends (GET, no new parameters) gets an answer valid under every contract in history/',
  async run(ctx) {
    for (const op of ALL_OPERATIONS) {
      const valid = await ctx.client.get(pathOf(op, ctx.target), op.params(ctx.target));
      const [firstName] = Object.keys(op.params(ctx.target));
      const { [firstName as string]: _, ...missingOne } = op.params(ctx.target);
      const invalid = await ctx.client.get(pathOf(op, ctx.target), missingOne);
      for (const exchange of [valid, invalid]) {
        for (const published of ctx.history) {
          const verdict = published.validator.validateResponse(
            op.path,
            'get',
            exchange.status,
            exchange.body,
          );
          expectThat(
            ctx,
            verdict.ok,
            exchange,
            `an answer valid under history/${published.name}`,
            () =>
              verdict.ok
                ? ''
                : `${verdict.errors.slice(0, 3).join('; ')} in ${shown(exchange.text, 120)}`,
          );
        }
      }
    }
  },
};

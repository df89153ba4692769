import { breakingChanges } from '../additive.ts';
import { expectThat, type Rule } from '../rule.ts';

export const ADDITIVE: Rule = {
  id: 'ADDITIVE',
  title: 'contract/openapi.yaml removes nothing and requires nothing new relative to history/',
  async run(ctx) {
    for (const published of ctx.history) {
      const breaks = breakingChanges(published.doc, ctx.contract);
      expectThat(
        ctx,
        breaks.length === 0,
        `contract/openapi.yaml against history/${published.name}`,
        'no breaking change',
        () =>
          breaks
            .slice(0, 3)
            .map((b) => `${b.where}: ${b.what}`)
            .join('; '),
      );
    }
  },
};

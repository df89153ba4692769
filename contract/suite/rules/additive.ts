import { breakingChanges } from '../breaking-changes.ts';
import { expectThat, type Rule } from '../rule.ts';

export const ADDITIVE: Rule = {
  id: 'ADDITIVE',
  title:
    'contract/openapi.yaml is an additive evolution of every contract in history/: requests accept no less, responses return no more',
  // It reads the checkout's own files: against any base URL it judges them, not the server.
  subject: 'documents',
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

import { expectThat, type Rule } from '../rule.ts';

type PrismViolation = { location?: string[]; code?: string | number; message?: string };

/**
 * With `--via-prism` the traffic goes through `prism proxy contract/openapi.yaml <base>`, which
 * reports each violation in an `sl-violations` header. The suite sends bad requests on purpose,
 * so only violations of the responses count.
 */
export const PRISM: Rule = {
  id: 'PRISM',
  title: 'prism proxy reports no response violating the contract',
  async run(ctx) {
    for (const exchange of ctx.client.exchanges) {
      const header = exchange.headers.get('sl-violations');
      if (header === null) continue;
      let violations: PrismViolation[];
      try {
        violations = JSON.parse(header) as PrismViolation[];
      } catch {
        violations = [{ location: ['response'], message: header }];
      }
      const found = violations.filter((v) => v.location?.[0] === 'response');
      expectThat(ctx, found.length === 0, exchange, 'no response violation reported by Prism', () =>
        found
          .slice(0, 3)
          .map((v) => `${(v.location ?? []).join('.')}: ${v.message}`)
          .join('; '),
      );
    }
  },
};

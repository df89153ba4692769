import { pathAliases, textKindOf } from '../contract-facts.ts';
import { baseOf, operable, sendTo } from '../contract-requests.ts';
import { expectThat, part, type Rule, shown } from '../rule.ts';

const SENTENCE =
  'Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et';

/**
 * Ordinary text a user types: other scripts, emoji, quotes with inner spaces, a long value (a
 * keyword of 100 characters, the contract's cap; 1,000 characters where no cap is documented).
 */
export function oddTexts(kind: 'text' | 'keywords'): string[] {
  return [
    'Zürich',
    '数据 分析',
    '🚀 rocket',
    `O'Brien  "the"  one`,
    kind === 'keywords' ? SENTENCE : SENTENCE.repeat(10),
  ];
}

export const ODD_TEXT: Rule = {
  id: 'ODD-TEXT',
  title:
    'ordinary odd text in every text parameter (other scripts, emoji, quotes, inner spaces, long values) gets a 2xx or a 4xx, never a 5xx',
  async run(ctx) {
    // Another spelling of a path is the same operation: its text was tried once.
    const aliases = pathAliases(ctx.contract);
    for (const entry of operable(ctx).filter((e) => aliases[e.op.path] === undefined)) {
      const base = baseOf(ctx, entry);
      for (const input of entry.op.inputs) {
        const kind = textKindOf(ctx.contract, input);
        if (kind === undefined) continue;
        for (const text of oddTexts(kind))
          await part(ctx, async () => {
            const value = kind === 'keywords' ? [text] : text;
            const exchange = await sendTo(ctx, entry.op, { ...base, [input.name]: value });
            expectThat(
              ctx,
              exchange.status < 500,
              exchange,
              `a 2xx or a 4xx for odd text in ${input.name}: text a user may type is never a server error`,
              () => `status ${exchange.status}: ${shown(exchange.text, 160)}`,
            );
          });
      }
    }
  },
};

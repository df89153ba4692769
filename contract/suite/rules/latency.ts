import { describeRequest } from '../client.ts';
import { answersByOperation, latencyOf } from '../latency.ts';
import { contractOperations } from '../operation-inputs.ts';
import { part, type Rule, Skip, Violation } from '../rule.ts';

export const LATENCY_ID = 'LATENCY';

/**
 * With `--max-latency MS`: every operation's 95th percentile over the run's answers is at most
 * MS. Runs after the other rules, over every answer they got.
 */
export function latencyRule(maxMs: number): Rule {
  return {
    id: LATENCY_ID,
    title: `every operation's p95 answer time over the run is at most ${maxMs} ms (--max-latency)`,
    async run(ctx) {
      const byOperation = answersByOperation(
        contractOperations(ctx.contract),
        ctx.client.exchanges,
      );
      if (byOperation.size === 0)
        throw new Skip(
          'no answer of an operation to time: run LATENCY with the rules that send them',
        );
      for (const [op, answers] of byOperation)
        await part(ctx, async () => {
          ctx.checks.count++;
          const { count, p50Ms, p95Ms } = latencyOf(answers);
          if (p95Ms <= maxMs) return;
          const slowest = answers[answers.length - 1];
          throw new Violation({
            request: `${op.method} ${op.path} (${count} answers; the slowest: ${slowest === undefined ? '-' : describeRequest(slowest)})`,
            expected: `p95 at most ${maxMs} ms (--max-latency)`,
            got: `p95 ${p95Ms} ms, p50 ${p50Ms} ms`,
            ...(slowest?.sent === undefined
              ? {}
              : { reproduce: ctx.client.reproduce({ sent: slowest.sent }) }),
          });
        });
    },
  };
}

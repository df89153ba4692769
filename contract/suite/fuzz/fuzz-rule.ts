import type { Rule } from '../rule.ts';

export const FUZZ_ID = 'FUZZ';

/** Generated requests from the contract, judged one by one (see judge.ts). */
export function fuzzRule(options: { runs: number; seed: number }): Rule {
  return {
    id: FUZZ_ID,
    title: `${options.runs} requests generated from the contract (seed ${options.seed}): no 5xx, 4xx in the error envelope, 2xx valid`,
    async run() {},
  };
}

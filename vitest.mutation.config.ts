import { defineConfig } from 'vitest/config';

/**
 * The tests that judge contract/suite/rules/, live-rules.ts and breaking-changes.ts, and only
 * those: what `npm run mutate` (StrykerJS) runs for each of their mutants. Not part of `npm
 * test`'s selection, which is vitest.config.ts.
 */
export default defineConfig({
  test: {
    include: [
      'test/mutants/mutation.test.ts',
      'test/contract/rule-outcomes.test.ts',
      'test/contract/prism-rule.test.ts',
      'test/contract/post-long.test.ts',
      'test/contract/additive.test.ts',
      'test/contract/additive-tightened.test.ts',
      'test/contract/additive-shapes.test.ts',
      'test/contract/live-rules.test.ts',
      'test/contract/live-rules-answers.test.ts',
      'test/contract/live-judge-memory.test.ts',
    ],
    // Each run loads every module afresh, so that no cache of outcomes outlives its mutant.
    isolate: true,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

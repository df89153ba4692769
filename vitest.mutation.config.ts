import { defineConfig } from 'vitest/config';

/**
 * The tests that judge contract/suite/rules/, and only those: what `npm run mutate` (StrykerJS)
 * runs for each mutant of the rules. Not part of `npm test`'s selection, which is vitest.config.ts.
 */
export default defineConfig({
  test: {
    include: [
      'test/mutants/mutation.test.ts',
      'test/contract/rule-outcomes.test.ts',
      'test/contract/prism-rule.test.ts',
      'test/contract/post-long.test.ts',
    ],
    // Each run loads every module afresh, so that no cache of outcomes outlives its mutant.
    isolate: true,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.ts';

/**
 * The suite in six projects (`npm test` runs them all; `vitest run --project NAME` one):
 * - unit: in process, no child process (a setup file refuses one), no browser, no Java;
 *   `npm run test:unit` is the inner loop; the files of one worker share their modules
 *   (`isolate: false`), loaded once rather than once a file;
 * - unit-isolated: the unit files that replace a module with `vi.mock`, each with modules of its
 *   own (a module another file loaded first would not be replaced); `test:unit` runs it too;
 * - proofs: `hrmock check` run whole, in process, against each mutant of the mock and each
 *   defect of the independent server (what shows a rule can fail), no process either, modules
 *   shared as in unit;
 * - integration: tests of what a process boundary does (the CLI, exit codes, signals, the
 *   package as installed, Prism), each starting processes, modules shared as in unit;
 * - browser: headless Chromium through playwright-core;
 * - external: Specmatic, on Java.
 */
const BROWSER = ['test/browser/**/*.test.ts'];
const PROOFS = [
  'test/mutants/**/*.test.ts',
  'test/independent-server/**/*.test.ts',
  'test/contract/grading-path.test.ts',
];
const EXTERNAL = ['test/contract/specmatic-*.test.ts'];
const INTEGRATION = [
  'test/ci/**/*.test.ts',
  'test/package/**/*.test.ts',
  'test/cli.test.ts',
  'test/cli-fixtures*.test.ts',
  'test/cli-init.test.ts',
  'test/cli-report-outputs.test.ts',
  'test/cli-serve-command.test.ts',
  'test/contract/check-*.test.ts',
  'test/contract/check.test.ts',
  'test/contract/lint.test.ts',
  'test/contract/prism-mock.test.ts',
  'test/contract/reproduce-files.test.ts',
  'test/contract/target-file.test.ts',
  'test/docs/runnable-blocks.test.ts',
  'test/fixtures/determinism.test.ts',
  'test/http/prism-proxy.test.ts',
  'test/node/rate-limit.test.ts',
  'test/proxy/**/*.test.ts',
];

const ALL = ['test/**/*.test.ts', 'src/**/*.test.ts', 'mocks/**/*.test.ts'];
/** Unit files that replace a module (`vi.mock`), which only a file's own module graph allows. */
const MOCKING = ['test/cli-serve-defaults.test.ts', 'test/cli-fixtures-watch.test.ts'];

// `extends: true` adds a project's lists to the root's, so the root names no files of its own.
export const config = defineConfig({
  test: {
    globalSetup: ['test/support/skips.ts'],
    // Within each project the longest files first, a fresh clone too (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, every file in
    // turn. Many files wait on sockets, child processes, a pace or a timeout: two more than cores.
    maxWorkers: availableParallelism() + 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ALL,
          exclude: [...BROWSER, ...EXTERNAL, ...INTEGRATION, ...PROOFS, ...MOCKING],
          setupFiles: ['test/support/no-processes.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-isolated',
          include: MOCKING,
          setupFiles: ['test/support/no-processes.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'proofs',
          include: PROOFS,
          setupFiles: ['test/support/no-processes.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        // The CLI they start is the build, made current first (test/support/cli-entry.ts). Their
        // modules are shared as in unit: what they test is in the processes they start.
        test: {
          name: 'integration',
          include: INTEGRATION,
          exclude: MOCKING,
          globalSetup: ['test/support/built-cli.ts'],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'browser', include: BROWSER } },
      { extends: true, test: { name: 'external', include: EXTERNAL } },
    ],
  },
});

export default config;

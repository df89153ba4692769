import { ApiError } from '../api-error.ts';
import { DEFAULT_JSON_DEPTH } from '../request-params.ts';
import type { JournalEntry, JournalFilter } from './journal.ts';
import { waitForEntry } from './journal-wait.ts';
import { parseScenario, type Scenario, type ScenarioInput } from './scenarios.ts';
import type { Steering } from './steering.ts';

/**
 * Steering a mock from the test that runs it, without HTTP: the same scenario shape and journal
 * as `/_mock/`, for `startMock()` on Node and `createMockFetch()` in a page or under MSW.
 */
export type SteeringControls = {
  /**
   * Sets what the next matching requests get, newest first (as `POST /_mock/scenarios`):
   * `use({path: '/profiles/searching', respond: {status: 500}, times: 1})`. Throws on a bad one.
   */
  use: (scenario: ScenarioInput) => Scenario;
  /** The journal, oldest first, optionally filtered: `requests({path: '/profiles/searching'})`. */
  requests: (filter?: JournalFilter) => JournalEntry[];
  /**
   * The first request passing the filter that arrives after this call, once it has ended
   * (answered or aborted); `includePast: true` takes one already in the journal too. Rejects
   * after `timeoutMs` (default 5000).
   */
  waitForRequest: (filter: JournalFilter, options?: WaitOptions) => Promise<JournalEntry>;
  /** Removes every scenario and empties the journal, e.g. in `afterEach`. */
  reset: () => void;
};

export type WaitOptions = { timeoutMs?: number; includePast?: boolean };

/** `maxDepth`: how deep a scenario's `params` may nest (the app's JSON depth limit). */
export function steeringControls(
  steering: Steering,
  maxDepth: number = DEFAULT_JSON_DEPTH,
): SteeringControls {
  const { scenarios, journal } = steering;
  return {
    use: (scenario) => scenarios.add(checkedScenario(scenario, maxDepth)),
    requests: (filter) => journal.list(filter),
    waitForRequest: (filter, options) =>
      waitForEntry(journal, filter, options?.timeoutMs ?? 5000, options?.includePast === true),
    reset: () => {
      scenarios.clear();
      journal.clear();
    },
  };
}

/** The scenario if its shape is right; else the 400 that `POST /_mock/scenarios` would answer. */
export function checkedScenario(input: unknown, maxDepth: number): ScenarioInput {
  const parsed = parseScenario(input, maxDepth);
  if (parsed.ok) return parsed.value;
  throw new ApiError(400, `Invalid scenario: ${parsed.errors.map((e) => e.message).join('; ')}.`, {
    errors: parsed.errors,
  });
}

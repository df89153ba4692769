import type { JournalEntry, JournalFilter } from '../http/admin/journal.ts';
import type { Scenario, ScenarioInput } from '../http/admin/scenarios.ts';

/**
 * `use`, `requests` and `reset` of a mock in another context, over its admin API: the Service
 * Worker a page registered (`installServiceWorkerMock`), or `hrmock serve` on a port. The same
 * scenario shape and journal as `createMockFetch()`'s, asynchronous because they travel.
 */
export type MockControls = {
  /** Sets what the next matching requests get; rejects on a bad scenario, naming the field. */
  use: (scenario: ScenarioInput) => Promise<Scenario>;
  /** The journal, oldest first, optionally filtered. */
  requests: (filter?: JournalFilter) => Promise<JournalEntry[]>;
  /** Removes every scenario and empties the journal. */
  reset: () => Promise<void>;
};

export type MockControlsOptions = {
  /**
   * Where the mock answers `/_mock/…` (default: the page's own origin, where its worker answers).
   * `hrmock serve` answers a page of another origin only if started with `--admin-origin` for it.
   */
  origin?: string;
  /** Sent with every call, e.g. `{'X-API-KEY': key}` for `hrmock serve --api-key`. */
  headers?: Record<string, string>;
};

export function mockControls(options: MockControlsOptions = {}): MockControls {
  const origin = (options.origin ?? globalThis.location?.origin ?? '').replace(/\/+$/, '');
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    // The admin API takes a call that changes something as JSON only, with a body or none.
    const json: Record<string, string> =
      method === 'GET' ? {} : { 'Content-Type': 'application/json' };
    const init: RequestInit = { method, headers: { ...options.headers, ...json } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch(`${origin}/_mock/${path}`, init);
    const answer = (await response.json().catch(() => null)) as {
      message?: string;
      data?: T;
    } | null;
    if (!response.ok || answer === null)
      throw new Error(
        `${method} /_mock/${path}: ${response.status} ${answer?.message ?? 'not an answer of hrmock: is its Service Worker in control of this page?'}`,
      );
    return answer.data as T;
  };
  return {
    use: (scenario) => call<Scenario>('POST', 'scenarios', scenario),
    requests: (filter = {}) => {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(filter))
        if (value !== undefined) query.set(name, String(value));
      const search = query.size > 0 ? `?${query}` : '';
      return call<JournalEntry[]>('GET', `requests${search}`);
    },
    reset: async () => {
      await call('POST', 'reset');
    },
  };
}

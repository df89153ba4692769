import { DEFAULT_TIMEOUT_MS, SuiteClient } from '../../contract/suite/client.ts';
import { Pace } from '../../contract/suite/pace.ts';
import { chosenRules, couldNotRun, type Report, runSuite } from '../../contract/suite/run-suite.ts';
import { CrossOriginRedirect, fetchWithinOrigin } from '../../contract/suite/same-origin.ts';
import { parseTarget, type Target } from '../../contract/suite/target.ts';
import { Redaction } from '../http/redaction.ts';
import { startMock } from './start-mock.ts';

export type RunCheckOptions = {
  /** The implementation to check; without it, the mock is started in process and checked. */
  baseUrl?: string;
  /**
   * The keys the rules may use there (see docs/contract-rules.md, "Checking a deployment"): an object in the
   * target file's shape. Without it, `GET {baseUrl}/_mock/target`, which only the mock serves.
   */
  target?: unknown;
  /** Headers for every request, e.g. `{ 'X-API-KEY': process.env.KEY }`; merged over the target's. */
  headers?: Record<string, string>;
  /** How long one request may take (default 10 s). */
  timeoutMs?: number;
  /** How long the whole run may take (default 5 min). */
  deadlineMs?: number;
  /** At most this many requests a second over the whole run (default: no limit). */
  maxRps?: number;
  /** After the rules, this many requests generated from the contract, from `seed` (the FUZZ rule). */
  fuzz?: { runs: number; seed: number };
  /** `report.coverage.met` is false under this percent of operation x status pairs exercised. */
  minCoverage?: number;
  /**
   * Only the rules with these ids, as `hrmock check --rule` runs them (`['FILTERS']`); FUZZ needs
   * `fuzz`. An unknown id rejects with a RangeError naming the ids, before anything is sent.
   */
  rules?: string[];
};

export type { Report, RuleResult } from '../../contract/suite/run-suite.ts';
export type { Target } from '../../contract/suite/target.ts';

/**
 * The contract rules against an implementation, as data: `report.results` holds one entry per
 * rule with its outcome (`pass`, `fail` with evidence, `skip` with why). A run that cannot start
 * (no target, an unreachable URL) resolves with `report.error` set rather than throwing, so a
 * test can assert on it.
 */
export async function runCheck(options: RunCheckOptions = {}): Promise<Report> {
  const startedAt = performance.now();
  const only = chosenRules(options.rules, {
    viaPrism: false,
    fuzz: options.fuzz !== undefined,
    latency: false,
  });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const mock = options.baseUrl === undefined ? await startMock() : undefined;
  const baseUrl = (options.baseUrl ?? mock?.url ?? '').replace(/\/+$/, '');
  try {
    const target = await targetFor(options, baseUrl, timeoutMs, mock?.target);
    const headers = { ...target.headers, ...options.headers };
    const client = new SuiteClient({
      baseUrl,
      headers,
      timeoutMs,
      deadlineMs: options.deadlineMs ?? 300_000,
      startedAt,
      pace: new Pace(options.maxRps ?? 'unlimited'),
    });
    const report = await runSuite({
      client,
      baseUrl,
      target,
      ...(options.fuzz === undefined ? {} : { fuzz: options.fuzz }),
      ...(options.minCoverage === undefined ? {} : { minCoverage: options.minCoverage }),
      ...(only === undefined ? {} : { only }),
    });
    // A header's value (a key) is never quoted, even where a server echoes it.
    return new Redaction({ values: Object.values(headers) }).strings(report);
  } catch (error) {
    const redaction = new Redaction({ values: Object.values(options.headers ?? {}) });
    return couldNotRun(baseUrl, redaction.text((error as Error).message));
  } finally {
    await mock?.close();
  }
}

async function targetFor(
  options: RunCheckOptions,
  baseUrl: string,
  timeoutMs: number,
  mockTarget: unknown,
): Promise<Target> {
  if (options.target !== undefined) return parseTarget(options.target, process.env, 'target');
  if (mockTarget !== undefined) return parseTarget(mockTarget, null, 'the mock');
  const url = `${baseUrl}/_mock/target`;
  let response: Response;
  try {
    response = await fetchWithinOrigin((request) => fetch(request), url, {
      headers: options.headers ?? {},
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const err = error as Error;
    if (err instanceof CrossOriginRedirect) throw err;
    throw new Error(
      err.name === 'TimeoutError'
        ? `no answer from ${baseUrl} within ${timeoutMs / 1000} s`
        : `cannot reach ${baseUrl}: ${err.cause ?? err.message}`,
    );
  }
  const body = (await response.json().catch(() => null)) as { data?: unknown } | null;
  if (response.status !== 200 || body?.data === undefined)
    throw new Error(`no target at ${url} (status ${response.status}): pass options.target`);
  return parseTarget(body.data, null, url);
}

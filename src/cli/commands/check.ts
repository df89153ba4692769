import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { parseAnswer } from '../../../contract/suite/answer-json.ts';
import { probeApi } from '../../../contract/suite/api-probe.ts';
import {
  DEFAULT_TIMEOUT_MS,
  readCapped,
  SuiteClient,
  TooLong,
} from '../../../contract/suite/client.ts';
import {
  DEFAULT_REMOTE_RPS,
  isLoopback,
  Pace,
  retryAfterMs,
  sleep,
} from '../../../contract/suite/pace.ts';
import { render, summary } from '../../../contract/suite/reporters.ts';
import { shellWord, shownHeaderValue } from '../../../contract/suite/reproduce.ts';
import { shortenReport } from '../../../contract/suite/reproduce-files.ts';
import { couldNotRun, type Report, runSuite } from '../../../contract/suite/run-suite.ts';
import { CrossOriginRedirect, fetchWithinOrigin } from '../../../contract/suite/same-origin.ts';
import {
  parseTarget,
  readTargetFile,
  type Target,
  TargetError,
} from '../../../contract/suite/target.ts';
import { lazyFixtures } from '../../../mocks/lazy-fixtures.ts';
import { createApp } from '../../http/app.ts';
import { Redaction } from '../../http/redaction.ts';
import { type RunningServer, startServer } from '../../node/server.ts';
import { PrismMissing, type RunningPrism, startPrism } from '../../prism.ts';
import {
  type ReportOutput,
  reportOutputs,
  writeCouldNotRun,
  writeReports,
} from '../report-outputs.ts';
import { durationMs, UsageError } from '../usage-error.ts';
import {
  DEFAULT_DEADLINE_MS,
  fuzzRuns,
  fuzzSeed,
  maxLatency,
  maxRps,
  minCoverage,
  onlyRules,
  parseHeaders,
  rerunCommand,
} from './check-options.ts';

/** A check that could not run at all: exit status 2. */
export class CannotRun extends Error {
  override name = 'CannotRun';
}

/** What the command line asks, read and checked before anything is sent. */
type CheckSettings = {
  values: ReturnType<typeof readArgs>['values'];
  startedAt: number;
  deadlineMs: number;
  timeoutMs: number;
  /** The rules `--rule` narrows the run to; absent, every rule. */
  only: string[] | undefined;
  /** Each report asked for and where it goes (`--reporter R --output FILE`, repeatable). */
  outputs: ReportOutput[];
  fuzz: number | undefined;
  seed: number | undefined;
  coverageGate: number | undefined;
  latencyLimit: number | undefined;
  pace: Pace;
  headers: Record<string, string>;
  templates: Record<string, string>;
};

function readArgs(args: string[]) {
  return parseArgs({
    args,
    options: {
      'base-url': { type: 'string' },
      target: { type: 'string' },
      header: { type: 'string', multiple: true },
      reporter: { type: 'string', multiple: true },
      output: { type: 'string', multiple: true },
      'via-prism': { type: 'boolean' },
      timeout: { type: 'string' },
      deadline: { type: 'string' },
      'max-rps': { type: 'string' },
      fuzz: { type: 'string' },
      seed: { type: 'string' },
      'min-coverage': { type: 'string' },
      'max-latency': { type: 'string' },
      rule: { type: 'string', multiple: true },
    },
    strict: true,
    tokens: true,
  });
}

function checkSettings(args: string[]): CheckSettings {
  const { values, tokens } = readArgs(args);
  const startedAt = performance.now();
  const deadlineMs = durationMs('deadline', values.deadline, DEFAULT_DEADLINE_MS);
  const timeoutMs = Math.min(durationMs('timeout', values.timeout, DEFAULT_TIMEOUT_MS), deadlineMs);
  const outputs = reportOutputs(tokens);
  const fuzz = fuzzRuns(values.fuzz);
  const givenSeed = fuzzSeed(values.seed, fuzz);
  const seed = fuzz === undefined ? undefined : (givenSeed ?? Math.floor(Math.random() * 2 ** 31));
  const given = values['base-url'];
  if (given !== undefined && !/^https?:\/\/[^/]/.test(given))
    throw new UsageError(`--base-url must be an http(s) URL, got "${given}"`);
  const remote = given !== undefined && !isLoopback(given);
  const pace = new Pace(maxRps(values['max-rps'], remote ? DEFAULT_REMOTE_RPS : 'unlimited'));
  const coverageGate = minCoverage(values['min-coverage']);
  const latencyLimit = maxLatency(values['max-latency']);
  const only = onlyRules(values.rule, {
    viaPrism: values['via-prism'] === true,
    fuzz: fuzz !== undefined,
    latency: latencyLimit !== undefined,
  });
  return {
    values,
    only,
    startedAt,
    deadlineMs,
    timeoutMs,
    outputs,
    fuzz,
    seed,
    coverageGate,
    latencyLimit,
    pace,
    ...parseHeaders(values.header ?? []),
  };
}

export async function checkCommand(args: string[]): Promise<number> {
  const settings = checkSettings(args);
  const { values, outputs } = settings;
  const cleanup: (() => Promise<void>)[] = [];
  let base = values['base-url'];
  try {
    if (base === undefined) {
      const mock: RunningServer = await startServer(
        createApp({ data: lazyFixtures({}), log: false }),
      );
      cleanup.push(mock.close);
      base = mock.url;
    }
    base = base.replace(/\/+$/, '');
    // No report line over 8 KB: long requests keep their bodies in files beside the first report.
    const first = outputs.find((o) => o.file !== undefined)?.file;
    const run = await runChecks(settings, base, cleanup);
    const { report, note } = await shortenReport(run, first, (path, text) =>
      mkdir(dirname(path), { recursive: true }).then(() => writeFile(path, text)),
    );
    // Every report in a file: stdout gets the summary, or the whole pretty report if one is pretty.
    const filed = outputs.some((o) => o.reporter === 'pretty')
      ? render(report, 'pretty')
      : `${summary(report)}\n`;
    await writeReports(outputs, (reporter) => render(report, reporter), filed);
    // Said where the summary is; never inside a JSON or JUnit report printed on stdout.
    const onStdout = outputs.some((o) => o.file === undefined && o.reporter !== 'pretty');
    if (note !== undefined) (onStdout ? process.stderr : process.stdout).write(`${note}\n`);
    return report.failed > 0 || report.coverage?.met === false ? 1 : 0;
  } catch (error) {
    const cannot =
      error instanceof TargetError || error instanceof PrismMissing
        ? new CannotRun(error.message)
        : (error as Error);
    if (cannot instanceof CannotRun) {
      // The report still says what happened: CI keeps a file, and dashboards show the error.
      const failed = couldNotRun(base ?? '(none)', cannot.message);
      await writeCouldNotRun(outputs, (reporter) => render(failed, reporter));
    }
    throw cannot;
  } finally {
    for (const close of cleanup.reverse()) await close();
  }
}

/** The target read (or asked of the mock), the client made, and the suite run against `base`. */
async function runChecks(
  settings: CheckSettings,
  base: string,
  cleanup: (() => Promise<void>)[],
): Promise<Report> {
  const { values, headers, templates, timeoutMs, deadlineMs, startedAt, pace } = settings;
  const { fuzz, seed, coverageGate, latencyLimit, only } = settings;
  const reach = { base, headers, timeoutMs, pace, deadline: startedAt + deadlineMs, waited: 0 };
  // A target file is checked before the server is asked anything.
  const fromFile = values.target === undefined ? undefined : await readTargetFile(values.target);
  await probe(reach);
  const target = fromFile ?? (await targetOfMock(reach));
  const allHeaders = { ...target.headers, ...headers };
  const allTemplates = { ...target.headerTemplates, ...templates };
  const shownHeaders = Object.fromEntries(
    Object.keys(allHeaders).map((name) => [name, shownHeaderValue(name, allTemplates[name])]),
  );
  let trafficBase = base;
  if (values['via-prism']) {
    const prism: RunningPrism = await startPrism({ mode: 'proxy', upstream: base });
    cleanup.push(prism.stop);
    trafficBase = prism.url;
  }
  const client = new SuiteClient({
    baseUrl: trafficBase,
    directBaseUrl: base,
    headers: allHeaders,
    timeoutMs,
    deadlineMs,
    startedAt,
    pace,
    shownHeaders,
  });
  const given = values['base-url'];
  const rerun = rerunCommand(shellWord, {
    ...(given === undefined ? {} : { base: given }),
    ...(values.target === undefined ? {} : { target: values.target }),
    headers: Object.keys(headers).map((name) => ({
      name,
      shown: shownHeaders[name] as string,
    })),
    ...(fuzz === undefined ? {} : { fuzz, seed }),
    ...(latencyLimit === undefined ? {} : { maxLatency: latencyLimit }),
    ...(only === undefined ? {} : { rules: only }),
  });
  const report = await runSuite({
    client,
    baseUrl: base,
    target,
    viaPrism: values['via-prism'] === true,
    rerun,
    probed: true,
    ...(fuzz === undefined || seed === undefined ? {} : { fuzz: { runs: fuzz, seed } }),
    ...(coverageGate === undefined ? {} : { minCoverage: coverageGate }),
    ...(latencyLimit === undefined ? {} : { maxLatencyMs: latencyLimit }),
    ...(only === undefined ? {} : { only }),
  });
  // A run header's value (a key) is never quoted, even where a server echoes it.
  report.rateLimited = (report.rateLimited ?? 0) + reach.waited; // the probe's and target's too
  return new Redaction({ values: Object.values(allHeaders) }).strings(report);
}

type Reach = {
  base: string;
  headers: Record<string, string>;
  timeoutMs: number;
  pace: Pace;
  /** When the run must end (`performance.now()` scale): a 429 is waited out until then. */
  deadline: number;
  /** How many answers of 429 were waited out. */
  waited: number;
};

/**
 * The rules need a server that answers (anything HTTP, an error status included) and answers
 * like the API: JSON to a bare request to a documented path (see contract/suite/api-probe.ts).
 * A 429 until the deadline says nothing either way: the rules meet it and report it.
 */
async function probe(reach: Reach): Promise<void> {
  const notApi = await probeApi(async (path) => {
    const url = `${reach.base}${path}`;
    const answer = await reachable(reach, url, false);
    return answer.status === 429 ? undefined : { method: 'GET', url, ...answer };
  });
  if (notApi !== undefined) throw new CannotRun(notApi);
}

type Answer = { status: number; text: string; contentType: string | null };

/**
 * One request to the base URL; refused, reset or silent is a one-line CannotRun. A 429 is
 * waited out; past the deadline, a CannotRun too (the 429 itself when `late` is false).
 */
async function reachable(reach: Reach, url: string, late = true): Promise<Answer> {
  for (;;) {
    const answer = await reachOnce(reach, url);
    if (answer.status !== 429) return answer;
    const waitMs = retryAfterMs(answer.retryAfter);
    if (performance.now() + waitMs >= reach.deadline) {
      if (!late) return answer;
      throw new CannotRun(
        `${url} answered 429 with Retry-After ${waitMs / 1000} s, past the run's deadline (--deadline)`,
      );
    }
    reach.waited++;
    await sleep(waitMs);
  }
}

async function reachOnce(
  reach: Reach,
  url: string,
): Promise<Answer & { retryAfter: string | null }> {
  try {
    await reach.pace.take();
    const response = await fetchWithinOrigin((request) => fetch(request), url, {
      headers: reach.headers,
      signal: AbortSignal.timeout(reach.timeoutMs),
    });
    // Too long to be a target is still an answer: the server is there.
    const text = await readCapped(response, 1024 * 1024).catch((e) => {
      if (e instanceof TooLong) return '';
      throw e;
    });
    return {
      status: response.status,
      text,
      retryAfter: response.headers.get('retry-after'),
      contentType: response.headers.get('content-type'),
    };
  } catch (error) {
    const err = error as Error;
    if (err instanceof CrossOriginRedirect) throw new CannotRun(err.message);
    if (err.name === 'TimeoutError')
      throw new CannotRun(
        `no answer from ${reach.base} within ${reach.timeoutMs / 1000} s (--timeout): is the server up and is this its base URL?`,
      );
    throw new CannotRun(`cannot reach ${reach.base}: ${err.cause ?? err.message}`);
  }
}

/** The mock's own target, at `/_mock/target`: only hrmock serves one. */
async function targetOfMock(reach: Reach): Promise<Target> {
  const url = `${reach.base}/_mock/target`;
  const response = await reachable(reach, url);
  // Read as the rules read answers: one nested too deep is no target, and is never parsed.
  const json = parseAnswer(response.text);
  const body = (json.ok ? json.value : null) as { data?: unknown } | null;
  if (response.status !== 200 || body === null || body?.data === undefined) {
    const why = json.ok || json.why === undefined ? '' : `, ${json.why}`;
    throw new CannotRun(
      `no target at ${url} (status ${response.status}${why}); only hrmock serves one: pass --target FILE naming existing keys (see docs/contract-rules.md, "Checking a deployment")`,
    );
  }
  return parseTarget(body.data, null, url);
}

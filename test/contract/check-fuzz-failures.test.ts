import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evidence, Outcome } from '../../contract/suite/rule.ts';
import type { Report } from '../../src/api/run-check.ts';
import type { RunningServer } from '../../src/node/server.ts';
import type { Fetch } from '../mutants/mutants.ts';
import { checkCli, replay, serveMock } from '../support/check-cli.ts';

const json = { 'content-type': 'application/json' };

/** A 500 on GET /profiles/searching whenever a filter is sent, besides the source keys. */
const searchingCrashesOnFilters =
  (fetch: Fetch): Fetch =>
  async (request) => {
    const url = new URL(request.url);
    const filtered = [...url.searchParams.keys()].some((name) => name !== 'source_keys');
    if (request.method !== 'GET' || !url.pathname.endsWith('/profiles/searching') || !filtered)
      return fetch(request);
    return new Response(JSON.stringify({ code: 500, message: 'Internal server error.' }), {
      status: 500,
      headers: json,
    });
  };

/** The plural job grading answers its 200s with `code` 201 in the envelope. */
const jobGradingWrongCode =
  (fetch: Fetch): Fetch =>
  async (request) => {
    const response = await fetch(request);
    if (!new URL(request.url).pathname.endsWith('/jobs/grading') || response.status !== 200)
      return response;
    const body = await response.json();
    body.code = 201;
    return new Response(JSON.stringify(body), { status: 200, headers: json });
  };

/** A 500 for every request but the mock's own (its target), whatever the method or path. */
const crashesOnEverything =
  (fetch: Fetch): Fetch =>
  async (request) =>
    new URL(request.url).pathname.includes('/_mock/')
      ? fetch(request)
      : new Response(JSON.stringify({ code: 500, message: 'Internal server error.' }), {
          status: 500,
          headers: json,
        });

const servers: RunningServer[] = [];
async function serve(wrap?: (fetch: Fetch) => Fetch): Promise<RunningServer> {
  const server = await serveMock(wrap);
  servers.push(server);
  return server;
}

afterAll(async () => {
  for (const server of servers) await server.close();
});

/** The FUZZ rule's result in a JSON report, which must be a failure. */
function fuzzResult(out: string): { id: string; outcome: Extract<Outcome, { status: 'fail' }> } {
  const report: Report = JSON.parse(out);
  const result = report.results.find((r) => r.id === 'FUZZ');
  if (result?.outcome.status !== 'fail') throw new Error(`FUZZ did not fail: ${out.slice(0, 300)}`);
  return { id: result.id, outcome: result.outcome };
}

/** A piece of evidence's method, path and broken promise: what tells two failures apart. */
function causeOf(e: { request: string; expected: string }): string {
  return `${e.request.split(/[?\s]/, 2).join(' ')} ${e.expected}`;
}

/** These tests are about FUZZ's own failures: the other rules are left out of their runs. */
const FUZZ_ONLY = ['--rule', 'FUZZ'];

describe('--fuzz N --seed S: several failures, and a fuzz cut short', () => {
  let mock: RunningServer;
  beforeAll(async () => {
    mock = await serve();
  });

  describe('against a server with two independent defects', () => {
    const args = (url: string) => ['--base-url', url, '--fuzz', '150', '--seed', '7', ...FUZZ_ONLY];
    let url: string;
    let report: Report;
    let all: Evidence[];
    beforeAll(async () => {
      url = (await serve((f) => searchingCrashesOnFilters(jobGradingWrongCode(f)))).url;
      const { code, out } = await checkCli([...args(url), '--reporter', 'json']);
      expect(code).toBe(1);
      report = JSON.parse(out);
      const { outcome } = fuzzResult(out);
      all = [outcome.evidence, ...(outcome.more ?? [])];
    }, 120_000);

    it('goes on after the first failure and reports each defect, as distinct evidence', async () => {
      expect(all.length).toBeGreaterThanOrEqual(2);
      expect(all.length).toBeLessThanOrEqual(10);
      expect(new Set(all.map(causeOf)).size, all.map(causeOf).join('\n')).toBe(all.length);
      const crash = all.find((e) => e.expected === 'no 5xx for anything a client sends');
      expect(crash?.request).toMatch(/^GET \/profiles\/searching\?/);
      if (crash?.reproduce === undefined) throw new Error('the crash has no curl reproducer');
      expect(await replay(crash.reproduce)).toBe(500);
      const envelope = all.find((e) => /^code = the HTTP status 200/.test(e.expected));
      expect(envelope?.request).toMatch(/^GET \/jobs\/grading\?/);
      expect(envelope?.got).toBe('201');
      expect(report.fuzz).toEqual({ runs: 150, seed: 7, judged: 150 });
    });

    it('gives each failure a curl reproducer, its request number and the replay flags', () => {
      for (const e of all) {
        expect(e.reproduce).toMatch(/^curl /);
        expect(e.request).toMatch(
          /\(request \d+ of seed 7, shrunk \d+ times?; replay: --fuzz 150 --seed 7\)$/,
        );
      }
    });

    it('reports the same failures for the same seed', async () => {
      const again = await checkCli([...args(url), '--reporter', 'json']);
      const { outcome } = fuzzResult(again.out);
      expect([outcome.evidence, ...(outcome.more ?? [])]).toEqual(all);
    }, 120_000);
  });

  it('reports at most 10 distinct failures, then stops and says after how many requests', async () => {
    const server = await serve(crashesOnEverything);
    const { code, out } = await checkCli([
      '--base-url',
      server.url,
      '--fuzz',
      '400',
      '--seed',
      '2',
      ...FUZZ_ONLY,
      '--reporter',
      'json',
    ]);
    expect(code).toBe(1);
    const { outcome } = fuzzResult(out);
    const all = [outcome.evidence, ...(outcome.more ?? [])];
    expect(all).toHaveLength(10);
    expect(new Set(all.map(causeOf)).size).toBe(10);
    const { fuzz } = JSON.parse(out);
    expect(fuzz.judged).toBeLessThan(400);
    expect(fuzz.stoppedEarly).toBe(
      `fuzz stopped after ${fuzz.judged} of 400 generated requests: 10 distinct failures were found`,
    );
  }, 120_000);

  it('says in the coverage gate that the fuzz stopped at the deadline, after how many requests', async () => {
    const args = [
      ...['--base-url', mock.url, '--fuzz', '100000', '--seed', '4', '--deadline', '0.5'],
      ...FUZZ_ONLY,
    ];
    const gate = ['--min-coverage', '100'];
    const json = await checkCli([...args, ...gate, '--reporter', 'json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.out);
    const stopped = `fuzz stopped after ${report.fuzz.judged} of 100000 generated requests: the run's deadline passed`;
    expect(report.fuzz.stoppedEarly).toBe(stopped);
    expect(report.coverage.met).toBe(false);
    expect(report.coverage.cutShort).toBe(stopped);
    const { evidence, more } = fuzzResult(json.out).outcome;
    expect([evidence, ...(more ?? [])].at(-1)?.got).toBe(
      `the run's deadline passed after ${report.fuzz.judged} of 100000 generated requests`,
    );
    const pretty = await checkCli([...args, ...gate]);
    expect(pretty.out).toMatch(
      /^ {2}FAIL {2}coverage [\d.]+% is under --min-coverage 100; fuzz stopped after \d+ of 100000 generated requests: the run's deadline passed$/m,
    );
    expect(pretty.out).toMatch(
      /\(under --min-coverage 100; fuzz stopped after \d+ of 100000 generated requests: the run's deadline passed\)/,
    );
    const junit = await checkCli([...args, ...gate, '--reporter', 'junit']);
    expect(junit.out).toMatch(
      /name="COVERAGE[^>]*>\s*<failure [^>]*>[^<]*; fuzz stopped after \d+ of 100000 generated requests: the run's deadline passed/,
    );
  }, 60_000);
});

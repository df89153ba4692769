import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../contract/suite/run-suite.ts';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { createApp } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import { type RunningPrism, startPrism } from '../../src/prism.ts';
import { MUTANTS } from '../mutants/mutants.ts';
import { checkCli, type EveryReport, everyReport, hrmockCli } from '../support/check-cli.ts';
import { refusingPort } from '../support/refusing-port.ts';
import { tempDir } from '../support/temp-dir.ts';

const exampleTarget = fileURLToPath(new URL('fixtures/example-target.json', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/hrmock.js', import.meta.url));
const SECRET = 'do-not-print-3f9a';
// The example target names its key as ${HRMOCK_TEST_KEY}, as a real one keeps secrets out of files.
process.env.HRMOCK_TEST_KEY = 'example-key';
const fixtures = buildFixtures({ profiles: 400, jobs: 120 });

const check = checkCli;

function failedRules(out: string): string[] {
  return [...out.matchAll(/^ {2}FAIL {2}(\S+)/gm)].map((m) => m[1] as string).sort();
}

const servers: { close: () => Promise<void> }[] = [];
let mock: RunningServer;
let locked: RunningServer;
let broken: RunningServer;
let prismMock: RunningPrism;

beforeAll(async () => {
  mock = await startServer(createApp({ data: fixtures, log: false }));
  locked = await startServer(createApp({ data: fixtures, log: false, apiKey: SECRET }));
  const mutant = MUTANTS.find((m) => m.rule === 'GRD-DEFAULT') as (typeof MUTANTS)[number];
  const app = createApp({ data: fixtures, log: false });
  const wrapped = mutant.wrap?.(async (r) => app.fetch(r)) as (r: Request) => Promise<Response>;
  broken = await startServer(app, { fetch: wrapped });
  prismMock = await startPrism({ mode: 'mock' });
  servers.push(mock, locked, broken, { close: prismMock.stop });
});

afterAll(async () => {
  for (const server of servers) await server.close();
});

// Each full run takes seconds: the tests that read one run's reports share it.
let ofMock: Promise<EveryReport> | undefined;
let ofPrismMock: Promise<EveryReport> | undefined;
const mockRun = () => {
  ofMock ??= everyReport(['--base-url', mock.url]);
  return ofMock;
};
const prismMockRun = () => {
  ofPrismMock ??= everyReport(['--base-url', prismMock.url, '--target', exampleTarget]);
  return ofPrismMock;
};

describe('hrmock check', () => {
  it('passes every rule against the mock on a port, and exits 0', async () => {
    const { code, out } = await mockRun();
    expect(failedRules(out)).toEqual([]);
    expect(out).toMatch(
      new RegExp(`${RULES.length} rules: ${RULES.length} passed, 0 failed, 0 skipped in [\\d.]+ s`),
    );
    expect(code).toBe(0);
  });

  it('passes every rule against a base URL ending in /v1, as real deployments have', async () => {
    const v1 = await startServer(createApp({ data: fixtures, log: false, basePath: '/v1' }));
    servers.push(v1);
    const { code, out } = await check(['--base-url', `${v1.url}/v1`]);
    expect(failedRules(out)).toEqual([]);
    expect(code).toBe(0);
  });

  it('passes against the mock it starts itself when --base-url is absent', async () => {
    // The rules' verdicts on this mock are the first test's; here, the mock it starts and finds.
    const { code, out } = await check(['--rule', 'DEFAULTS', '--rule', 'GRD-DEFAULT']);
    expect(out).toMatch(/2 rules: 2 passed, 0 failed, 0 skipped/);
    expect(code).toBe(0);
  });

  it('passes PRISM, with the traffic of rules calling every operation through prism proxy', async () => {
    // Prism validates each exchange at length: rules that call every operation, 2xx and 4xx.
    const rules = ['DEFAULTS', 'BAD-INPUT', 'GRD-FULL', 'ROUTES', 'PRISM'];
    const args = ['--base-url', mock.url, '--via-prism', ...rules.flatMap((r) => ['--rule', r])];
    const { code, out, json } = await everyReport(args);
    expect(out).toMatch(/pass {2}PRISM/);
    expect(failedRules(out)).toEqual([]);
    const { coverage } = JSON.parse(json) as {
      coverage: { operations: { operationId: string; statuses: Record<string, number> }[] };
    };
    const unanswered = coverage.operations.filter((o) => !(Number(o.statuses['200']) > 0));
    expect(unanswered.map((o) => o.operationId)).toEqual([]);
    expect(coverage.operations).toHaveLength(12);
    expect(code).toBe(0);
  }, 60_000);

  it('lists the rules a schema-only mock (prism mock) fails', async () => {
    const { code, out } = await prismMockRun();
    expect(failedRules(out)).toEqual([
      'BAD-INPUT',
      'CROSS-PARAM',
      'ENV',
      'FILTERS',
      'GRD-ALIGN',
      'GRD-FULL',
      'PAGE',
      'REFUSALS',
      'ROUTES',
    ]);
    expect(code).toBe(1);
  });

  it('exits 1 and names the rule against a broken server', async () => {
    const { code, out } = await check(['--base-url', broken.url, '--rule', 'GRD-DEFAULT']);
    expect(failedRules(out)).toEqual(['GRD-DEFAULT']);
    expect(out).toMatch(/request: {2}GET \/profiles\/grading\?/);
    expect(code).toBe(1);
  });

  it('reads header values from the environment and never prints them', async () => {
    process.env.HRMOCK_CHECK_KEY = SECRET;
    // One rule is enough to show the key reached the server: without it, every answer is a 401.
    const { code, out, err } = await check([
      '--base-url',
      locked.url,
      '--header',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax itself is under test
      'X-API-KEY=${HRMOCK_CHECK_KEY}',
      '--rule',
      'GRD-DEFAULT',
    ]);
    expect(out).toMatch(/^1 rule: 1 passed, 0 failed/m);
    expect(code).toBe(0);
    expect(out + err).not.toContain(SECRET);
  });

  it('fails the rules when the key is missing, still without printing it', async () => {
    const { code, out } = await check(['--base-url', locked.url, '--target', exampleTarget]);
    expect(code).toBe(1);
    expect(out).not.toContain(SECRET);
  });

  // Prism mock answers slowly (it validates each exchange and makes up each answer): the rules
  // the example keys make pass, and two that fail, in place of a second whole run.
  it('passes the rules on the example keys on prism mock with the target hrmock target --from-contract writes, as with the one written by hand', async () => {
    const file = join(await tempDir('prism-target'), 'target.json');
    const made = await hrmockCli(['target', '--from-contract', '--out', file]);
    expect(made.code).toBe(0);
    const verdicts = (json: string): Record<string, string> =>
      Object.fromEntries(
        (
          JSON.parse(json) as { results: { id: string; outcome: { status: string } }[] }
        ).results.map((r) => [r.id, r.outcome.status]),
      );
    const passing = ['GRD-DEFAULT', 'POST-EQ', 'GET-KEPT', 'PRED', 'STABLE'];
    const run = [...passing, 'GRD-FULL', 'PAGE'];
    const narrowed = run.flatMap((id) => ['--rule', id]);
    const generated = await everyReport([
      '--base-url',
      prismMock.url,
      '--target',
      file,
      ...narrowed,
    ]);
    const got = verdicts(generated.json);
    expect(Object.keys(got).sort()).toEqual([...run].sort());
    for (const id of passing) expect([id, got[id]]).toEqual([id, 'pass']);
    const byHand = verdicts((await prismMockRun()).json);
    expect(got).toEqual(Object.fromEntries(Object.keys(got).map((id) => [id, byHand[id]])));
  });

  it('writes JUnit XML with one test case per rule', async () => {
    const { code, junit: xml } = await prismMockRun();
    expect(code).toBe(1);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => name === 'testcase',
    }).parse(xml);
    const suites = parsed.testsuites.testsuite as {
      '@_name': string;
      testcase: { '@_name': string; failure?: unknown }[];
    }[];
    const cases = suites.flatMap((suite) => suite.testcase);
    expect(cases.map((c) => c['@_name'].split(':')[0])).toEqual(
      RULES.filter((r) => r.id !== 'ADDITIVE')
        .map((r) => r.id)
        .concat('ADDITIVE'),
    );
    expect(cases.filter((c) => c.failure !== undefined)).toHaveLength(9);
  });

  it('reports ADDITIVE in JUnit as a suite of its own, about the contract documents', async () => {
    const parsed = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => name === 'testcase',
    }).parse((await mockRun()).junit);
    const suites = parsed.testsuites.testsuite as { '@_name': string; testcase: unknown[] }[];
    expect(suites.map((s) => [s['@_name'].split(' (')[0], s.testcase.length])).toEqual([
      [`contract rules at ${mock.url}`, RULES.length - 1],
      ['contract documents', 1],
    ]);
  });

  it('shows ADDITIVE after the server rules, under the contract documents heading', async () => {
    const { out } = await mockRun();
    const lines = out.split('\n');
    const heading = lines.findIndex((l) => l.startsWith('contract documents ('));
    const ruleLines = lines.map((l, i) => [l.match(/^ {2}(?:pass|FAIL|skip) {2}(\S+)/)?.[1], i]);
    const after = ruleLines.filter(([id, i]) => id !== undefined && (i as number) > heading);
    expect(heading).toBeGreaterThan(0);
    expect(after.map(([id]) => id)).toEqual(['ADDITIVE']);
    expect(lines[heading]).toMatch(/whatever the base URL/);
  });

  it('writes a JSON report with every rule', async () => {
    const report = JSON.parse((await mockRun()).json);
    expect(report.results.map((r: { id: string }) => r.id)).toEqual(RULES.map((r) => r.id));
    expect(report.passed).toBe(RULES.length);
  });

  it('marks ADDITIVE in the JSON report as a check of the contract documents, not the server', async () => {
    const subjects = JSON.parse((await mockRun()).json).results.map(
      (r: { id: string; subject: string }) => [r.id, r.subject],
    );
    expect(subjects).toEqual(
      RULES.map((r) => [r.id, r.id === 'ADDITIVE' ? 'documents' : 'server']),
    );
  });

  it('exits 2 with one line when the base URL cannot be reached', async () => {
    // Bound and never listening (port 9 would not do: fetch refuses it unasked).
    const closed = refusingPort();
    const { code, err } = await check(['--base-url', closed.url]);
    expect(code).toBe(2);
    expect(err).toBe(
      `hrmock: cannot reach ${closed.url}: Error: connect ECONNREFUSED 127.0.0.1:${closed.port}\n`,
    );
  });

  it('exits 2 when a deployment serves no target and none is given', async () => {
    const { code, err } = await check(['--base-url', prismMock.url]);
    expect(code).toBe(2);
    expect(err).toMatch(/pass --target FILE/);
  });

  it('exits 2 on a target file that names no keys', async () => {
    const dir = await tempDir('target');
    const file = join(dir, 'target.json');
    await writeFile(file, JSON.stringify({ profiles: { source_keys: ['nope'] }, jobs: {} }));
    const { code, err } = await check(['--base-url', mock.url, '--target', file]);
    expect(code).toBe(2);
    expect(err).toMatch(/profiles\.algorithm_key must be a non-empty string/);
  });

  it('exits 2 on a header variable that is not set', async () => {
    const { code, err } = await check([
      '--base-url',
      mock.url,
      '--header',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax itself is under test
      'X-API-KEY=${HRMOCK_UNSET_VARIABLE}',
    ]);
    expect(code).toBe(2);
    expect(err).toMatch(/HRMOCK_UNSET_VARIABLE/);
  });

  it('exits with the status of the check as a command (bin/hrmock.js)', async () => {
    const run = promisify(execFile);
    // The file that starts the command is the subject, not the rules: one will do.
    const checkOf = (url: string) => [bin, 'check', '--base-url', url, '--rule', 'GRD-DEFAULT'];
    const passing = await run(process.execPath, checkOf(mock.url));
    expect(passing.stdout).toMatch(/^1 rule: 1 passed, 0 failed/m);
    const failing = await run(process.execPath, checkOf(broken.url)).catch((e) => e);
    expect(failing.code).toBe(1);
  }, 60_000);
});

import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/suite/openapi.ts';
import { contractOperations } from '../../contract/suite/operation-inputs.ts';
import { type Report, runCheck } from '../../src/api/run-check.ts';
import type { RunningServer } from '../../src/node/server.ts';
import { type Fetch, MUTANTS } from '../mutants/mutants.ts';
import { checkCli, type EveryReport, everyReport, serveMock } from '../support/check-cli.ts';
import { nth } from '../support/json-reads.ts';

const operations = contractOperations(loadContract());
const getRemoved = MUTANTS.find((m) => m.rule === 'GET-KEPT')?.wrap as (f: Fetch) => Fetch;

let mock: RunningServer;
let withoutGet: RunningServer;
let unlimited: RunningServer;
/** A JSON report of a run that got going: it has its coverage. */
type CoveredReport = Report & { coverage: NonNullable<Report['coverage']> };

/**
 * What these tests read of a JUnit report, as fast-xml-parser gives it (attributes as `@_name`,
 * text as `#text`), with its lists kept as lists.
 */
type Junit = {
  testsuites: {
    testsuite: {
      properties: { property: { '@_name': string; '@_value': string }[] };
      testcase: { '@_name': string; failure?: { '#text': string } }[];
    }[];
  };
};

let report: CoveredReport;
/** The mock's one run, every report of it (each full run takes seconds). */
let ofMock: EveryReport;
let ofUnderGate: Promise<EveryReport> | undefined;
/** The one run of a conforming server that never answers 413, under `--min-coverage 99`. */
const underGate = () => {
  ofUnderGate ??= everyReport(['--base-url', unlimited.url, '--min-coverage', '99']);
  return ofUnderGate;
};

beforeAll(async () => {
  mock = await serveMock();
  withoutGet = await serveMock(getRemoved);
  // A conforming server with a larger body limit: it answers a body over 1 MB, so 413 never comes.
  unlimited = await serveMock((f) => f, { limits: { bodyBytes: 8 * 1024 * 1024 } });
  ofMock = await everyReport(['--base-url', mock.url]);
  report = JSON.parse(ofMock.json);
});

afterAll(async () => {
  await mock.close();
  await withoutGet.close();
  await unlimited.close();
});

describe('coverage', () => {
  it('lists every operation of the contract by operationId, both methods and both grading spellings', () => {
    expect(report.coverage.operations.map((o) => `${o.operationId} ${o.method} ${o.path}`)).toEqual(
      operations.map((o) => `${o.operationId} ${o.method} ${o.path}`),
    );
    expect(operations).toHaveLength(12);
    const paths = new Set(operations.map((o) => o.path));
    for (const path of ['/profiles/grading', '/profile/grading', '/jobs/grading', '/job/grading'])
      expect(paths).toContain(path);
  });

  it('counts each documented status of an operation, and the parameters sent', () => {
    const search = nth(
      report.coverage.operations.filter((o) => o.operationId === 'searchProfiles'),
      0,
    );
    expect(Object.keys(search.statuses)).toEqual(
      operations.find((o) => o.operationId === 'searchProfiles')?.statuses,
    );
    expect(search.statuses['200']).toBeGreaterThan(0);
    expect(search.statuses['400']).toBeGreaterThan(0);
    expect(search.parameters).toContain('source_keys');
    expect(search.unsentParameters).not.toContain('source_keys');
  });

  it('exercises all twelve operations with a 2xx and sends at least 80% of the parameters of each', () => {
    for (const op of report.coverage.operations) {
      const total = op.parameters.length + op.unsentParameters.length;
      expect(op.statuses['200'], op.operationId).toBeGreaterThan(0);
      expect(op.parameters.length / total, op.operationId).toBeGreaterThanOrEqual(0.8);
    }
  });

  it('gives p50 and p95 per operation in every reporter', () => {
    const { latency } = nth(report.coverage.operations, 0);
    if (latency === undefined) throw new Error('operation 0 has no latency');
    expect(latency.count).toBeGreaterThan(0);
    expect(latency.p95Ms).toBeGreaterThanOrEqual(latency.p50Ms);
    expect(ofMock.out).toMatch(/gradeProfiles .*; p50 [\d.]+ ms, p95 [\d.]+ ms$/m);
    expect(ofMock.junit).toMatch(
      /<property name="latency\.gradeProfiles\.p95" value="[\d.]+ ms"\/>/,
    );
  });

  it('gives the percent of the counted operation x status pairs, leaving out what no request brings', () => {
    const { percent, exercised, counted, notCounted } = report.coverage;
    expect(percent).toBe(Math.floor((1000 * exercised) / counted) / 10);
    // The mock needs no key: its 401 cannot be brought about either.
    expect(notCounted.map((n) => n.status)).toEqual(['401', '402', '404', '429', '500']);
  });

  it('counts and brings 401 on a server that requires a key', async () => {
    const keyed = await serveMock((f) => f, { apiKey: 'coverage-key' });
    try {
      const args = ['--base-url', keyed.url, '--header', 'X-API-KEY=coverage-key'];
      const { code, out } = await checkCli([...args, '--reporter', 'json']);
      const { coverage }: CoveredReport = JSON.parse(out);
      expect(code).toBe(0);
      expect(coverage.notCounted.map((n) => n.status)).toEqual(['402', '404', '429', '500']);
      for (const op of coverage.operations)
        expect(op.statuses['401'], op.operationId).toBeGreaterThan(0);
      expect(coverage.percent).toBe(100);
    } finally {
      await keyed.close();
    }
  });

  it('gives the literal share of every documented pair too, the left-out statuses unexercised', () => {
    const { percentOfAll, exercisedOfAll, documented, exercised, counted } = report.coverage;
    expect(documented).toBe(operations.reduce((sum, o) => sum + o.statuses.length, 0));
    expect(documented).toBeGreaterThan(counted);
    // The mock answers none of 401, 402, 404 (on an operation) or 500: the two counts agree.
    expect(exercisedOfAll).toBe(exercised);
    expect(percentOfAll).toBe(Math.floor((1000 * exercisedOfAll) / documented) / 10);
    expect(percentOfAll).toBeLessThan(report.coverage.percent);
  });

  it('prints a compact table in the pretty report', () => {
    const { out } = ofMock;
    expect(out).toMatch(
      /^coverage: [\d.]+% of the operation x documented status pairs \(\d+ of \d+\)/m,
    );
    expect(out).toMatch(/^ {2}searchProfilesPost +POST \/profiles\/searching +200x\d+/m);
    expect(out).toMatch(/; coverage [\d.]+%$/m);
  });

  it('carries it in JUnit as properties, with a COVERAGE case under --min-coverage', async () => {
    const { code, junit } = await underGate();
    expect(code).toBe(1);
    const parsed: Junit = new XMLParser({
      ignoreAttributes: false,
      isArray: (n) => ['testcase', 'property', 'testsuite'].includes(n),
    }).parse(junit);
    const server = nth(parsed.testsuites.testsuite, 0);
    const properties = Object.fromEntries(
      server.properties.property.map((p) => [p['@_name'], p['@_value']]),
    );
    expect(Number(properties['coverage.percent'])).toBeLessThan(99);
    expect(properties['coverage.searchProfiles']).toMatch(
      /^GET \/profiles\/searching statuses 200=\d+/,
    );
    const gate = server.testcase.find((c) => c['@_name'].startsWith('COVERAGE'));
    expect(gate?.failure?.['#text']).toMatch(/reproduce: npx --no-install hrmock check --base-url/);
  });

  it('reaches 100% on the mock: every counted pair is one a request brings', () => {
    expect(report.coverage.percent).toBe(100);
  });

  it('exits 1 under --min-coverage and 0 at or over it, on a server that breaks no rule', async () => {
    const under = await underGate();
    expect(under.code).toBe(1);
    expect(under.out).toMatch(/\n( {2}pass .*\n)+/);
    expect(under.out).not.toMatch(/ FAIL {2}[A-Z]/);
    expect(under.out).toMatch(/FAIL {2}coverage [\d.]+% is under --min-coverage 99/);
    expect(under.out).toMatch(/searchProfilesPost .*not seen 413/);
    const over = await checkCli(['--base-url', unlimited.url, '--min-coverage', '90']);
    expect(over.code).toBe(0);
  });

  it('falls on a server that has dropped GET, under the threshold the mock meets', async () => {
    const { out } = await checkCli([
      '--base-url',
      withoutGet.url,
      '--reporter',
      'json',
      '--min-coverage',
      String(report.coverage.percent),
    ]);
    const { coverage } = JSON.parse(out);
    expect(coverage.percent).toBeLessThan(report.coverage.percent);
    expect(coverage.met).toBe(false);
  });

  it('is in the report runCheck gives, with the threshold applied', async () => {
    // The plumbing is the subject: one rule's requests cover less than all.
    const result = await runCheck({
      baseUrl: unlimited.url,
      minCoverage: 100,
      rules: ['DEFAULTS'],
    });
    expect(result.coverage?.percent).toBeLessThan(100);
    expect(result.coverage?.percent).toBeGreaterThan(0);
    expect(result.coverage?.met).toBe(false);
  });

  it.each(['-1', '101', 'most', ''])(
    'refuses --min-coverage %j, saying what to send',
    async (value) => {
      const { code, err } = await checkCli([`--min-coverage=${value}`]);
      expect(code).toBe(2);
      expect(err).toMatch(/--min-coverage takes a percentage from 0 to 100/);
    },
  );
});

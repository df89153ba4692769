import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asArray, at } from '../../contract/suite/json-shape.ts';
import { isObject, loadContract } from '../../contract/suite/openapi.ts';
import { ContractValidator } from '../../contract/suite/validator.ts';
import { createApp } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import { contractExampleData, contractExamplesForSpecmatic } from '../support/contract-examples.ts';
import { javaAvailable, specmatic } from '../support/specmatic.ts';

const contractFile = fileURLToPath(new URL('../../contract/openapi.yaml', import.meta.url));
const contract = loadContract();
const validator = new ContractValidator(contract);
const examples = contractExamplesForSpecmatic(contract);
const storeData = contractExampleData(contract);
const data = storeData as unknown as ExampleData;

type Item = { key: string; reference?: string; source_key?: string; board_key?: string };
type ExampleData = { sources: Item[]; boards: Item[]; profiles: Item[]; jobs: Item[] };

/** The values sent for `param`: a JSON array's items, or the one value. */
function sentValues(sent: Map<string, unknown>, param: string): unknown[] {
  const value = sent.get(param);
  if (Array.isArray(value)) return value;
  if (typeof value === 'string' && isJson(value)) {
    const parsed = JSON.parse(value);
    if (Array.isArray(parsed)) return parsed;
  }
  return value === undefined ? [] : [value];
}

/**
 * Whether the request named, in `param`, an object the mock's data does not hold: an unknown
 * source or board, or a profile or job not in the source or board sent with it.
 */
function namesNothing(param: string, sent: Map<string, unknown>): boolean {
  const values = sentValues(sent, param);
  const among = (items: Item[], field: 'key' | 'reference', container: Partial<Item>) =>
    values.some(
      (v) =>
        !items.some(
          (item) =>
            item[field] === v &&
            Object.entries(container).every(([k, c]) => item[k as keyof Item] === c),
        ),
    );
  const source = { source_key: sent.get('source_key') as string };
  const board = { board_key: sent.get('board_key') as string };
  switch (param) {
    case 'source_key':
    case 'source_keys':
      return among(data.sources, 'key', {});
    case 'board_key':
    case 'board_keys':
      return among(data.boards, 'key', {});
    case 'profile_key':
      return among(data.profiles, 'key', source);
    case 'profile_reference':
      return among(data.profiles, 'reference', source);
    case 'job_key':
      return among(data.jobs, 'key', board);
    case 'job_reference':
      return among(data.jobs, 'reference', board);
    default:
      return false;
  }
}

/** One request Specmatic sent and hrmock's answer, seen inside the server. */
type Exchange = {
  method: string;
  path: string;
  sent: Map<string, unknown>;
  status: number;
  body: unknown;
};
type ErrorEntry = { param: string; message: string };

/** Whether a parameter of that name carries JSON in a string (contentMediaType). */
function carriesJson(name: string): boolean {
  const parameter = Object.values(contract.components?.parameters ?? {}).find(
    (p) => isObject(p) && p.name === name,
  );
  return JSON.stringify(parameter ?? {}).includes('"contentMediaType":"application/json"');
}

/** The parameters grading and scoring need one of, as hrmock names them when none is sent. */
const ONE_OF_A_PAIR = ['job_key', 'profile_key', 'profile_ids', 'job_ids'];

function isRequired(name: string): boolean {
  return Object.values(contract.components?.parameters ?? {}).some(
    (p) => isObject(p) && p.name === name && p.required === true,
  );
}

function isJson(value: unknown): boolean {
  try {
    JSON.parse(String(value));
    return true;
  } catch {
    return false;
  }
}

/**
 * Why a request Specmatic generated (not one of the contract's examples) got a 400, each reason
 * a limit of Specmatic listed in docs/contract-rules.md. None is hrmock's: any other refusal is reported.
 */
const REASONS: {
  id: string;
  whose: 'Specmatic' | 'hrmock';
  explains: (error: ErrorEntry, exchange: Exchange) => boolean;
}[] = [
  {
    // The schema marks both of a pair optional; the operation's description requires one of them.
    id: 'left out a parameter the description requires (job_key or job_reference, ...)',
    whose: 'Specmatic',
    explains: (error, exchange) =>
      ONE_OF_A_PAIR.includes(error.param) &&
      !exchange.sent.has(error.param) &&
      !isRequired(error.param),
  },
  {
    id: 'sent a random word where a parameter carries JSON (contentSchema)',
    whose: 'Specmatic',
    explains: (error, exchange) =>
      carriesJson(error.param) && !isJson(exchange.sent.get(error.param)),
  },
  {
    id: 'made up a key that names nothing',
    whose: 'Specmatic',
    explains: (error, exchange) =>
      error.message.startsWith('Unable to find object') && namesNothing(error.param, exchange.sent),
  },
  {
    id: 'broke a relation between parameters the descriptions state',
    whose: 'Specmatic',
    explains: (error) =>
      /is (above|after) \S+: swap them|needs scores|the start is after the end/.test(error.message),
  },
];

/** Why hrmock refused a request: one reason per entry of its `errors`, or `unexplained: …`. */
function explain(exchange: Exchange): string[] {
  // Read as the contract's Error gives them; none when the answer has no list.
  const errors = (asArray(at(exchange.body, 'errors')) ?? []) as ErrorEntry[];
  if (exchange.status !== 400 || errors.length === 0) {
    return [`unexplained: ${exchange.status} ${JSON.stringify(exchange.body)}`];
  }
  return errors.map((e) => {
    const reason = REASONS.find((r) => r.explains(e, exchange));
    return reason === undefined
      ? `unexplained: ${exchange.method} ${exchange.path} ${e.param}: ${e.message}`
      : `${reason.whose}: ${reason.id}`;
  });
}

describe('the reasons a Specmatic failure may have', () => {
  const refusal = (sent: Record<string, unknown>, error: ErrorEntry): Exchange => ({
    method: 'GET',
    path: '/profiles/searching',
    sent: new Map(Object.entries(sent)),
    status: 400,
    body: { code: 400, message: 'Invalid parameters.', errors: [error] },
  });

  it('excuse a source_keys that Specmatic filled with a random word', () => {
    const exchange = refusal(
      { source_keys: 'WUJWP' },
      { param: 'source_keys', message: 'source_keys must be a JSON array of source keys' },
    );
    expect(explain(exchange)).toEqual([
      'Specmatic: sent a random word where a parameter carries JSON (contentSchema)',
    ]);
  });

  it('do not excuse a refusal of a parameter the contract lets a client leave out', () => {
    const exchange = refusal(
      { source_keys: '["a"]' },
      { param: 'page', message: 'page is required' },
    );
    expect(explain(exchange)[0]).toMatch(/^unexplained: GET \/profiles\/searching page/);
  });

  it('excuse "Unable to find object" for a key the data does not hold', () => {
    const exchange = refusal(
      { source_keys: JSON.stringify([data.sources[0]?.key, 'made-up']) },
      { param: 'source_keys', message: 'Unable to find object: source made-up. Known sources: …' },
    );
    expect(explain(exchange)).toEqual(['Specmatic: made up a key that names nothing']);
  });

  it('do not excuse "Unable to find object" for keys the data holds', () => {
    const profile = data.profiles[0] as Item;
    const exchange = refusal(
      { source_key: profile.source_key, profile_key: profile.key },
      {
        param: 'profile_key',
        message: `Unable to find object: profile ${profile.key} in source …`,
      },
    );
    expect(explain(exchange)[0]).toMatch(/^unexplained: GET \/profiles\/searching profile_key/);
    const sources = refusal(
      { source_keys: JSON.stringify(data.sources.map((s) => s.key)) },
      { param: 'source_keys', message: 'Unable to find object: source …' },
    );
    expect(explain(sources)[0]).toMatch(/^unexplained/);
  });

  it('do not excuse a refusal of valid JSON', () => {
    const exchange = refusal(
      { source_keys: '["12feac8fdc9c3b5f6c463c8f3a705d17d2581331"]' },
      { param: 'source_keys', message: 'source_keys must be a JSON array of source keys' },
    );
    expect(explain(exchange)[0]).toMatch(/^unexplained/);
  });
});

type TestCase = { name: string; failed: boolean };

describe.skipIf(!javaAvailable())(
  "Specmatic's test against the mock, with the contract's examples",
  () => {
    const exchanges: Exchange[] = [];
    let server: RunningServer;
    let dir: string;
    let cases: TestCase[];

    beforeAll(async () => {
      const app = createApp({ data: storeData, log: false });
      const recording = async (request: Request) => {
        const url = new URL(request.url);
        const text = request.method === 'POST' ? await request.clone().text() : '';
        const response = await app.fetch(request);
        const body = await response
          .clone()
          .json()
          .catch(() => null);
        const sent = new Map<string, unknown>(url.searchParams);
        if (text !== '' && isJson(text)) {
          const parsed = JSON.parse(text);
          if (isObject(parsed)) for (const [k, v] of Object.entries(parsed)) sent.set(k, v);
        }
        exchanges.push({
          method: request.method,
          path: url.pathname,
          sent,
          status: response.status,
          body,
        });
        return response;
      };
      server = await startServer(app, { fetch: recording, answerCacheBytes: 0 });
      dir = await mkdtemp(join(tmpdir(), 'hrmock-specmatic-test-'));
      await mkdir(join(dir, 'examples'));
      for (const { name, ...example } of examples) {
        await writeFile(join(dir, 'examples', `${name}.json`), JSON.stringify(example, null, 2));
      }
      const started = performance.now();
      await specmatic(
        [
          'test',
          contractFile,
          '--examples',
          join(dir, 'examples'),
          '--testBaseURL',
          server.url,
          '--junitReportDir',
          join(dir, 'junit'),
        ],
        // One test per example: without this Specmatic multiplies each into thousands of variants.
        { cwd: dir, env: { MAX_TEST_REQUEST_COMBINATIONS: '1' } },
      );
      const xml = await readFile(join(dir, 'junit', 'TEST-junit-jupiter.xml'), 'utf8');
      const parsed = new XMLParser({
        ignoreAttributes: false,
        isArray: (name) => name === 'testcase',
      }).parse(xml);
      cases = (parsed.testsuite.testcase as { '@_name': string; failure?: unknown }[]).map((c) => ({
        name: c['@_name'],
        failed: c.failure !== undefined,
      }));
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(
        `Specmatic test: ${cases.length} tests, ${cases.filter((c) => !c.failed).length} passed, in ${seconds} s\n`,
      );
    }, 300_000);

    afterAll(async () => {
      await server?.close();
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    });

    const contractPaths = (x: Exchange) =>
      /^\/(profiles?|jobs?)\/(grading|searching|scoring)$/.test(x.path);

    it('builds one Specmatic example from the contract per operation', () => {
      const operations = Object.values(contract.paths ?? {}).flatMap((item) =>
        ['get', 'post'].filter((method) => isObject(item) && method in item),
      );
      expect(operations).toHaveLength(12);
      expect(examples.map((e) => e.name)).toHaveLength(operations.length);
    });

    it("passes every test built from the contract's own examples", () => {
      const fromExamples = cases.filter((c) => /'contract-(get|post)-/.test(c.name));
      expect(fromExamples).toHaveLength(examples.length);
      expect(fromExamples.filter((c) => c.failed).map((c) => c.name)).toEqual([]);
    });

    it('gets from hrmock only answers the contract allows', () => {
      const sent = exchanges.filter(contractPaths);
      expect(sent.length).toBeGreaterThanOrEqual(cases.length);
      const invalid = sent
        .map(
          (x) =>
            [
              x,
              validator.validateResponse(x.path, x.method.toLowerCase(), x.status, x.body),
            ] as const,
        )
        .filter(([, verdict]) => !verdict.ok)
        .map(([x, verdict]) => `${x.method} ${x.path} ${x.status}: ${JSON.stringify(verdict)}`);
      expect(invalid).toEqual([]);
    });

    it("fails only generated tests, each for a reason docs/contract-rules.md gives, or hrmock's listed one", () => {
      const refused = exchanges.filter((x) => contractPaths(x) && x.status !== 200);
      expect(refused).toHaveLength(cases.filter((c) => c.failed).length);
      const reasons = refused.flatMap(explain);
      const counts = new Map<string, number>();
      for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
      process.stdout.write(
        `Specmatic test failures by reason:\n${[...counts].map(([r, n]) => `  ${n} × ${r}`).join('\n')}\n`,
      );
      expect(reasons.filter((r) => r.startsWith('unexplained'))).toEqual([]);
    });
  },
);

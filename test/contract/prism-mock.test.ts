import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadContract } from '../../contract/suite/openapi.ts';
import { RULES } from '../../contract/suite/run-suite.ts';
import { ContractValidator } from '../../contract/suite/validator.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { type RunningPrism, startPrism } from '../../src/prism.ts';
import { checkCli } from '../support/check-cli.ts';
import { CONTRACT_REQUESTS, toRequest, without } from '../support/contract-requests.ts';
import { tempDir } from '../support/temp-dir.ts';

const validator = new ContractValidator(loadContract());
let prism: RunningPrism;

beforeAll(async () => {
  prism = await startPrism({ mode: 'mock' });
});

afterAll(async () => {
  await prism?.stop();
});

describe('prism mock contract/openapi.yaml', () => {
  it('covers the twelve operations of the contract', () => {
    expect(new Set(CONTRACT_REQUESTS.map((r) => r.operationId)).size).toBe(12);
  });

  it.each(CONTRACT_REQUESTS.map((r) => [r.operationId, r] as const))(
    'answers %s with a 200 that validates against the contract',
    async (_, request) => {
      const response = await fetch(toRequest(prism.url, request));
      const body = await response.json();
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect(validator.validateResponse(request.path, request.method, 200, body)).toEqual({
        ok: true,
      });
    },
  );

  it.each(CONTRACT_REQUESTS.map((r) => [r.operationId, r.required, r] as const))(
    'answers %s without %s with a 4xx that validates against the contract',
    async (_, name, request) => {
      const response = await fetch(toRequest(prism.url, request, without(request.params, name)));
      const body = await response.json();
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(
        validator.validateResponse(request.path, request.method, response.status, body),
      ).toEqual({
        ok: true,
      });
      expect(response.headers.get('sl-violations') ?? '').toContain(name);
    },
  );
});

describe('null in a POST body, as the Python SDK sends what it leaves unset', () => {
  const nulls = {
    order_by: null,
    sort_by: null,
    page: null,
    limit: null,
    stage: null,
    text_keywords: null,
    location_geopoint: null,
  };

  it.each(
    CONTRACT_REQUESTS.filter((r) => r.method === 'post').map((r) => [r.operationId, r] as const),
  )('is valid for %s under the contract (prism mock answers 200)', async (_, request) => {
    const response = await fetch(
      toRequest(prism.url, request, { ...request.params, ...nulls, algorithm_key: null }),
    );
    expect(response.status, response.headers.get('sl-violations') ?? '').toBe(200);
  });
});

describe('hrmock check against prism mock, on the target of hrmock target --from-contract', () => {
  /** Each rule's verdict, by id, of `hrmock check` on prism mock with this target file. */
  async function verdicts(target: string): Promise<Record<string, string>> {
    const { out } = await checkCli([
      '--base-url',
      prism.url,
      '--target',
      target,
      '--reporter',
      'json',
    ]);
    const report = JSON.parse(out);
    expect(report.error).toBeUndefined();
    return Object.fromEntries(
      report.results.map((r: { id: string; outcome: { status: string } }) => [
        r.id,
        r.outcome.status,
      ]),
    );
  }

  it('runs every rule, those on the example keys passing', async () => {
    const file = join(await tempDir('prism-target'), 'target.json');
    const quiet = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const made = await runCli(['target', '--from-contract', '--out', file]).finally(() =>
      quiet.mockRestore(),
    );
    expect(made).toBe(0);
    const got = await verdicts(file);
    expect(Object.keys(got)).toEqual(RULES.map((r) => r.id));
    for (const id of ['GRD-DEFAULT', 'GET-KEPT', 'POST-EQ', 'STABLE', 'PRED'])
      expect([id, got[id]]).toEqual([id, 'pass']);
    // The same verdicts as the target written by hand for it (check.test.ts lists the failures).
    process.env.HRMOCK_TEST_KEY = 'example-key';
    const byHand = fileURLToPath(new URL('fixtures/example-target.json', import.meta.url));
    expect(got).toEqual(await verdicts(byHand));
  });
});

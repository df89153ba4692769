import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/suite/openapi.ts';
import { ContractValidator } from '../../contract/suite/validator.ts';
import { type RunningPrism, startPrism } from '../../src/prism.ts';
import { CONTRACT_REQUESTS, toRequest, without } from '../support/contract-requests.ts';

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

// hrmock check against prism mock, on the target hrmock target --from-contract writes: check.test.ts,
// beside its run on the target written by hand.

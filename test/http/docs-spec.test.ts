import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../contract/suite/json-shape.ts';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { createApp } from '../../src/http/app.ts';
import { nth } from '../support/json-reads.ts';

/** What these tests read of an operation in the document /docs serves (its `$ref`s inlined). */
type DocOperation = {
  parameters: {
    name: string;
    $ref?: string;
    example?: string;
    description?: string;
    schema: JsonObject;
  }[];
  requestBody?: {
    content: { 'application/json': { examples: Record<string, { value: unknown }> } };
  };
};
type DocSpec = { paths: Record<string, Record<string, DocOperation>> };

const app = createApp({ data: buildFixtures({ profiles: 80, jobs: 20 }), log: false });
const spec: DocSpec = await (await app.request('/docs/openapi.json')).json();
type Operation = { path: string; method: string; op: DocOperation };
const operations: Operation[] = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => !method.startsWith('x-'))
    .map(([method, op]) => ({ path, method, op })),
);

describe('the contract as /docs shows it', () => {
  it('has twelve operations, every parameter a plain field with no file-picker schema', () => {
    expect(operations).toHaveLength(12);
    for (const { path, method, op } of operations)
      for (const parameter of op.parameters) {
        const where = `${method} ${path} ${parameter.name}`;
        expect(parameter.$ref, where).toBeUndefined();
        expect(parameter.schema.anyOf, where).toBeUndefined();
        expect(parameter.schema.contentMediaType, where).toBeUndefined();
        expect(parameter.schema.default, where).toBeUndefined();
        // An enum is a list to pick from; any other field shows a value or a typed example.
        expect(
          parameter.example !== undefined ||
            Array.isArray(parameter.schema.enum) ||
            /Example: `/.test(parameter.description ?? ''),
          `${where} shows no example`,
        ).toBe(true);
      }
  });

  it.each(operations.map((o) => [o.method.toUpperCase(), o.path, o] as const))(
    'answers %s %s with its pre-filled values with a 200',
    async (method, path, { op }) => {
      let response: Response;
      if (method === 'GET') {
        const query = new URLSearchParams();
        for (const parameter of op.parameters)
          if (parameter.example !== undefined) query.set(parameter.name, parameter.example);
        response = await app.request(`${path}?${query}`);
      } else {
        const examples = Object.values(op.requestBody?.content['application/json'].examples ?? {});
        expect(examples).toHaveLength(1);
        const body = nth(examples, 0).value;
        response = await app.request(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      }
      expect(response.status, await response.clone().text()).toBe(200);
    },
  );

  it('pre-fills one grading mode, the batch, and leaves the single one empty', () => {
    const grading = operations.filter((o) => o.path.endsWith('/grading'));
    expect(grading).toHaveLength(4);
    for (const { path, op } of grading) {
      const filled = op.parameters
        .filter((p) => p.example !== undefined)
        .map((p) => p.name)
        .sort();
      expect(filled, path).toEqual(
        path.includes('/profile')
          ? ['algorithm_key', 'board_key', 'job_key', 'profile_ids']
          : ['algorithm_key', 'job_ids', 'profile_key', 'source_key'],
      );
    }
  });

  it('leaves the contract served at /openapi.json as it is', async () => {
    const contract = await (await app.request('/openapi.json')).json();
    expect(JSON.stringify(contract)).toContain('contentMediaType');
    expect(contract.paths['/profiles/grading'].get.parameters[0].$ref).toBeDefined();
  });
});

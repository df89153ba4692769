import { describe, expect, it } from 'vitest';
import { asObject, at, toList } from '../../contract/suite/json-shape.ts';
import {
  deref,
  isObject,
  type JsonObject,
  loadContract,
  parametersOf,
} from '../../contract/suite/openapi.ts';
import { ALL_OPERATIONS } from '../../contract/suite/operations.ts';
import { targetOf } from '../../src/hr/target.ts';
import { mockApp, query } from '../support/mock-app.ts';

// OpenAPI's `default` is what the server assumes when a parameter is left out, so sending the
// default must change nothing. Generic clients and generated SDKs send defaults explicitly.
const doc = loadContract();
const { app } = mockApp();
const t = { headers: {}, ...targetOf(app.state.store) };

/** A schema's default, or that of a member of its `anyOf` (a body field that may be null). */
function defaultOf(schema: unknown): unknown {
  const resolved = deref(doc, schema);
  if (!isObject(resolved)) return undefined;
  if (resolved.default !== undefined) return resolved.default;
  const members = Array.isArray(resolved.anyOf) ? resolved.anyOf : [];
  return members.map(defaultOf).find((value) => value !== undefined);
}

/** An object schema and the ones it takes in by `allOf`, `$ref`s resolved. */
function objectParts(schema: unknown): JsonObject[] {
  const resolved = deref(doc, schema);
  if (!isObject(resolved)) return [];
  const all = Array.isArray(resolved.allOf) ? resolved.allOf : [];
  return [resolved, ...all.flatMap(objectParts)];
}

/** Every optional parameter with a default, for GET (query) and POST (body) alike. */
const cases = ALL_OPERATIONS.flatMap((op) => {
  const found: [string, string, string, unknown][] = [];
  for (const parameter of parametersOf(doc, op.path, 'get')) {
    const value = defaultOf(parameter.schema);
    if (!parameter.required && parameter.in === 'query' && value !== undefined)
      found.push([op.id, 'GET', parameter.name, value]);
  }
  const post = doc.paths[op.path]?.post;
  const parts = objectParts(at(post, 'requestBody', 'content', 'application/json', 'schema'));
  const required = new Set(parts.flatMap((part) => toList(part.required)));
  for (const part of parts) {
    for (const [name, schema] of Object.entries(asObject(part.properties) ?? {})) {
      const value = defaultOf(schema);
      if (!required.has(name) && value !== undefined) found.push([op.id, 'POST', name, value]);
    }
  }
  return found;
});

async function answer(path: string, method: string, params: Record<string, unknown>) {
  const response =
    method === 'GET'
      ? await app.request(`${path}?${query(params)}`)
      : await app.request(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(params),
        });
  return { status: response.status, body: await response.json() };
}

describe("the contract's defaults are the mock's defaults", () => {
  it('finds defaults to check on GET and POST', () => {
    expect(cases.filter((c) => c[1] === 'GET').length).toBeGreaterThanOrEqual(12);
    expect(cases.filter((c) => c[1] === 'POST').length).toBeGreaterThanOrEqual(12);
  });

  it.each(cases)(
    '%s %s: sending %s = %j answers as leaving it out',
    async (id, method, name, value) => {
      const op = ALL_OPERATIONS.find((o) => o.id === id);
      if (op === undefined) throw new Error(`no operation ${id}`);
      const base = op.params(t);
      const without = await answer(op.path, method, base);
      expect(without.status).toBe(200);
      expect(await answer(op.path, method, { ...base, [name]: value })).toEqual(without);
    },
  );
});

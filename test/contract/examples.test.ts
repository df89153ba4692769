import { describe, expect, it } from 'vitest';
import {
  deref,
  isObject,
  loadContract,
  loadHistory,
  type OpenApiDoc,
  operations,
} from '../../contract/suite/openapi.ts';
import { ContractValidator } from '../../contract/suite/validator.ts';
import { listAt, nth, objAt } from '../support/json-reads.ts';

type ExampleCase = [name: string, pointer: string, value: unknown];

/** Every response, request-body and parameter example of a document, with its schema's pointer. */
function examplesOf(doc: OpenApiDoc): ExampleCase[] {
  const cases: ExampleCase[] = [];
  for (const { path, method, operation } of operations(doc)) {
    const responses = isObject(operation.responses) ? operation.responses : {};
    for (const [status, raw] of Object.entries(responses)) {
      collect(doc, raw, `${method.toUpperCase()} ${path} ${status}`, cases);
    }
    if (operation.requestBody !== undefined) {
      collect(doc, operation.requestBody, `${method.toUpperCase()} ${path} body`, cases);
    }
  }
  for (const [name, parameter] of Object.entries(doc.components?.parameters ?? {})) {
    if (isObject(parameter) && parameter.example !== undefined) {
      cases.push(parameterCase(name, parameter.schema, parameter.example));
    }
  }
  return cases;
}

function collect(doc: OpenApiDoc, raw: unknown, label: string, cases: ExampleCase[]): void {
  const resolved = deref(doc, raw);
  if (!isObject(resolved) || !isObject(resolved.content)) return;
  const media = resolved.content['application/json'];
  if (!isObject(media) || !isObject(media.schema) || !isObject(media.examples)) return;
  const schemaRef = media.schema.$ref;
  if (typeof schemaRef !== 'string') throw new Error(`${label}: schema is not a $ref`);
  for (const [name, example] of Object.entries(media.examples)) {
    const value = deref(doc, example) as { value: unknown };
    cases.push([`${label} example ${name}`, schemaRef, value.value]);
  }
}

/**
 * A query example is the raw string a client sends. When the parameter carries JSON, the decoded
 * value is checked against its `contentSchema` (which JSON Schema validators only annotate).
 */
function parameterCase(name: string, schema: unknown, example: unknown): ExampleCase {
  const base = `#/components/parameters/${name}/schema`;
  if (!isObject(schema)) return [`parameter ${name}`, base, example];
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : [schema];
  const index = branches.findIndex((b) => isObject(b) && b.contentSchema !== undefined);
  if (index < 0) return [`parameter ${name}`, base, example];
  const pointer = Array.isArray(schema.anyOf)
    ? `${base}/anyOf/${index}/contentSchema`
    : `${base}/contentSchema`;
  return [`parameter ${name} (decoded JSON)`, pointer, JSON.parse(String(example))];
}

const documents: [string, OpenApiDoc][] = [
  ['openapi.yaml', loadContract()],
  ...loadHistory().map((h): [string, OpenApiDoc] => [`history/${h.name}`, h.doc]),
];

describe.each(documents)('every example in %s', (_, doc) => {
  const validator = new ContractValidator(doc);
  const cases = examplesOf(doc);

  it('has an example for each operation', () => {
    const labels = cases.map(([label]) => label);
    for (const { path, method } of operations(doc)) {
      expect(labels.some((l) => l.startsWith(`${method.toUpperCase()} ${path} 200`))).toBe(true);
    }
  });

  it.each(cases)('%s validates against its schema', (_, pointer, value) => {
    const result = validator.validateAt(pointer, value);
    expect(result.ok ? [] : result.errors).toEqual([]);
  });
});

describe('the contract validator', () => {
  const doc = loadContract();
  const validator = new ContractValidator(doc);
  const example = objAt(deref(doc, { $ref: '#/components/examples/ProfilesGradingOk' }), 'value');

  it('rejects a grading answer whose default item carries a field beyond the minimal set', () => {
    const broken = structuredClone(example);
    objAt(nth(listAt(broken, 'data', 'profiles'), 0)).text =
      'a full profile leaking into a minimal answer';
    const result = validator.validateResponse('/profiles/grading', 'get', 200, broken);
    expect(result.ok).toBe(false);
  });

  it('rejects a success envelope without code', () => {
    const { code: _, ...broken } = example;
    expect(validator.validateResponse('/profiles/grading', 'get', 200, broken).ok).toBe(false);
  });

  it('rejects a status the operation does not document', () => {
    const result = validator.validateResponse('/profiles/grading', 'get', 415, {
      code: 415,
      message: 'x',
    });
    expect(result).toEqual({
      ok: false,
      errors: ['GET /profiles/grading does not document status 415'],
    });
  });
});

import fc from 'fast-check';
import { deref, isObject, type JsonObject, type OpenApiDoc } from '../openapi.ts';

/** Values the target names, used wherever a schema asks for a key: keys that exist answer 2xx. */
export type KnownKeys = { byName: Record<string, unknown[]>; any: string[] };

const MAX_DEPTH = 6;
const MAX_ITEMS = 4;

/**
 * An arbitrary of values valid against a schema of the contract: enums, bounds, patterns,
 * formats, JSON carried in a string (`contentSchema`), arrays, objects, `anyOf`/`oneOf`/`allOf`.
 * Keys come from the target when their name is known (`source_keys`, `job_key`, …).
 */
export function valuesOf(
  doc: OpenApiDoc,
  raw: unknown,
  keys: KnownKeys,
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const known = keys.byName[name];
  if (known !== undefined && known.length > 0) return fc.constantFrom(...known);
  const schema = deref(doc, raw);
  if (!isObject(schema) || depth > MAX_DEPTH) return fc.constant(null);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches))
    return fc.oneof(...branches.map((b) => valuesOf(doc, b, keys, name, depth + 1)));
  if (Array.isArray(schema.allOf)) return objectOf(doc, merged(doc, schema), keys, depth);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? inferred(schema)];
  return fc.oneof(...types.map((type) => ofType(doc, schema, String(type), keys, name, depth)));
}

function inferred(schema: JsonObject): string {
  if (isObject(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return 'string';
}

function ofType(
  doc: OpenApiDoc,
  schema: JsonObject,
  type: string,
  keys: KnownKeys,
  name: string,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer(bounds(schema, true));
    case 'number':
      return fc.oneof(
        fc.integer(bounds(schema, true)),
        fc.double({ ...bounds(schema), noNaN: true }),
      );
    case 'array': {
      const min = Number(schema.minItems ?? 0);
      const max = Math.max(min, Math.min(Number(schema.maxItems ?? MAX_ITEMS), MAX_ITEMS));
      const items = valuesOf(doc, schema.items ?? {}, keys, `${name}[]`, depth + 1);
      return fc.array(items, { minLength: min, maxLength: max });
    }
    case 'object':
      return objectOf(doc, schema, keys, depth);
    default:
      return stringOf(doc, schema, keys, name, depth);
  }
}

function stringOf(
  doc: OpenApiDoc,
  schema: JsonObject,
  keys: KnownKeys,
  name: string,
  depth: number,
): fc.Arbitrary<unknown> {
  if (schema.contentMediaType === 'application/json' && schema.contentSchema !== undefined)
    return valuesOf(doc, schema.contentSchema, keys, name, depth + 1).map((v) => JSON.stringify(v));
  if (typeof schema.pattern === 'string') {
    if (schema.pattern === '^[0-9a-f]{40}$' && keys.any.length > 0)
      return fc.constantFrom(...keys.any);
    try {
      return fc.stringMatching(new RegExp(schema.pattern));
    } catch {
      // A pattern fast-check cannot draw from: any short text.
    }
  }
  if (schema.format === 'date-time' || schema.format === 'date') {
    const dates = fc.date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2030-12-31T00:00:00Z'),
      noInvalidDate: true,
    });
    return dates.map((d) =>
      schema.format === 'date' ? d.toISOString().slice(0, 10) : d.toISOString(),
    );
  }
  const minLength = Number(schema.minLength ?? 0);
  const maxLength = Math.max(minLength, Math.min(Number(schema.maxLength ?? 12), 12));
  return fc.string({ minLength, maxLength });
}

function objectOf(
  doc: OpenApiDoc,
  schema: JsonObject,
  keys: KnownKeys,
  depth: number,
): fc.Arbitrary<unknown> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, value] of Object.entries(properties))
    shape[key] = valuesOf(doc, value, keys, key, depth + 1);
  return fc.record(shape, { requiredKeys: required.filter((k) => k in shape) });
}

/** The properties and required names of an `allOf`, as one object schema. */
function merged(doc: OpenApiDoc, schema: JsonObject): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const part of schema.allOf as unknown[]) {
    const resolved = deref(doc, part);
    if (!isObject(resolved)) continue;
    const inner = Array.isArray(resolved.allOf) ? merged(doc, resolved) : resolved;
    Object.assign(properties, isObject(inner.properties) ? inner.properties : {});
    if (Array.isArray(inner.required)) required.push(...inner.required.map(String));
  }
  return { type: 'object', properties, required };
}

/** fast-check bounds from `minimum`/`maximum` (exclusive ones too), kept to a sane range. */
function bounds(schema: JsonObject, integer = false): { min: number; max: number } {
  const step = integer ? 1 : 1e-6;
  let min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
  let max = typeof schema.maximum === 'number' ? schema.maximum : Math.max(min + 1000, 1000);
  if (typeof schema.exclusiveMinimum === 'number') min = schema.exclusiveMinimum + step;
  if (typeof schema.exclusiveMaximum === 'number') max = schema.exclusiveMaximum - step;
  return integer ? { min: Math.ceil(min), max: Math.floor(max) } : { min, max };
}

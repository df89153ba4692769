import fc from 'fast-check';
import { loadContract, operations, parametersOf } from '../../contract/suite/openapi.ts';

const contract = loadContract();

/** Every operation of the contract with the names of its parameters. */
export const OPERATIONS = operations(contract).map(({ path, method }) => ({
  path,
  method: method.toUpperCase(),
  names: parametersOf(contract, path, method === 'post' ? 'get' : method).map((p) => p.name),
}));

const HOSTILE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  'a[0][b]',
  'profile_ids[0][source_key]',
];

/** A 40-hex key, well formed or almost. */
const key = fc.oneof(
  fc.stringMatching(/^[0-9a-f]{40}$/),
  fc.stringMatching(/^[0-9a-fA-F]{39,41}$/),
  fc.constant('0'.repeat(40)),
);

/** Values that have broken parsers before: edges of numbers, unicode, JSON of every shape. */
const scalar = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    'NaN',
    'Infinity',
    '-Infinity',
    '-0',
    '1e309',
    '-1',
    '0',
    '1',
    '101',
    '99999999999999999999',
    'true',
    'False',
    'null',
    'undefined',
    '[]',
    '{}',
    '[null]',
    '{"lat":"x"}',
    '%00',
    '\u0000',
    '\ud800',
  ),
  fc.integer().map(String),
  fc.double().map(String),
  key,
);

function nested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

const jsonish = fc.oneof(
  fc.json({ depthSize: 'small' }),
  fc.array(key, { maxLength: 4 }).map((keys) => JSON.stringify(keys)),
  fc
    .array(fc.record({ source_key: key, profile_key: key }), { maxLength: 3 })
    .map((ids) => JSON.stringify(ids)),
  fc
    .array(fc.record({ name: fc.string(), value: fc.option(fc.string()) }), { maxLength: 3 })
    .map((items) => JSON.stringify(items)),
  fc.integer({ min: 60, max: 3000 }).map(nested),
);

export const queryValue = fc.oneof(scalar, jsonish);

/** A query string: known names with hostile values, repeated and unknown names too. */
export function queryFor(names: string[]) {
  const name = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...(names.length > 0 ? names : ['x'])) },
    fc.constantFrom(...HOSTILE_NAMES),
    fc.string(),
  );
  return fc.array(fc.tuple(name, queryValue), { maxLength: 8 }).map((pairs) => {
    const search = new URLSearchParams();
    for (const [n, v] of pairs) search.append(n, v);
    return search.toString();
  });
}

/** A body: JSON of any shape (objects with the known names mostly), malformed text, deep nesting. */
export function bodyFor(names: string[]) {
  const value = fc.oneof(
    fc.jsonValue({ depthSize: 'small' }),
    scalar,
    fc.array(key, { maxLength: 3 }),
  );
  const object = fc.dictionary(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...(names.length > 0 ? names : ['x'])) },
      fc.constantFrom(...HOSTILE_NAMES),
    ),
    value,
    { maxKeys: 8 },
  );
  return fc.oneof(
    { weight: 6, arbitrary: object.map((o) => JSON.stringify(o)) },
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.string(),
    fc.integer({ min: 60, max: 5000 }).map((d) => `{"source_keys": ${nested(d)}}`),
    fc.constantFrom(
      '',
      '{',
      '{"a":}',
      'null',
      '[]',
      '"x"',
      '{"__proto__": {"polluted": 1}}',
      '{"constructor": {"prototype": {"x": 1}}}',
    ),
  );
}

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  '',
  'application/vnd.api+json',
  'multipart/form-data; boundary=x',
];
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

/** One request: mostly to an operation of the contract, sometimes to anything. */
export const requestArbitrary = fc
  .record({
    op: fc.constantFrom(...OPERATIONS),
    method: fc.oneof({ weight: 8, arbitrary: fc.constant('') }, fc.constantFrom(...METHODS)),
    path: fc.oneof(
      { weight: 9, arbitrary: fc.constant('') },
      fc.webPath(),
      fc.constantFrom(
        '/profiles',
        '/jobs/',
        '/profiles/grading/',
        '//jobs/scoring',
        '/PROFILES/SEARCHING',
      ),
    ),
    contentType: fc.constantFrom(...CONTENT_TYPES),
    prototypeProbe: fc.boolean(),
  })
  .chain((shape) =>
    fc.record({
      shape: fc.constant(shape),
      query: queryFor(shape.op.names),
      body: bodyFor(shape.op.names),
    }),
  )
  .map(({ shape, query, body }) => {
    const method = shape.method || shape.op.method;
    const path = shape.path || shape.op.path;
    const init: RequestInit = {
      method,
      headers: shape.contentType ? { 'content-type': shape.contentType } : {},
    };
    if (method !== 'GET' && method !== 'HEAD') init.body = body;
    return { method, path, query, body, init };
  });

/**
 * A valid request (the base parameters of its operation) with a few parameters overridden or
 * dropped, so that the fuzzer also reaches the search, scoring and grading code behind parsing.
 */
export function mutatedValid(bases: Record<string, Record<string, unknown>>) {
  const ops = OPERATIONS.filter((op) => bases[`${op.method} ${op.path}`] !== undefined);
  return fc
    .record({
      op: fc.constantFrom(...ops),
      overrides: fc.array(
        fc.tuple(fc.nat(), fc.oneof({ weight: 3, arbitrary: queryValue }, fc.constant(undefined))),
        { maxLength: 3 },
      ),
      asStrings: fc.boolean(),
    })
    .map(({ op, overrides, asStrings }) => {
      const params: Record<string, unknown> = { ...bases[`${op.method} ${op.path}`] };
      for (const [at, value] of overrides) {
        const name = op.names[at % Math.max(1, op.names.length)] ?? 'x';
        if (value === undefined) delete params[name];
        else params[name] = value;
      }
      if (op.method === 'GET') {
        const search = new URLSearchParams();
        for (const [n, v] of Object.entries(params))
          search.set(n, typeof v === 'string' ? v : JSON.stringify(v));
        return {
          method: 'GET',
          path: op.path,
          query: search.toString(),
          body: '',
          init: { method: 'GET' } as RequestInit,
        };
      }
      const body = asStrings
        ? JSON.stringify(
            Object.fromEntries(
              Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? JSON.stringify(v) : v]),
            ),
          )
        : JSON.stringify(params);
      return {
        method: 'POST',
        path: op.path,
        query: '',
        body,
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        } as RequestInit,
      };
    });
}

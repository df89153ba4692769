import fc from 'fast-check';

/**
 * What a generated request does beyond valid values, as plain data so a report can print it:
 * set a parameter to a hostile value, add one (unknown or repeated), drop a required one, or
 * send the request in a way that must be refused (a probe).
 */
export type Hostile =
  | { kind: 'set'; why: string; name: string; value: unknown }
  | { kind: 'add'; why: string; name: string; value: unknown }
  | { kind: 'drop'; why: string; name: string }
  | { kind: 'probe'; why: string; probe: Probe };

export type Probe =
  | { method: string }
  | { padQuery: number }
  | { padBody: number }
  | { contentType: string }
  | { bare: true }
  | { malformed: string };

/** Numbers at and past the edges, and number-like text a parser may trip on. */
const BOUNDARY: unknown[] = [
  0,
  -1,
  1,
  100,
  101,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  1e308,
  1.5,
  -0,
  'NaN',
  'Infinity',
  '-Infinity',
  '1e400',
  '0x10',
  ' 7 ',
  '',
  '١٢',
];

const HUGE_PAGES: unknown[] = [2 ** 31, 2 ** 53, 2 ** 53 + 2, 1e15, '99999999999999999999999'];

const WRONG_TYPES: unknown[] = [{}, [], 42, true, null, 'text', [[]], { a: 1 }, [null], -3.5];

const NASTY: string[] = [
  'é',
  '日本',
  '𝕳',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u202e',
  '\ud800',
  '\ufeff',
  '\r\n',
  '%',
  '%00',
  '%zz',
  '\\',
  '"',
  "'",
  '<script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-looking value is the point
  '${x}',
  ' ',
  '+',
  '&',
  '=',
  '#',
  '?',
];

const UNKNOWN_NAMES: string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'a[b]',
  'a[]',
  'x.y',
  'ünïcode',
  ' ',
];

/** Unicode and control characters, alone or among others. */
export const nastyText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
);

/** Arrays (or objects) nested `depth` levels: deep JSON within a 64-level limit. */
export function deep(depth: number, object: boolean): unknown {
  let value: unknown = 1;
  for (let i = 1; i < depth; i++) value = object ? { a: value } : [value];
  return value;
}

/** The hostile additions for one operation, given its parameter names. */
export function hostileFor(op: {
  method: string;
  names: string[];
  numeric: string[];
  required: string[];
  paged: boolean;
}): fc.Arbitrary<Hostile> {
  const name = fc.constantFrom(...op.names);
  const post = op.method === 'POST';
  const kinds: fc.Arbitrary<Hostile>[] = [
    fc.record({
      kind: fc.constant('set' as const),
      why: fc.constant('unicode or control characters'),
      name,
      value: fc.oneof(
        nastyText,
        nastyText.map((s) => [s]),
      ),
    }),
    fc.record({
      kind: fc.constant('set' as const),
      why: fc.constant('a wrong type'),
      name,
      value: fc.constantFrom(...WRONG_TYPES),
    }),
    fc.record({
      kind: fc.constant('add' as const),
      why: fc.constant('a repeated parameter'),
      name,
      value: fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -5, max: 200 })),
    }),
    fc.record({
      kind: fc.constant('add' as const),
      why: fc.constant('an unknown parameter'),
      name: fc.oneof(fc.stringMatching(/^[a-z][a-z_]{0,11}$/), fc.constantFrom(...UNKNOWN_NAMES)),
      value: fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.constant(null), nastyText),
    }),
    fc.record({
      kind: fc.constant('set' as const),
      why: fc.constant('deep JSON within the limits'),
      name: fc.oneof(name, fc.constant('hrmock_deep')),
      value: fc
        .tuple(fc.integer({ min: 2, max: 60 }), fc.boolean())
        .map(([depth, object]) => deep(depth, object)),
    }),
    ...probes(post),
  ];
  if (op.numeric.length > 0)
    kinds.push(
      fc.record({
        kind: fc.constant('set' as const),
        why: fc.constant('a boundary number'),
        name: fc.constantFrom(...op.numeric),
        value: fc.constantFrom(...BOUNDARY),
      }),
    );
  if (op.paged)
    kinds.push(
      fc.record({
        kind: fc.constant('set' as const),
        why: fc.constant('a huge page'),
        name: fc.constant('page'),
        value: fc.constantFrom(...HUGE_PAGES),
      }),
    );
  if (op.required.length > 0)
    kinds.push(
      fc.record({
        kind: fc.constant('drop' as const),
        why: fc.constant('a required parameter left out'),
        name: fc.constantFrom(...op.required),
      }),
    );
  return fc.oneof(...kinds);
}

/** Requests the contract says get a 4xx (405, 413, 414, 415, 400, 401) or that need no key: one kind each. */
function probes(post: boolean): fc.Arbitrary<Hostile>[] {
  const list: Probe[] = [
    { method: post ? 'PUT' : 'POST' },
    { method: 'DELETE' },
    { method: 'PATCH' },
    { padQuery: 20 * 1024 },
    { bare: true },
  ];
  if (post)
    list.push(
      { padBody: 1024 * 1024 + 64 },
      { contentType: 'text/plain' },
      { contentType: 'application/x-www-form-urlencoded' },
      { malformed: '{"source_keys": [' },
    );
  return list.map((probe) =>
    fc.constant<Hostile>({ kind: 'probe', why: 'a request the contract refuses', probe }),
  );
}

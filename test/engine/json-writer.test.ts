import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonWriter, joinPieces } from '../../src/engine/json-writer.ts';
import { seedFastCheck } from '../support/fuzz-seed.ts';

seedFastCheck('test/engine/json-writer.test.ts');

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const source = { json: (index: number) => encoder.encode(`{"i":${index}}`) };

describe('JsonWriter', () => {
  it('writes glue, objects and commas as one text', () => {
    const out = new JsonWriter();
    out.text('[');
    out.object(source, 1);
    out.comma();
    out.object(source, 2);
    out.comma();
    out.text('"é"');
    out.comma();
    out.bytes(encoder.encode('3'));
    out.text(']');
    expect(decoder.decode(joinPieces(out.finish()))).toBe('[{"i":1},{"i":2},"é",3]');
  });

  it('puts a comma after an object as one piece shared by every answer, after glue in the glue', () => {
    const first = new JsonWriter();
    first.object(source, 1);
    first.comma();
    first.object(source, 2);
    first.text(',"x"');
    first.comma();
    first.text('0');
    const pieces = first.finish();
    // The object, the comma, the object, then one run of glue: `,"x",0`.
    expect(pieces).toHaveLength(4);
    const second = new JsonWriter();
    second.text('[');
    second.object(source, 3);
    second.comma();
    second.object(source, 4);
    second.text(']');
    const others = second.finish();
    expect(others[2]).toBe(pieces[1]);
    expect(decoder.decode(pieces[3] as Uint8Array)).toBe(',"x",0');
    expect(decoder.decode(joinPieces(others))).toBe('[{"i":3},{"i":4}]');
  });
});

describe('JsonWriter.value', () => {
  const written = (value: unknown) => {
    const out = new JsonWriter();
    out.value(value);
    return decoder.decode(joinPieces(out.finish()));
  };

  it('writes scores, integers and their signs as JSON.stringify does', () => {
    const numbers = [0, -0, 1, -1, 0.001, 0.999, 0.5, 0.25, 0.1234, -0.0101, 12.5, 2 ** 31 - 1];
    for (const n of numbers) expect(written(n)).toBe(JSON.stringify(n));
    for (let k = 0; k <= 10_000; k++) {
      expect(written(k / 10_000)).toBe(JSON.stringify(k / 10_000));
      expect(written(Math.round((1 - k / 10_000) * 10_000) / 10_000)).toBe(
        JSON.stringify(Math.round((1 - k / 10_000) * 10_000) / 10_000),
      );
    }
  });

  it('writes any other number, and what JSON has no form for, as JSON.stringify does', () => {
    const numbers = [0.1 + 0.2, 1e-7, 1e21, 2 ** 31, 2 ** 53 + 2, -1e-5, Math.PI, 5e-324];
    for (const n of [...numbers, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(written(n)).toBe(JSON.stringify(n));
    }
  });

  it('escapes strings and encodes what is not ASCII as JSON.stringify does', () => {
    const strings = [
      '',
      'plain',
      'a "quote"',
      'back\\slash',
      'tab\t',
      '\u0000\u001f',
      'é',
      '\u2028',
      '\ud800',
      '😀',
    ];
    for (const text of strings) expect(written(text)).toBe(JSON.stringify(text));
  });

  it('writes arrays and plain objects, skipping and nulling what JSON.stringify does', () => {
    const values: unknown[] = [
      [['k', 0.25], null, [0.75, 0.25]],
      { page: 1, maxPage: 3, count: 30, total: 84 },
      [undefined, () => 1, Symbol('s')],
      { kept: 1, skipped: undefined, 'a"b': true, 2: false, 1: 'x' },
      Object.assign(Object.create(null), { bare: [] }),
      { nested: { deeper: [{}, []] } },
    ];
    for (const value of values) expect(written(value)).toBe(JSON.stringify(value));
  });

  it('hands JSON.stringify whatever it alone knows how to write', () => {
    class Point {
      constructor(readonly x: number) {}
    }
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    const values: unknown[] = [
      new Date(0),
      { when: new Date(0) },
      { toJSON: () => 'custom' },
      [new Point(1)],
      Object.assign([1, 2], { toJSON: () => 'array' }),
      deep,
    ];
    for (const value of values) expect(written(value)).toBe(JSON.stringify(value));
  });

  it('writes any JSON value and any double as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => written(value) === JSON.stringify(value)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(
        fc.double(),
        (n) =>
          written([n, Math.round(n * 10_000) / 10_000]) ===
          JSON.stringify([n, Math.round(n * 10_000) / 10_000]),
      ),
      { numRuns: 20_000 },
    );
  });

  it('throws as JSON.stringify does on a cycle or a BigInt, leaving the writer usable', () => {
    const cycle: unknown[] = [];
    cycle.push(cycle);
    const out = new JsonWriter();
    out.text('[');
    expect(() => out.value(cycle)).toThrow(TypeError);
    expect(() => out.value({ n: 1n })).toThrow(TypeError);
    out.value(1);
    out.text(']');
    expect(decoder.decode(joinPieces(out.finish()))).toBe('[1]');
  });
});

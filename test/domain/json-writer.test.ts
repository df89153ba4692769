import { describe, expect, it } from 'vitest';
import { JsonWriter, joinPieces } from '../../src/domain/json-writer.ts';

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

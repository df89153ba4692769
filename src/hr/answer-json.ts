import { JsonWriter, joinPieces, type Piece } from '../engine/json-writer.ts';
import type { Meta } from '../store/types.ts';

const decoder = new TextDecoder();

/**
 * A successful answer, already serialized: `{code, message, data, meta?}` as JSON, the bytes of
 * `JSON.stringify` of that object. `body()` gives them as UTF-8, assembled (once) from the glue
 * and the stored bytes of each object; `json` as text, decoded from them the first time it is
 * read (an answer is ~160 KB: sending the bytes saves making a string that long and encoding
 * it back). `pieces` lets a transport write it without assembling it (gzip from parts).
 */
export type Answer = {
  readonly status: 200;
  readonly json: string;
  body(): Uint8Array;
  readonly pieces: readonly Piece[];
};

/**
 * An `Answer` as a class, its accessor and method on the prototype: never an object literal with
 * a getter and a closure per answer, which V8 makes a dictionary-mode object whose contents
 * survive young collections under load (`test/http/answer-shapes.test.ts`).
 */
class AssembledAnswer implements Answer {
  readonly status = 200;
  readonly pieces: readonly Piece[];
  #bytes: Uint8Array | undefined;
  #json: string | undefined;

  constructor(pieces: readonly Piece[]) {
    this.pieces = pieces;
  }

  get json(): string {
    this.#json ??= decoder.decode(this.body());
    return this.#json;
  }

  body(): Uint8Array {
    this.#bytes ??= joinPieces(this.pieces);
    return this.#bytes;
  }
}

/** The envelope an answer's JSON holds, for callers that want objects back. */
export type AnswerEnvelope = {
  code: 200;
  message: string;
  data: Record<string, unknown>;
  meta?: Meta;
};

/** A member of `data`: its name, and what writes its value as JSON. */
export type DataMember = [name: string, write: (out: JsonWriter) => void];

/**
 * `JSON.stringify({code: 200, message, data, meta})`, where `data` is written member by member,
 * in order, so the bytes are exactly those of serializing the whole object.
 */
export function answerOf(message: string, data: DataMember[], meta?: Meta): Answer {
  const out = new JsonWriter();
  out.text(`{"code":200,"message":${JSON.stringify(message)},"data":{`);
  data.forEach(([name, write], i) => {
    out.text(`${i === 0 ? '' : ','}${JSON.stringify(name)}:`);
    write(out);
  });
  if (meta === undefined) {
    out.text('}}');
  } else {
    out.text('},"meta":');
    out.value(meta);
    out.text('}');
  }
  return new AssembledAnswer(out.finish());
}

/** Writes a JSON array, each item written by `write`. */
export function listOf<T>(items: readonly T[], write: (out: JsonWriter, item: T) => void) {
  return (out: JsonWriter): void => {
    out.text('[');
    items.forEach((item, i) => {
      if (i > 0) out.comma();
      write(out, item);
    });
    out.text(']');
  };
}

/** Writes `JSON.stringify(value)`. */
export function valueJson(value: unknown) {
  return (out: JsonWriter): void => out.value(value);
}

/** The object form of an answer. */
export function envelopeOf(answer: Answer): AnswerEnvelope {
  return JSON.parse(answer.json) as AnswerEnvelope;
}

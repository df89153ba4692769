import { JsonWriter, joinPieces, type Piece } from './json-writer.ts';
import type { Meta } from './types.ts';

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
  out.text(meta === undefined ? '}}' : `},"meta":${JSON.stringify(meta)}}`);
  const pieces = out.finish();
  let bytes: Uint8Array | undefined;
  let json: string | undefined;
  const body = () => {
    bytes ??= joinPieces(pieces);
    return bytes;
  };
  return {
    status: 200,
    get json() {
      json ??= decoder.decode(body());
      return json;
    },
    body,
    pieces,
  };
}

/** Writes a JSON array, each item written by `write`. */
export function listOf<T>(items: readonly T[], write: (out: JsonWriter, item: T) => void) {
  return (out: JsonWriter): void => {
    out.text('[');
    items.forEach((item, i) => {
      if (i > 0) out.text(',');
      write(out, item);
    });
    out.text(']');
  };
}

/** Writes `JSON.stringify(value)`. */
export function valueJson(value: unknown) {
  return (out: JsonWriter): void => out.text(JSON.stringify(value));
}

/** The object form of an answer. */
export function envelopeOf(answer: Answer): AnswerEnvelope {
  return JSON.parse(answer.json) as AnswerEnvelope;
}

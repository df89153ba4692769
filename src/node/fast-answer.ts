import { joinPieces } from '../engine/json-writer.ts';
import type { Answer } from '../hr/operations.ts';
import { EXPOSED_HEADERS_VALUE } from '../http/api-cors.ts';
import type { CachedAnswer } from './answer-cache.ts';
import type { OutputPool } from './output-pool.ts';

/** Headers Hono's route and CORS middleware give a 200 of the API. */
export const OK_HEADERS: [string, string][] = [
  ['access-control-allow-origin', '*'],
  ['access-control-expose-headers', EXPOSED_HEADERS_VALUE],
  ['content-type', 'application/json'],
];

/**
 * A fast-path answer to write or keep; its plain body is assembled only when it is sent or kept.
 * A class, not an object literal with a `get body()` made per answer: V8 builds such a literal
 * as a dictionary-mode object, and under load what those answers held was promoted out of the
 * young generation instead of dying there (see `AssembledAnswer`). With `outputs` (no answer
 * cache: the answer is written once and dropped), its bytes are made in the pool.
 */
export class FastAnswer implements CachedAnswer {
  readonly status = 200;
  readonly headers = OK_HEADERS;
  readonly api = true;
  gzip?: Buffer;
  wire?: CachedAnswer['wire'];
  /** Until the body is made: then dropped, with the shared glue slabs its pieces are views of. */
  #answer: Answer | undefined;
  readonly #outputs: OutputPool | undefined;
  #body: Buffer | undefined;

  constructor(answer: Answer, gzip: Buffer | undefined, outputs?: OutputPool) {
    this.#answer = answer;
    this.#outputs = outputs;
    if (gzip !== undefined) this.gzip = gzip;
  }

  get body(): Buffer {
    if (this.#body === undefined) {
      const answer = this.#answer as Answer;
      const outputs = this.#outputs;
      const [only] = answer.pieces;
      if (outputs === undefined) {
        // Kept in the cache: bytes of its own, not views that would keep shared slabs alive.
        this.#body = bufferOf(answer.body());
      } else if (answer.pieces.length === 1 && only instanceof Uint8Array) {
        // All glue (a minimal grading answer): written as it is, and dropped with the answer.
        this.#body = bufferOf(only);
      } else {
        this.#body = joinPieces(answer.pieces, (size) => outputs.take(size)) as Buffer;
      }
      this.#answer = undefined;
    }
    return this.#body;
  }
}

function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { Framing } from './hop-headers.ts';
import { Kept } from './kept-bytes.ts';

/**
 * A request body as undici sends it: none, a Buffer (framed by `Content-Length`), or a stream
 * (sent chunked when no `Content-Length` goes with it).
 */
export type OutgoingBody = null | Buffer | Readable;

/**
 * A client's request body on its way. One of at most `limit` bytes is read whole and sent as one
 * piece, which can be sent again; a longer one is sent on as it comes, never again. Either way
 * it keeps its framing: `Content-Length` stays, chunked stays chunked, none stays none.
 */
export class RequestBody {
  readonly kept: Kept;
  readonly #req: IncomingMessage;
  readonly #framing: Framing;
  #whole: Buffer | undefined;
  #stream: Readable | undefined;

  constructor(req: IncomingMessage, framing: Framing, limit: number) {
    this.#req = req;
    this.#framing = framing;
    this.kept = new Kept(limit);
  }

  /**
   * Reads the body; `ready` gets what to send, once (at once when there is no body), and `broke`
   * any error thrown on the way, which would otherwise escape from the request's events.
   */
  read(ready: (body: OutgoingBody) => void, broke: (error: unknown) => void): void {
    const req = this.#req;
    if (this.#framing === 'none') {
      this.#whole = Buffer.alloc(0);
      req.resume();
      ready(null);
      return;
    }
    req.on('data', (chunk: Buffer) => {
      try {
        const stream = this.#stream;
        if (stream === undefined && !this.kept.fits(chunk.length)) {
          ready(this.#streamed(chunk));
          return;
        }
        this.kept.add(chunk);
        if (stream !== undefined && !stream.destroyed && !stream.push(chunk)) req.pause();
      } catch (error) {
        broke(error);
      }
    });
    req.on('end', () => {
      try {
        if (this.#stream !== undefined) {
          this.#stream.push(null);
          return;
        }
        this.#whole = this.kept.bytes() ?? Buffer.alloc(0);
        ready(this.again() ?? null);
      } catch (error) {
        broke(error);
      }
    });
  }

  /** The body to send once more: undefined when it went as a stream or is not read yet. */
  again(): OutgoingBody | undefined {
    const whole = this.#whole;
    if (whole === undefined || this.#framing === 'none')
      return whole === undefined ? undefined : null;
    if (this.#framing === 'length') return whole;
    // A stream of objects, whose length undici does not read ahead: it stays chunked.
    return Readable.from(whole.length === 0 ? [] : [whole]);
  }

  /** From the chunk that went over the limit on: a stream of the bytes so far and the rest. */
  #streamed(chunk: Buffer): Readable {
    // In object mode undici never reads its length ahead: its framing is the one it came with.
    const stream = new Readable({ objectMode: true, read: () => this.#req.resume() });
    for (const piece of this.kept.pieces() ?? []) stream.push(piece);
    this.kept.add(chunk);
    if (!stream.push(chunk)) this.#req.pause();
    this.#stream = stream;
    return stream;
  }
}

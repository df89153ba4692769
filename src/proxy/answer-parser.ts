/** What the parser tells of one answer, in order: its head, its body's bytes, its end. */
export type AnswerSink = {
  head(status: number, reason: string, rawHeaders: string[]): void;
  body(chunk: Buffer): void;
  end(): void;
};

/** An answer that is not HTTP/1.1 as RFC 9112 frames it: the exchange fails with a 502. */
export class MalformedAnswer extends Error {
  override name = 'MalformedAnswer';
}

/** The most bytes of a head (status line and headers), as the proxy accepts of a request's. */
export const MAX_HEAD_BYTES = 256 * 1024;

const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEX = /^[0-9A-Fa-f]{1,12}$/;
const HEAD_END = Buffer.from('\r\n\r\n');
const LINE_END = Buffer.from('\r\n');

/** Where in an answer the parser is. */
const State = {
  Head: 0,
  Length: 1,
  ChunkSize: 2,
  ChunkData: 3,
  ChunkEnd: 4,
  Trailers: 5,
  UntilClose: 6,
  Done: 7,
} as const;

/**
 * Reads one upstream answer from the bytes of a connection as they come (RFC 9112): the status
 * line and headers (interim 1xx answers skipped), then a body framed by `Transfer-Encoding:
 * chunked`, by `Content-Length`, or by the connection's close; none after HEAD, 204 or 304. Body
 * bytes are handed on as slices of the chunks read, never copied.
 */
export class AnswerParser {
  readonly #sink: AnswerSink;
  readonly #noBody: boolean;
  #state: (typeof State)[keyof typeof State] = State.Head;
  /** Bytes of a head or a line not complete yet: the first `#held` of `#store`. */
  #store = Buffer.alloc(0);
  #held = 0;
  /** The last head or line read whole. */
  #text = '';
  #left = 0;
  #keepAlive = true;

  /** `headRequest`: the request was a HEAD, whose answer has no body whatever it says. */
  constructor(sink: AnswerSink, headRequest: boolean) {
    this.#sink = sink;
    this.#noBody = headRequest;
  }

  /** True once some byte of the answer came. */
  get started(): boolean {
    return this.#state !== State.Head || this.#held > 0;
  }

  /** Reads the next bytes of the connection; throws MalformedAnswer on bytes HTTP cannot frame. */
  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      switch (this.#state) {
        case State.Head:
          at = this.#head(chunk, at);
          break;
        case State.Length:
        case State.ChunkData: {
          const end = Math.min(chunk.length, at + this.#left);
          this.#sink.body(chunk.subarray(at, end));
          this.#left -= end - at;
          at = end;
          if (this.#left > 0) break;
          if (this.#state === State.Length) this.#finish();
          else this.#state = State.ChunkEnd;
          break;
        }
        case State.ChunkSize:
        case State.ChunkEnd:
        case State.Trailers:
          at = this.#line(chunk, at);
          break;
        case State.UntilClose:
          this.#sink.body(at === 0 ? chunk : chunk.subarray(at));
          at = chunk.length;
          break;
        case State.Done:
          // Bytes nobody asked for: the connection cannot be trusted with another request.
          this.#keepAlive = false;
          return;
      }
    }
  }

  /** The connection closed: true when that ended the answer (a body framed by the close). */
  close(): boolean {
    if (this.#state === State.UntilClose) {
      this.#keepAlive = false;
      this.#finish();
      return true;
    }
    return this.#state === State.Done;
  }

  /** True once the answer ended. */
  get done(): boolean {
    return this.#state === State.Done;
  }

  /** The answer ended, the upstream keeps the connection alive, and nothing came after. */
  get reusable(): boolean {
    return this.#state === State.Done && this.#keepAlive;
  }

  #head(chunk: Buffer, at: number): number {
    const next = this.#until(
      chunk,
      at,
      HEAD_END,
      `its headers are longer than ${MAX_HEAD_BYTES} bytes`,
    );
    if (next >= 0) this.#begin(this.#text);
    return next < 0 ? chunk.length : next;
  }

  /**
   * Reads up to `delimiter`, which may come in a later chunk: the bytes before it go to `#text`,
   * and the index in `chunk` after it is returned; -1 when it has not come yet (the bytes so far
   * are held, in one buffer grown by doubling so that a head read a byte at a time costs no more
   * than one read whole).
   */
  #until(chunk: Buffer, at: number, delimiter: Buffer, tooLong: string): number {
    if (this.#held === 0) {
      const end = chunk.indexOf(delimiter, at);
      if (end >= 0) {
        this.#text = chunk.toString('latin1', at, end);
        return end + delimiter.length;
      }
    }
    const before = this.#held;
    this.#hold(chunk, at);
    const held = this.#store.subarray(0, this.#held);
    const end = held.indexOf(delimiter, Math.max(0, before - delimiter.length + 1));
    if (end < 0) {
      if (this.#held > MAX_HEAD_BYTES) throw new MalformedAnswer(tooLong);
      return -1;
    }
    this.#text = held.toString('latin1', 0, end);
    this.#held = 0;
    if (this.#store.length > 16 * 1024) this.#store = Buffer.alloc(0);
    return at + end + delimiter.length - before;
  }

  #hold(chunk: Buffer, at: number): void {
    const needed = this.#held + chunk.length - at;
    if (this.#store.length < needed) {
      const bigger = Buffer.allocUnsafe(Math.max(needed, 2 * this.#store.length, 1024));
      this.#store.copy(bigger, 0, 0, this.#held);
      this.#store = bigger;
    }
    chunk.copy(this.#store, this.#held, at);
    this.#held = needed;
  }

  #begin(head: string): void {
    const lines = head.split('\r\n');
    const status = STATUS_LINE.exec(lines[0] as string);
    if (status === null)
      throw new MalformedAnswer(`its status line is not HTTP/1.x: "${lines[0]?.slice(0, 80)}"`);
    const code = Number(status[2]);
    const raw: string[] = [];
    let length: string | undefined;
    let chunked: boolean | undefined;
    let connection = status[1] === '1' ? 'keep-alive' : 'close';
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      const colon = line.indexOf(':');
      const name = line.slice(0, colon);
      if (colon <= 0 || !TOKEN.test(name))
        throw new MalformedAnswer(`a header line is not "name: value": "${line.slice(0, 80)}"`);
      const value = line.slice(colon + 1).trim();
      raw.push(name, value);
      const lower = name.toLowerCase();
      if (lower === 'content-length') {
        if (!/^\d{1,15}$/.test(value) || (length !== undefined && length !== value))
          throw new MalformedAnswer(`its Content-Length is not one number: "${value}"`);
        length = value;
      } else if (lower === 'transfer-encoding') {
        chunked = /(?:^|,)\s*chunked\s*$/i.test(value);
      } else if (lower === 'connection') {
        connection = /\bclose\b/i.test(value)
          ? 'close'
          : /\bkeep-alive\b/i.test(value)
            ? 'keep-alive'
            : connection;
      }
    }
    if (code === 101) throw new MalformedAnswer('it switched protocols, which the proxy does not');
    // An interim answer: the final one follows on the same connection.
    if (code < 200) return;
    this.#keepAlive = connection === 'keep-alive';
    this.#sink.head(code, status[3] ?? '', raw);
    if (this.#noBody || code === 204 || code === 304) this.#finish();
    else if (chunked === true) this.#state = State.ChunkSize;
    else if (chunked === false || length === undefined) this.#state = State.UntilClose;
    else {
      this.#left = Number(length);
      if (this.#left === 0) this.#finish();
      else this.#state = State.Length;
    }
  }

  /** A line of the chunked framing: a chunk's size, the CRLF after its data, or a trailer. */
  #line(chunk: Buffer, at: number): number {
    const next = this.#until(chunk, at, LINE_END, 'a line of its chunked body is too long');
    if (next < 0) return chunk.length;
    const line = this.#text;
    if (this.#state === State.ChunkEnd) {
      if (line !== '') throw new MalformedAnswer('a chunk is longer than its size says');
      this.#state = State.ChunkSize;
    } else if (this.#state === State.Trailers) {
      if (line === '') this.#finish();
    } else {
      const size = line.split(';')[0]?.trim() ?? '';
      if (!HEX.test(size)) throw new MalformedAnswer(`a chunk size is not hex: "${line}"`);
      this.#left = Number.parseInt(size, 16);
      this.#state = this.#left === 0 ? State.Trailers : State.ChunkData;
    }
    return next;
  }

  #finish(): void {
    this.#state = State.Done;
    this.#sink.end();
  }
}

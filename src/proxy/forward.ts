import type { IncomingMessage, ServerResponse } from 'node:http';
import { MalformedAnswer } from './answer-parser.ts';
import { kept, type RequestHead, requestHead } from './hop-headers.ts';
import type { Upstream } from './upstream.ts';
import { type Connection, type UpstreamCall, UpstreamPool } from './upstream-client.ts';

/** One forwarded exchange as the judge needs it: bodies kept only up to their limits. */
export type Captured = {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  requestContentType: string | undefined;
  /** The request body, or undefined for none or one over the limit (`requestTooLarge`). */
  requestText: string | undefined;
  requestTooLarge: boolean;
  status: number;
  /** Every answer header but the hop-by-hop ones, as sent on to the client. */
  headers: [string, string][];
  /** The answer's bytes as they came (maybe compressed), or undefined when over the limit. */
  answer: Buffer | undefined;
  ms: number;
};

/** An exchange as forwarded: the answer's bytes still in the pieces they were read in. */
export type Forwarded = Omit<Captured, 'answer'> & {
  /** Undefined for an answer over the limit. */
  answerPieces: Buffer[] | undefined;
};

/** Why the client got the proxy's own 502 or 504 (the path only: a query may hold a secret). */
export type UpstreamFailure = { method: string; path: string; status: 502 | 504; reason: string };

export type ForwardOptions = {
  upstream: Upstream;
  /** How long the upstream may take to answer, body included (504 before its headers). */
  timeoutMs: number;
  /** The most request bytes kept for judging (the mock's body limit). */
  maxRequestBytes: number;
  /** The most answer bytes kept for judging; a longer answer is forwarded, not judged. */
  maxAnswerBytes: number;
  onExchange: (exchange: Forwarded) => void;
  onFailure: (failure: UpstreamFailure) => void;
};

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (is it running?)',
  ECONNRESET: 'the connection was reset before an answer',
  ENOTFOUND: 'its host name does not resolve',
  EAI_AGAIN: 'its host name could not be resolved now',
  EHOSTUNREACH: 'its host cannot be reached',
  ENETUNREACH: 'its network cannot be reached',
  ETIMEDOUT: 'the connection timed out',
  EPIPE: 'the connection closed while the request was sent',
};

function errorAnswer(res: ServerResponse, status: 502 | 504, message: string): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ code: status, message });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** A copy of a stream's bytes up to a limit, and how many bytes went by in all. */
class Kept {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  size = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size <= this.#limit) this.#chunks.push(chunk);
    else this.#chunks.length = 0;
  }

  get over(): boolean {
    return this.size > this.#limit;
  }

  /** The bytes, or undefined when there were more than the limit. */
  bytes(): Buffer | undefined {
    return this.over ? undefined : Buffer.concat(this.#chunks);
  }

  /** The bytes as they were read, not joined; undefined when there were more than the limit. */
  pieces(): Buffer[] | undefined {
    return this.over ? undefined : this.#chunks;
  }
}

/** One client request on its way: its answer, its failure, and what the judge is handed. */
class Forwarding implements UpstreamCall {
  readonly #options: ForwardOptions;
  readonly #pool: UpstreamPool;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #started = performance.now();
  readonly #method: string;
  readonly #url: string;
  readonly #request: Kept;
  readonly #head: RequestHead;
  readonly headRequest: boolean;
  #connection: Connection | undefined;
  #timer: NodeJS.Timeout | undefined;
  #status = 0;
  #headers: [string, string][] = [];
  #answer: Kept | undefined;
  #sent = false;
  #retried = false;
  /** The client's whole request body went by (none counts). */
  #bodyRead = false;
  #over = false;

  constructor(
    options: ForwardOptions,
    pool: UpstreamPool,
    req: IncomingMessage,
    res: ServerResponse,
  ) {
    this.#options = options;
    this.#pool = pool;
    this.#req = req;
    this.#res = res;
    this.#method = req.method ?? 'GET';
    this.#url = req.url ?? '/';
    this.headRequest = this.#method === 'HEAD';
    this.#request = new Kept(options.maxRequestBytes);
    this.#head = requestHead(options.upstream, this.#method, this.#url, req.rawHeaders);
  }

  /** Sends the request on, answers the client when the upstream does (or a 502/504 when not). */
  start(): void {
    this.#timer = setTimeout(() => {
      this.#fail(504, 'no complete answer in time');
      this.#abandon();
    }, this.#options.timeoutMs);
    this.#timer.unref();
    this.#res.on('close', () => {
      if (!this.#res.writableFinished) this.#abandon();
    });
    this.#req.on('error', () => this.#abandon());
    this.#pool.send(this);
  }

  attached(connection: Connection): void {
    this.#connection = connection;
    const { head, framing } = this.#head;
    if (this.#sent) {
      // Sent again on a new connection: the body is the one kept whole.
      const body = this.#request.bytes() ?? Buffer.alloc(0);
      if (framing !== 'chunked') connection.write(head, body);
      else if (body.length === 0) connection.write(`${head}0\r\n\r\n`);
      else connection.write(`${head}${body.length.toString(16)}\r\n`, body, '\r\n0\r\n\r\n');
      connection.written();
      return;
    }
    this.#sent = true;
    if (framing === 'none') {
      connection.write(head);
      connection.written();
      this.#bodyRead = true;
      this.#req.resume();
      return;
    }
    let pending: string | undefined = head;
    this.#req.on('data', (chunk: Buffer) => {
      this.#request.add(chunk);
      const on = this.#connection;
      if (on === undefined || this.#retried || chunk.length === 0) return;
      const size = framing === 'chunked' ? `${chunk.length.toString(16)}\r\n` : '';
      const ok = on.write(
        `${pending ?? ''}${size}`,
        chunk,
        framing === 'chunked' ? '\r\n' : undefined,
      );
      pending = undefined;
      if (!ok) {
        this.#req.pause();
        on.onDrain(() => this.#req.resume());
      }
    });
    this.#req.on('end', () => {
      this.#bodyRead = true;
      const on = this.#connection;
      if (on === undefined || this.#retried) return;
      on.write(`${pending ?? ''}${framing === 'chunked' ? '0\r\n\r\n' : ''}`);
      on.written();
    });
  }

  head(status: number, reason: string, rawHeaders: string[]): void {
    this.#status = status;
    this.#headers = kept(rawHeaders);
    this.#answer = new Kept(this.#options.maxAnswerBytes);
    if (!this.#res.destroyed) this.#res.writeHead(status, reason, this.#headers.flat());
  }

  body(chunk: Buffer): void {
    this.#answer?.add(chunk);
    if (this.#res.destroyed || this.#res.write(chunk) || this.#over) return;
    const on = this.#connection;
    if (on === undefined) return;
    this.#over = true;
    on.pause();
    this.#res.once('drain', () => {
      this.#over = false;
      if (this.#connection === on) on.resume();
    });
  }

  end(): void {
    clearTimeout(this.#timer);
    this.#connection = undefined;
    this.#res.end();
    const request = this.#request;
    this.#options.onExchange({
      method: this.#method,
      url: this.#url,
      requestContentType: this.#head.contentType,
      requestText: request.over || request.size === 0 ? undefined : request.bytes()?.toString(),
      requestTooLarge: request.over,
      status: this.#status,
      headers: this.#headers,
      answerPieces: this.#answer?.pieces(),
      ms: performance.now() - this.#started,
    });
  }

  failed(error: NodeJS.ErrnoException, retriable: boolean): void {
    this.#connection = undefined;
    // A kept-alive connection the upstream had just closed: once more on a new one, if the
    // whole request is still at hand.
    const whole = this.#bodyRead && !this.#request.over;
    if (retriable && !this.#retried && whole && !this.#res.destroyed) {
      this.#retried = true;
      this.#pool.send(this, true);
      return;
    }
    clearTimeout(this.#timer);
    const code = error.code ?? '';
    const reason =
      error instanceof MalformedAnswer
        ? `its answer is not HTTP/1.1 as the proxy reads it (${error.message})`
        : `${REASONS[code] ?? error.message}${code ? ` (${code})` : ''}`;
    this.#fail(502, reason);
  }

  /** The exchange stops midway: its connection is closed, or it leaves the queue. */
  #abandon(): void {
    clearTimeout(this.#timer);
    const on = this.#connection;
    this.#connection = undefined;
    if (on !== undefined) on.destroy();
    else this.#pool.cancel(this);
  }

  #fail(status: 502 | 504, reason: string): void {
    // A client that left needs no answer: its going is not the upstream's failure.
    if (this.#res.destroyed) return;
    const { upstream, timeoutMs } = this.#options;
    const message =
      status === 504
        ? `The upstream ${upstream.url} did not answer within ${timeoutMs / 1000} s: ${reason}.`
        : `The upstream ${upstream.url} could not be reached: ${reason}.`;
    if (!this.#res.headersSent)
      this.#options.onFailure({
        method: this.#method,
        path: this.#url.split('?')[0] ?? '/',
        status,
        reason,
      });
    errorAnswer(this.#res, status, message);
  }
}

/**
 * A node:http listener that forwards each request to the upstream and streams its answer back
 * unchanged (status, headers but hop-by-hop ones, body bytes), keeping a copy of each body up to
 * its limit for the judge. Redirects are passed back, never followed: no header of the client
 * ever goes to another origin. `close` closes its connections to the upstream.
 */
export function forwardingListener(options: ForwardOptions): {
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  close: () => void;
} {
  const pool = new UpstreamPool(options.upstream);
  return {
    listener: (req, res) => new Forwarding(options, pool, req, res).start(),
    close: () => pool.close(),
  };
}

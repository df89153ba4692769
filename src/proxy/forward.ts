import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Dispatcher, Pool } from 'undici';
import { kept, type RequestHead, requestHead } from './hop-headers.ts';
import { Kept } from './kept-bytes.ts';
import { errorAnswer, refusal } from './own-answers.ts';
import { type OutgoingBody, RequestBody } from './request-body.ts';
import { type Upstream, upstreamPath } from './upstream.ts';
import { type FailureSide, failureOf, mayRetry, upstreamPool } from './upstream-pool.ts';

/** One forwarded exchange as the judge needs it: bodies kept only up to their limits. */
export type Captured = {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  requestContentType: string | undefined;
  /** The request body, or undefined for none or one over the limit (`requestTooLarge`). */
  requestText: string | undefined;
  requestTooLarge: boolean;
  /** The names of the request's headers as sent on; their values never leave this thread. */
  requestHeaderNames: string[];
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

const textOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const latin1 = (raw: Buffer | string) => (typeof raw === 'string' ? raw : raw.toString('latin1'));

/** One client request on its way: its answer, its failure, and what the judge is handed. */
class Forwarding implements Dispatcher.DispatchHandler {
  readonly #options: ForwardOptions;
  readonly #pool: Pool;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #started = performance.now();
  readonly #method: string;
  readonly #url: string;
  readonly #head: RequestHead;
  readonly #body: RequestBody;
  #controller: Dispatcher.DispatchController | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** A byte of the upstream's answer came: sending the request again is no longer safe. */
  #answered = false;
  #retried = false;
  /** Answered, failed or abandoned: nothing more goes to the client. */
  #over = false;
  #status = 0;
  #headers: [string, string][] = [];
  #answer: Kept | undefined;
  /** The answer's `Content-Length` when it has a body: the bytes sent must be as many. */
  #length: number | undefined;
  /** An answer with no body whatever its headers say (to HEAD, a 204, a 304). */
  #noBody = false;

  constructor(
    options: ForwardOptions,
    pool: Pool,
    req: IncomingMessage,
    res: ServerResponse,
    head: RequestHead,
  ) {
    this.#options = options;
    this.#pool = pool;
    this.#req = req;
    this.#res = res;
    this.#method = req.method ?? 'GET';
    this.#url = req.url ?? '/';
    this.#head = head;
    this.#body = new RequestBody(req, head.framing, options.maxRequestBytes);
  }

  /** Reads the request, sends it on, answers the client when the upstream does (or a 502/504). */
  start(): void {
    this.#res.on('close', () => {
      if (!this.#res.writableFinished) this.#abandon();
    });
    this.#res.on('error', () => this.#abandon());
    this.#req.on('error', () => this.#abandon());
    this.#body.read(
      (body) => this.#send(body),
      (error) => this.#broke(error),
    );
  }

  #send(body: OutgoingBody): void {
    if (this.#over) return;
    this.#timer ??= setTimeout(() => {
      this.#fail(504, 'no complete answer in time');
      this.#controller?.abort(new Error('no complete answer in time'));
    }, this.#options.timeoutMs).unref();
    const { headers, length } = this.#head;
    try {
      this.#pool.dispatch(
        {
          method: this.#method,
          path: upstreamPath(this.#options.upstream, this.#url),
          headers:
            body instanceof Readable && length !== undefined
              ? [...headers, 'content-length', length]
              : headers,
          body,
        },
        this,
      );
    } catch (error) {
      this.#broke(error);
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#over) controller.abort(new Error('the exchange is over'));
  }

  onResponseStarted(): void {
    this.#answered = true;
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    _headers: unknown,
    reason?: string,
  ): void {
    // An interim answer (103 Early Hints…): the final one follows.
    if (status < 200 || this.#over) return;
    try {
      this.#status = status;
      this.#headers = kept(((controller.rawHeaders ?? []) as (Buffer | string)[]).map(latin1));
      this.#answer = new Kept(this.#options.maxAnswerBytes);
      this.#noBody = this.#method === 'HEAD' || status === 204 || status === 304;
      const length = this.#headers.find(([name]) => name.toLowerCase() === 'content-length');
      this.#length = this.#noBody || length === undefined ? undefined : Number(length[1]);
      this.#res.writeHead(status, reason ?? '', this.#headers.flat());
    } catch (error) {
      // A status line or header llhttp let through and Node will not write.
      this.#fail(502, `its answer cannot be sent on as HTTP/1.1 (${textOf(error)})`, 'answer');
      controller.abort(new Error('not forwarded'));
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#answer?.add(chunk);
    if (this.#over || this.#res.write(chunk)) return;
    controller.pause();
    this.#res.once('drain', () => controller.resume());
  }

  onResponseEnd(): void {
    clearTimeout(this.#timer);
    if (this.#over) return;
    this.#over = true;
    const answer = this.#answer;
    // The Content-Length sent is the number of bytes sent, or the connection is cut.
    if (answer === undefined || (this.#length !== undefined && answer.size !== this.#length)) {
      this.#res.destroy();
      return;
    }
    this.#res.end();
    const request = this.#body.kept;
    this.#options.onExchange({
      method: this.#method,
      url: this.#url,
      requestContentType: this.#head.contentType,
      requestText: request.over || request.size === 0 ? undefined : request.bytes()?.toString(),
      requestTooLarge: request.over,
      requestHeaderNames: this.#head.headers.filter((_, i) => i % 2 === 0),
      status: this.#status,
      headers: this.#headers,
      answerPieces: answer.pieces(),
      ms: performance.now() - this.#started,
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    // Never throws: undici would hand a throw from here to an 'error' event nobody listens to.
    try {
      if (this.#over) return;
      this.#controller = undefined;
      // undici holds a 304's (or 204's) Content-Length against its no body: the answer is whole.
      if (
        this.#noBody &&
        (error as { code?: string }).code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH'
      ) {
        this.onResponseEnd();
        return;
      }
      const again = this.#answered || this.#retried ? undefined : this.#body.again();
      if (again !== undefined && mayRetry(error, this.#method)) {
        this.#retried = true;
        setImmediate(() => this.#send(again));
        return;
      }
      const failure = failureOf(error);
      this.#fail(502, failure.reason, failure.side);
    } catch {
      this.#res.destroy();
    }
  }

  /** A fault of the proxy's own in this exchange ends this exchange alone. */
  #broke(error: unknown): void {
    this.#fail(502, `the proxy could not forward this request (${textOf(error)})`, 'proxy');
    this.#controller?.abort(new Error('not forwarded'));
  }

  /** The client left or its request broke: the upstream request is dropped. */
  #abandon(): void {
    clearTimeout(this.#timer);
    this.#over = true;
    this.#controller?.abort(new Error('the client left'));
  }

  /** `side`: what failed, the connection, the upstream's answer, or the proxy itself. */
  #fail(status: 502 | 504, reason: string, side: FailureSide = 'connection'): void {
    clearTimeout(this.#timer);
    // A client that left needs no answer: its going is not the upstream's failure.
    if (this.#over || this.#res.destroyed) return;
    this.#over = true;
    const { upstream, timeoutMs } = this.#options;
    const text =
      status === 504
        ? `The upstream ${upstream.url} did not answer within ${timeoutMs / 1000} s: ${reason}.`
        : side === 'answer'
          ? `The upstream ${upstream.url} answered what the proxy cannot forward: ${reason}.`
          : side === 'proxy'
            ? `hrmock proxy could not forward this request to ${upstream.url}: ${reason}.`
            : `The upstream ${upstream.url} could not be reached: ${reason}.`;
    if (!this.#res.headersSent)
      this.#options.onFailure({
        method: this.#method,
        path: this.#url.split('?')[0] ?? '/',
        status,
        reason,
      });
    errorAnswer(this.#req, this.#res, status, text);
  }
}

/**
 * A node:http listener that forwards each request to the upstream and streams its answer back
 * unchanged (status, headers but hop-by-hop ones, body bytes), keeping a copy of each body up to
 * its limit for the judge. Redirects are passed back, never followed: no header of the client
 * ever goes to another origin. A fault in one exchange answers that client (502), never ends
 * the process. `close` closes the connections to the upstream.
 */
export function forwardingListener(options: ForwardOptions): {
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  close: () => Promise<void>;
} {
  const pool = upstreamPool(options.upstream, options.timeoutMs);
  return {
    listener: (req, res) => {
      try {
        const head = requestHead(req.rawHeaders);
        const refused = refusal(req, head);
        if (refused === undefined) new Forwarding(options, pool, req, res, head).start();
        else errorAnswer(req, res, ...refused);
      } catch (error) {
        // A fault in one exchange ends that exchange alone.
        const reason = `the proxy could not forward this request (${textOf(error)})`;
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        options.onFailure({ method: req.method ?? 'GET', path, status: 502, reason });
        errorAnswer(req, res, 502, `hrmock proxy could not forward this request: ${textOf(error)}`);
      }
    },
    close: () => pool.destroy(),
  };
}

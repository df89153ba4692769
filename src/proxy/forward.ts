import {
  Agent,
  type ClientRequest,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { type Upstream, upstreamPath } from './upstream.ts';

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
  onExchange: (exchange: Captured) => void;
  onFailure: (failure: UpstreamFailure) => void;
};

/** Headers that belong to one connection, never forwarded (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

function kept(raw: string[], extra: string[] = []): [string, string][] {
  const pairs: [string, string][] = [];
  const dropped = new Set([
    ...HOP_BY_HOP,
    ...extra,
    ...connectionTokens(raw).map((t) => t.toLowerCase()),
  ]);
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (!dropped.has(name.toLowerCase())) pairs.push([name, raw[i + 1] as string]);
  }
  return pairs;
}

/** The header names a `Connection` header lists: hop-by-hop too. */
function connectionTokens(raw: string[]): string[] {
  const tokens: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2)
    if ((raw[i] as string).toLowerCase() === 'connection')
      tokens.push(...(raw[i + 1] as string).split(',').map((t) => t.trim()));
  return tokens;
}

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
}

type Sender = (options: object) => ClientRequest;

/** How each client request reaches the upstream: one keep-alive pool for all of them. */
function senderOf(upstream: Upstream): Sender {
  const secure = upstream.protocol === 'https:';
  const agent = secure
    ? new HttpsAgent({ keepAlive: true, maxSockets: 256 })
    : new Agent({ keepAlive: true, maxSockets: 256 });
  const send = secure ? httpsRequest : httpRequest;
  return (options) => send({ agent, ...options });
}

/** One client request on its way: its answer, its failure, and what the judge is handed. */
class Forwarding {
  readonly #options: ForwardOptions;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #started = performance.now();
  readonly #method: string;
  readonly #url: string;
  readonly #request: Kept;

  constructor(options: ForwardOptions, req: IncomingMessage, res: ServerResponse) {
    this.#options = options;
    this.#req = req;
    this.#res = res;
    this.#method = req.method ?? 'GET';
    this.#url = req.url ?? '/';
    this.#request = new Kept(options.maxRequestBytes);
  }

  /** Sends the request on, answers the client when the upstream does (or a 502/504 when not). */
  start(send: Sender): void {
    const { upstream } = this.#options;
    let outgoing: ClientRequest;
    try {
      outgoing = send({
        method: this.#method,
        hostname: upstream.hostname,
        port: upstream.port,
        path: upstreamPath(upstream, this.#url),
        headers: [...kept(this.#req.rawHeaders).flat(), 'Host', upstream.host],
      });
    } catch (error) {
      // A method or path node:http refuses to send: the client's request cannot be forwarded.
      this.#fail(502, `the request could not be sent on (${(error as Error).message})`);
      this.#req.resume();
      return;
    }
    const timer = setTimeout(() => {
      this.#fail(504, 'no complete answer in time');
      outgoing.destroy();
    }, this.#options.timeoutMs);
    timer.unref();
    this.#res.on('close', () => {
      clearTimeout(timer);
      if (!this.#res.writableFinished) outgoing.destroy();
    });
    this.#req.on('data', (chunk: Buffer) => this.#request.add(chunk));
    this.#req.pipe(outgoing);
    this.#req.on('error', () => outgoing.destroy());
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const code = error.code ?? '';
      this.#fail(502, `${REASONS[code] ?? error.message}${code ? ` (${code})` : ''}`);
    });
    outgoing.on('response', (answer) => this.#answer(answer, timer));
  }

  /** Streams the upstream's answer to the client, then hands the exchange to the judge. */
  #answer(answer: IncomingMessage, timer: NodeJS.Timeout): void {
    const headers = kept(answer.rawHeaders);
    const status = answer.statusCode ?? 502;
    if (this.#res.destroyed) {
      answer.destroy();
      return;
    }
    this.#res.writeHead(status, answer.statusMessage, headers.flat());
    const body = new Kept(this.#options.maxAnswerBytes);
    answer.on('data', (chunk: Buffer) => body.add(chunk));
    answer.on('error', () => this.#res.destroy());
    answer.pipe(this.#res);
    answer.on('end', () => {
      clearTimeout(timer);
      const request = this.#request;
      this.#options.onExchange({
        method: this.#method,
        url: this.#url,
        requestContentType: this.#req.headers['content-type'],
        requestText: request.over || request.size === 0 ? undefined : request.bytes()?.toString(),
        requestTooLarge: request.over,
        status,
        headers,
        answer: body.bytes(),
        ms: performance.now() - this.#started,
      });
    });
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
 * ever goes to another origin.
 */
export function forwardingListener(
  options: ForwardOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const send = senderOf(options.upstream);
  return (req, res) => new Forwarding(options, req, res).start(send);
}

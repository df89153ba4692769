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

/**
 * A node:http listener that forwards each request to the upstream and streams its answer back
 * unchanged (status, headers but hop-by-hop ones, body bytes), keeping a copy of each body up to
 * its limit for the judge. Redirects are passed back, never followed: no header of the client
 * ever goes to another origin.
 */
export function forwardingListener(
  options: ForwardOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { upstream } = options;
  const secure = upstream.protocol === 'https:';
  const agent = secure
    ? new HttpsAgent({ keepAlive: true, maxSockets: 256 })
    : new Agent({ keepAlive: true, maxSockets: 256 });
  const send = secure ? httpsRequest : httpRequest;

  return (req, res) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const fail = (status: 502 | 504, reason: string) => {
      // A client that left needs no answer: its going is not the upstream's failure.
      if (res.destroyed) return;
      const message =
        status === 504
          ? `The upstream ${upstream.url} did not answer within ${options.timeoutMs / 1000} s: ${reason}.`
          : `The upstream ${upstream.url} could not be reached: ${reason}.`;
      if (!res.headersSent)
        options.onFailure({ method, path: url.split('?')[0] ?? '/', status, reason });
      errorAnswer(res, status, message);
    };
    let outgoing: ClientRequest;
    try {
      outgoing = send({
        agent,
        method,
        hostname: upstream.hostname,
        port: upstream.port,
        path: upstreamPath(upstream, url),
        headers: [...kept(req.rawHeaders).flat(), 'Host', upstream.host],
      });
    } catch (error) {
      // A method or path node:http refuses to send: the client's request cannot be forwarded.
      fail(502, `the request could not be sent on (${(error as Error).message})`);
      req.resume();
      return;
    }
    const timer = setTimeout(() => {
      fail(504, 'no complete answer in time');
      outgoing.destroy();
    }, options.timeoutMs);
    timer.unref();
    res.on('close', () => {
      clearTimeout(timer);
      if (!res.writableFinished) outgoing.destroy();
    });

    const requestChunks: Buffer[] = [];
    let requestBytes = 0;
    req.on('data', (chunk: Buffer) => {
      requestBytes += chunk.length;
      if (requestBytes <= options.maxRequestBytes) requestChunks.push(chunk);
    });
    req.pipe(outgoing);
    req.on('error', () => outgoing.destroy());

    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const code = error.code ?? '';
      fail(502, `${REASONS[code] ?? error.message}${code ? ` (${code})` : ''}`);
    });
    outgoing.on('response', (answer) => {
      const headers = kept(answer.rawHeaders);
      const status = answer.statusCode ?? 502;
      if (res.destroyed) {
        answer.destroy();
        return;
      }
      res.writeHead(status, answer.statusMessage, headers.flat());
      const chunks: Buffer[] = [];
      let size = 0;
      answer.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= options.maxAnswerBytes) chunks.push(chunk);
        else chunks.length = 0;
      });
      answer.on('error', () => res.destroy());
      answer.pipe(res);
      answer.on('end', () => {
        clearTimeout(timer);
        const tooLarge = requestBytes > options.maxRequestBytes;
        options.onExchange({
          method,
          url,
          requestContentType: req.headers['content-type'],
          requestText:
            tooLarge || requestBytes === 0 ? undefined : Buffer.concat(requestChunks).toString(),
          requestTooLarge: tooLarge,
          status,
          headers,
          answer: size <= options.maxAnswerBytes ? Buffer.concat(chunks) : undefined,
          ms: performance.now() - started,
        });
      });
    });
  };
}

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long the server waits on a slow client; each is a `serve` flag. */
export type ConnectionTimeouts = {
  /** Until the request's headers are complete (slowloris). */
  headersMs: number;
  /** Until the whole request, body included, is complete (a body trickled in). */
  requestMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number;
  /** An answer the client stops reading is given up on after this long without progress. */
  writeMs: number;
};

export const DEFAULT_TIMEOUTS: ConnectionTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  writeMs: 30_000,
};

/** After an early answer, the rest of a request body is read (and dropped) this long at most. */
const DRAIN_MS = 2_000;
/** Statuses answered without reading the rest of the request, or after refusing part of it. */
const EARLY = new Set([408, 413, 414, 431]);

/**
 * The `createServer` options for the timeouts. Node checks them every
 * `connectionsCheckingInterval`, 30 s by default: far too coarse for a 10 s limit.
 */
export function serverTimeoutOptions(timeouts: ConnectionTimeouts) {
  const headersMs = Math.min(timeouts.headersMs, timeouts.requestMs);
  return {
    headersTimeout: headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(headersMs / 4))),
  };
}

/**
 * An answer written before the request was read to its end (413 on a body too large, 415 before
 * the body, any refusal) leaves bytes on the connection that the next request would be parsed
 * from. Such an answer says `Connection: close`, the rest of the body is drained for a moment,
 * and the socket is then closed: a pooled client (undici, axios, requests.Session) takes the
 * header as its cue to open a new connection, instead of reusing one that is about to go.
 */
export function closeAfterEarlyAnswer(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const headers = args.find((a, i) => i > 0 && typeof a === 'object' && a !== null);
    closeIfEarly(req, this, args[0] as number, Array.isArray(headers) ? headers : undefined);
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}

/**
 * What `closeAfterEarlyAnswer` does, for a writer that calls it itself just before
 * `res.writeHead(status, headers)`: `Connection: close` goes into `headers` (a flat list) when
 * one is given, else is set on `res`.
 */
export function closeIfEarly(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: unknown[] | undefined,
): void {
  if (!bodyPending(req) && !EARLY.has(status)) return;
  res.shouldKeepAlive = false;
  if (headers !== undefined) {
    const at = headers.findIndex((h, i) => i % 2 === 0 && String(h).toLowerCase() === 'connection');
    if (at >= 0) headers[at + 1] = 'close';
    else headers.push('Connection', 'close');
  } else {
    res.setHeader('Connection', 'close');
  }
  res.once('finish', () => drainThenClose(req, res.socket));
}

/**
 * Whether body bytes may still be on their way. Not `!req.complete` alone: an answer written
 * during the 'request' event (a cached one) comes before Node marks even a GET complete.
 */
function bodyPending(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function drainThenClose(req: IncomingMessage, socket: Socket | null): void {
  if (socket === null || socket.destroyed) return;
  if (!bodyPending(req)) {
    socket.end();
    return;
  }
  // Read what is still coming and drop it: closing with unread bytes would reset the
  // connection, and the client might lose the answer it has not read yet.
  req.resume();
  const timer = setTimeout(() => socket.destroy(), DRAIN_MS);
  timer.unref();
  req.once('end', () => {
    clearTimeout(timer);
    socket.end();
  });
  socket.once('close', () => clearTimeout(timer));
}

/**
 * Closes a connection whose client has stopped reading its answer: no byte of it taken for
 * `writeMs` (a client reading slowly makes progress, and Node then holds the timeout back). The
 * socket timeout also fires while an answer is being made (a `--latency` wait) and on an idle
 * keep-alive connection: the first is left alone, the second closed as Node would.
 */
export function closeStalledWrites(server: Server, writeMs: number): void {
  server.timeout = writeMs;
  server.on('timeout', (socket: Socket) => {
    const answer = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (answer == null || answer.headersSent) socket.destroy();
  });
}

const REASONS: Record<number, string> = {
  400: 'Bad request: the request could not be read as HTTP.',
  408: 'Request timeout: the request did not arrive in time. Send it again, faster.',
  431: 'Request header fields too large: send long parameters in a POST body instead of the URL or headers.',
};

/**
 * What Node answers by itself, before any handler runs (a malformed request, headers too large,
 * a request too slow), in the API's envelope, and the connection closed.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? 431
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT'
          ? 408
          : 400;
    const body = JSON.stringify({ code: status, message: REASONS[status] });
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    setTimeout(() => socket.destroy(), DRAIN_MS).unref();
  });
}

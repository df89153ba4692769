import type { Socket } from 'node:net';
import { buildConnector, Pool } from 'undici';
import type { Upstream } from './upstream.ts';

/** The most bytes of an answer's head, as the proxy accepts of a request's. */
const MAX_HEAD_BYTES = 256 * 1024;

/**
 * Kept-alive HTTP/1.1 connections to the upstream, read by undici's llhttp: at most 256 open, an
 * idle one closed after 4 s (or 2 s before the upstream's `Keep-Alive: timeout`), before node:http
 * servers' 5 s. The proxy's own timeout covers the answer; undici's are off.
 */
export function upstreamPool(upstream: Upstream, timeoutMs: number): Pool {
  const connector = buildConnector({ timeout: timeoutMs });
  return new Pool(`${upstream.protocol}//${upstream.host}`, {
    connections: 256,
    keepAliveTimeout: 4000,
    maxHeaderSize: MAX_HEAD_BYTES,
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: (options, callback) =>
      connector(options, (error, socket) => {
        if (socket != null) readPastBrokenWrites(socket);
        (callback as (...args: unknown[]) => void)(error, socket);
      }),
  });
}

/** Write errors that mean the upstream closed (or reset) the connection under the request. */
const CLOSED_UNDER_WRITE = new Set(['EPIPE', 'ECONNRESET']);

/**
 * An upstream may answer before it has read the request's body (a 413 on a body too large) and
 * close the connection at once: the rest of the body then meets a closed connection (EPIPE), while
 * its answer waits unread in the socket. undici gives up the request on the write error, and the
 * answer is lost, depending on which of the two it meets first. Here a write that fails so is
 * taken as done and those after it are dropped, so the socket is still read: the answer, if one
 * came, is forwarded (undici reads an answer that comes before the whole request was sent). If
 * the connection ends without one, it ends with the write's own error, as before.
 */
function readPastBrokenWrites(socket: Socket): void {
  let broken: (Error & { code?: string }) | undefined;
  const guard =
    (write: (...args: never[]) => void) =>
    (...args: unknown[]) => {
      const done = args.at(-1) as (error?: Error | null) => void;
      if (broken !== undefined) {
        done();
        return;
      }
      (write as (...a: unknown[]) => void).call(
        socket,
        ...args.slice(0, -1),
        (error?: Error | null) => {
          const code = (error as { code?: string } | null | undefined)?.code;
          if (error == null || code === undefined || !CLOSED_UNDER_WRITE.has(code)) {
            done(error);
            return;
          }
          broken = error;
          done();
        },
      );
    };
  const writable = socket as unknown as Record<'_write' | '_writev', unknown>;
  if (typeof writable._write === 'function')
    writable._write = guard(writable._write as (...args: never[]) => void);
  if (typeof writable._writev === 'function')
    writable._writev = guard(writable._writev as (...args: never[]) => void);
  // Ended with no answer read since: the request failed as it was sent.
  socket.prependListener('end', () => {
    if (broken !== undefined && !socket.destroyed) socket.destroy(broken);
  });
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (is it running?)',
  ECONNRESET: 'the connection was reset before an answer',
  ENOTFOUND: 'its host name does not resolve',
  EAI_AGAIN: 'its host name could not be resolved now',
  EHOSTUNREACH: 'its host cannot be reached',
  ENETUNREACH: 'its network cannot be reached',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  EPIPE: 'the connection closed while the request was sent',
};

/** What llhttp's complaint is about, from its words, in the proxy's. */
const PARSER_FAULTS: [RegExp, string][] = [
  [/Transfer-Encoding|Content-Length/i, 'its body framing is not one HTTP allows'],
  [/chunk/i, 'a bad chunk in its body'],
  [/header|\bCR\b|\bLF\b/i, 'a bad header line'],
  [/HTTP\/|version|status|dot|space|constant/i, 'a bad status line'],
];

/** What failed: the connection to the upstream, its answer, or the proxy itself. */
export type FailureSide = 'connection' | 'answer' | 'proxy';

/** Why the upstream's answer could not be forwarded, as the 502 and the report say it. */
export function failureOf(error: Error & { code?: string }): {
  reason: string;
  side: FailureSide;
} {
  const code = error.code ?? '';
  const answer = (reason: string) => ({ reason, side: 'answer' as const });
  if (error.name === 'HTTPParserError') {
    const detail = /\((.+)\)$/.exec(error.message)?.[1] ?? error.message;
    const fault =
      PARSER_FAULTS.find(([words]) => words.test(detail))?.[1] ?? 'bytes it cannot read';
    return answer(`its answer is not HTTP/1.1 as the proxy reads it: ${fault} (${detail})`);
  }
  if (code === 'UND_ERR_SOCKET' && error.message === 'bad response')
    return answer(
      'its answer is not HTTP/1.1 as the proxy reads it: an interim 100 Continue it did not ask for',
    );
  if (code === 'UND_ERR_SOCKET' && error.message === 'bad upgrade')
    return answer('its answer switched protocols, which the proxy does not');
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH')
    return answer('its body is not as long as its Content-Length says');
  if (code === 'UND_ERR_HEADERS_OVERFLOW')
    return answer(`its headers are longer than ${MAX_HEAD_BYTES} bytes`);
  const reason =
    code === 'UND_ERR_SOCKET'
      ? 'the connection closed before a complete answer'
      : `${REASONS[code] ?? error.message}${code ? ` (${code})` : ''}`;
  return { reason, side: 'connection' };
}

/** Methods whose requests may be sent twice (RFC 9110 9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

/**
 * Whether a request that failed before any byte of its answer may be sent once more: its
 * kept-alive connection was closed by the upstream under it (undici's socket had read earlier
 * answers), or it was reset or broken and the method is idempotent.
 */
export function mayRetry(
  error: Error & { code?: string; socket?: { bytesRead?: number } },
  method: string,
): boolean {
  if (error.code === 'UND_ERR_SOCKET' && error.message === 'other side closed')
    return (error.socket?.bytesRead ?? 0) > 0 || IDEMPOTENT.has(method);
  return (error.code === 'ECONNRESET' || error.code === 'EPIPE') && IDEMPOTENT.has(method);
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Fault } from './scenarios.ts';

/** Answers that stand for a fault, and which: only a server (or the in-process fetch) acts it. */
const faults = new WeakMap<Response, Fault>();

const MALFORMED = '{"code": 200, "message": "OK", "data": {"profiles": [{"key": "';

/**
 * The answer a fault stands for: for `malformed-json` a 200 whose body is not JSON, for
 * `truncated` the normal answer (cut short when written), for `reset` and `hang` nothing.
 */
export function markFault(fault: Fault, answer: Response | undefined): Response {
  const response =
    fault === 'malformed-json'
      ? new Response(MALFORMED, { status: 200, headers: { 'Content-Type': 'application/json' } })
      : new Response(answer?.body ?? null, {
          status: answer?.status ?? 200,
          headers: answer?.headers ?? {},
        });
  faults.set(response, fault);
  return response;
}

export function faultOf(response: Response): Fault | undefined {
  return faults.get(response);
}

/**
 * A fault as a `fetch` in process sees it: a reset rejects as undici does (TypeError, cause
 * ECONNRESET), a hang rejects once the request's signal aborted, a truncated body errors midway.
 */
export async function inProcessFault(fault: Fault, response: Response): Promise<Response> {
  if (fault === 'reset' || fault === 'hang') {
    const cause = Object.assign(new Error(fault === 'reset' ? 'read ECONNRESET' : 'aborted'), {
      code: fault === 'reset' ? 'ECONNRESET' : 'ABORT_ERR',
    });
    throw new TypeError('fetch failed', { cause });
  }
  if (fault === 'malformed-json') return response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  const half = bytes.subarray(0, Math.floor(bytes.length / 2));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(half);
      controller.error(
        Object.assign(new TypeError('terminated'), {
          cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
        }),
      );
    },
  });
  const headers = new Headers(response.headers);
  headers.set('content-length', String(bytes.length));
  return new Response(body, { status: response.status, headers });
}

/**
 * A fault on a node:http connection: `reset` closes it at once with a TCP reset and no answer;
 * `hang` has waited for the client to give up and closes it; `truncated` announces the whole
 * Content-Length, writes half of the body and closes; `malformed-json` is an ordinary answer.
 */
export async function writeFault(
  fault: Fault,
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
): Promise<boolean> {
  if (fault === 'malformed-json') return false;
  if (fault === 'reset' || fault === 'hang') {
    req.socket.resetAndDestroy();
    return true;
  }
  const bytes = Buffer.from(await response.arrayBuffer());
  const headers: string[] = [];
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') headers.push(name, value);
  });
  headers.push('content-length', String(bytes.length), 'connection', 'close');
  res.writeHead(response.status, headers);
  res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
  return true;
}

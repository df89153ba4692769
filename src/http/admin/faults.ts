import type { Fault } from './scenarios.ts';

/**
 * Marks an answer that stands for a fault (Hono copies answers, so a header, not identity): only
 * a server or the in-process fetch acts it, and neither lets the header out.
 */
export const FAULT_HEADER = 'x-hrmock-fault';

const MALFORMED = '{"code": 200, "message": "OK", "data": {"profiles": [{"key": "';

/**
 * The answer a fault stands for: for `malformed-json` a 200 whose body is not JSON, for
 * `truncated` the normal answer (cut short when written), for `reset` and `hang` nothing.
 */
export function markFault(fault: Fault, answer: Response | undefined): Response {
  const headers = new Headers(
    fault === 'malformed-json' ? { 'Content-Type': 'application/json' } : answer?.headers,
  );
  headers.set(FAULT_HEADER, fault);
  const body = fault === 'malformed-json' ? MALFORMED : (answer?.body ?? null);
  return new Response(body, { status: answer?.status ?? 200, headers });
}

export function faultOf(response: Response): Fault | undefined {
  return (response.headers.get(FAULT_HEADER) ?? undefined) as Fault | undefined;
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
  const headers = new Headers(response.headers);
  headers.delete(FAULT_HEADER);
  if (fault === 'malformed-json')
    return new Response(response.body, { status: response.status, headers });
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
  headers.set('content-length', String(bytes.length));
  return new Response(body, { status: response.status, headers });
}

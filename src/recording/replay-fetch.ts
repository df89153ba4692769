import { Hono } from 'hono';
import { apiCorsMiddleware } from '../http/api-cors.ts';
import { ApiError, errorBody } from '../http/api-error.ts';
import { loadRecordings, type RecordedAnswer } from './recordings-folder.ts';
import { asksOperation, readOperationRequest, requestKey } from './request-key.ts';

type Fetch = (request: Request) => Response | Promise<Response>;

export type ReplayOptions = {
  /** The folder `hrmock proxy --record` wrote. */
  dir: string;
  /** A request of the six operations with no recording gets a 404 instead of the fixtures' answer. */
  strict?: boolean;
  /** The deepest JSON body read for the key or from a recording (the app's limit). */
  maxDepth?: number;
};

/**
 * A fetch that answers a recorded request with its recorded status and body, and anything else
 * through `inner` (or, strict, a request of the six operations with a 404 naming its key).
 * Reads the folder once, when made: a bad folder throws a RecordingError at once.
 */
export function replayFetch(inner: Fetch, options: ReplayOptions): Fetch {
  const answers = loadRecordings(options.dir, options.maxDepth);
  // A recorded answer goes out through the API's own CORS, as the live answer did.
  const served = new Hono<{ Bindings: { answer: Response } }>();
  served.use(apiCorsMiddleware());
  served.all('*', (c) => c.env.answer);
  return async (request) => {
    const url = new URL(request.url);
    const method = request.method;
    const reached = readOperationRequest(
      method,
      `${url.pathname}${url.search}`,
      method === 'POST' ? await request.clone().text() : undefined,
      request.headers.get('content-type') ?? undefined,
      options.maxDepth,
    );
    if (reached === undefined || !asksOperation(method, reached.operation)) return inner(request);
    const key = requestKey(reached);
    const recorded = key === undefined ? undefined : answers.get(key);
    if (recorded !== undefined) return served.fetch(request, { answer: answerOf(recorded) });
    if (!options.strict || key === undefined) return inner(request);
    const missing = new ApiError(
      404,
      `No recording matches this request (key ${key}). Record it through hrmock proxy --record, or serve without --replay-strict to answer it from the fixtures.`,
    );
    return served.fetch(request, {
      answer: Response.json(errorBody(missing), { status: 404 }),
    });
  };
}

/** An answer recorded as anything but JSON can hold a page or a script: never run or sniffed. */
const INERT: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'",
};

function answerOf(recorded: RecordedAnswer): Response {
  const headers: Record<string, string> = recorded.json ? {} : { ...INERT };
  if (recorded.contentType !== null) headers['content-type'] = recorded.contentType;
  return new Response(new Uint8Array(recorded.bytes), { status: recorded.status, headers });
}

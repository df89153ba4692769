import type { IncomingMessage, ServerResponse } from 'node:http';
import { SERVER_ERROR } from '../http/api-error.ts';
import type { CachedAnswer, RequestKey } from './answer-cache.ts';
import { OK_HEADERS } from './fast-answer.ts';

const SERVER_ERROR_BYTES = Buffer.from(JSON.stringify(SERVER_ERROR));

/** The 500 envelope if nothing was sent yet; else the connection is cut (the answer is broken). */
export function writeServerError(res: ServerResponse): void {
  try {
    if (!res.headersSent) {
      res.writeHead(500, [
        ...OK_HEADERS.flat(),
        'content-length',
        String(SERVER_ERROR_BYTES.length),
      ]);
      res.end(SERVER_ERROR_BYTES);
      return;
    }
  } catch {}
  res.destroy();
}

export function acceptsGzip(req: IncomingMessage): boolean {
  return /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
}

/** Per list of an answer's headers, the flat list of them that every such answer starts with. */
const wirePrefixes = new WeakMap<object, { plain: string[]; gzip: string[] }>();

/** The answer's headers as a flat [name, value, …] list, with its length, encoding and Vary. */
export function wireHeaders(answer: CachedAnswer, payload: Buffer, gzip: boolean): string[] {
  let prefixes = wirePrefixes.get(answer.headers);
  if (prefixes === undefined) {
    const plain = [...answer.headers.flat(), 'vary', 'Accept-Encoding'];
    prefixes = { plain, gzip: [...plain, 'content-encoding', 'gzip'] };
    wirePrefixes.set(answer.headers, prefixes);
  }
  const flat = (gzip ? prefixes.gzip : prefixes.plain).slice();
  flat.push('content-length', String(payload.length));
  return flat;
}

/** Everything an answer depends on: method, URL, body and the headers the app reads. */
export function keyOf(
  generation: number,
  req: IncomingMessage,
  body: Buffer | undefined,
  contexts: Map<string, string>,
): RequestKey {
  const { headers } = req;
  const context = `${generation}\n${req.method}\n${headers['content-type'] ?? ''}\n${headers['x-api-key'] ?? ''}\n${headers.origin === undefined ? '' : 'origin'}`;
  return { context: shared(contexts, context), url: req.url ?? '/', body };
}

const MAX_SHARED = 256;

/** The one copy of `value` kept under `id`; past MAX_SHARED distinct values, `value` itself. */
export function shared<T extends string | [string, string][]>(known: Map<string, T>, value: T): T {
  const id = typeof value === 'string' ? value : value.flat().join('\n');
  const found = known.get(id);
  if (found !== undefined) return found;
  if (known.size < MAX_SHARED) known.set(id, value);
  return value;
}

/**
 * Calls `done` with the request's body once it has all arrived: the one chunk it came in, as a
 * short body does, or the chunks joined (a callback, not a promise: a POST is answered in the
 * turn its body ends, as a GET is).
 */
export function readBody(
  req: IncomingMessage,
  done: (body: Buffer) => void,
  failed: (error: Error) => void,
): void {
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  req.on('data', (chunk: Buffer) => {
    if (first === undefined) first = chunk;
    else if (chunks === undefined) chunks = [first, chunk];
    else chunks.push(chunk);
  });
  req.on('end', () => done(chunks === undefined ? (first ?? EMPTY) : Buffer.concat(chunks)));
  req.on('error', failed);
}

const EMPTY = Buffer.alloc(0);

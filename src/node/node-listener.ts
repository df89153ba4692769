import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { getRequestListener } from '@hono/node-server';
import { operationPath } from '../http/admin/operation-paths.ts';
import { reportInternalError, SERVER_ERROR } from '../http/api-error.ts';
import type { HrmockApp } from '../http/app.ts';
import { AnswerCache, type CachedAnswer, type RequestKey } from './answer-cache.ts';
import { gzipFromPieces } from './answer-gzip.ts';
import { closeAfterEarlyAnswer } from './connections.ts';
import { FastAnswer, OK_HEADERS } from './fast-answer.ts';
import { createFastPath } from './fast-path.ts';
import { OutputPool } from './output-pool.ts';
import { steeredListener } from './steered-listener.ts';
import { Turn } from './turn.ts';

export type ListenerOptions = {
  /** Bytes of whole answers kept for repeated requests; 0 turns the cache off. */
  answerCacheBytes: number;
  /**
   * `auto` (the default): gzip for clients that accept it, made from compressed objects for a
   * fresh answer and once for a cached one; `off`: never.
   */
  compress?: 'auto' | 'off';
  /** Answer the operations from the HR operations when nothing else is needed (default true). */
  fastPath?: boolean;
  /** A cache made by the caller, used instead of one of `answerCacheBytes` (tests measure it). */
  cache?: AnswerCache;
};

/** Bodies up to this size are read up front so that a POST can be answered without Hono. */
const MAX_CACHED_BODY = 64 * 1024;
const GZIP_FROM_BYTES = 1024;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The node:http listener for an app. A request for one of the six operations that needs
 * nothing else of the app is answered by the HR operations without Hono (`createFastPath`); a repeated
 * request (same method, URL, body and the headers an answer depends on) is answered with the
 * bytes of its first answer without running anything; anything else goes through Hono. Requests
 * whose answer may differ on purpose (a `Prefer` header, random failures) take Hono's path and
 * are never cached.
 */
export function createNodeListener(app: HrmockApp, options: ListenerOptions): Listener {
  const hono = getRequestListener(app.fetch);
  const compress = options.compress !== 'off';
  const { scenarios, journal } = app.steering;
  // A path a scenario is set for is answered through Hono, never from or into the cache.
  const steered = steeredListener(app, hono);
  if (!app.deterministic) {
    return (req, res) => {
      if (scenarios.size > 0 && scenarios.touches(req.url ?? '/')) return steered(req, res);
      closeAfterEarlyAnswer(req, res);
      hono(req, res);
    };
  }
  const cache =
    options.cache ??
    (options.answerCacheBytes > 0 ? new AnswerCache(options.answerCacheBytes) : null);
  // Without the cache a fresh answer is written and dropped: its bytes are made in a buffer of
  // the pool, given back when written. With it, an answer may be kept, in buffers of its own.
  const outputs = cache === null ? new OutputPool() : undefined;
  // A wrapper around the app (a test's mutant) answers through its own fetch, always.
  const own = app.fetch === app.settings.fetch;
  const fast = options.fastPath === false || !own ? () => undefined : createFastPath(app);
  const turn = new Turn(outputs, answer, failed);
  // Kept answers share these instead of holding copies: nearly all have the same few.
  const headerLists = new Map<string, [string, string][]>();
  const contexts = new Map<string, string>();

  return (req, res) => {
    if (scenarios.size > 0 && scenarios.touches(req.url ?? '/')) return steered(req, res);
    const method = req.method ?? 'GET';
    const length = Number(req.headers['content-length'] ?? 0);
    const plain =
      req.headers.prefer === undefined &&
      !isAdmin(req.url) &&
      (method === 'GET' ||
        (method === 'POST' &&
          req.headers['transfer-encoding'] === undefined &&
          length <= MAX_CACHED_BODY));
    if (!plain) {
      closeAfterEarlyAnswer(req, res);
      hono(req, res);
      return;
    }
    const started = performance.now();
    if (method === 'GET') {
      req.resume();
      turn.request(req, res, undefined, started);
      return;
    }
    readBody(
      req,
      (body) => turn.request(req, res, body, started),
      () => res.destroy(),
    );
  };

  /** Answers from the cache or the fast path at once; through the app (a promise) otherwise. */
  function answer(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer | undefined,
    started: number,
  ): void {
    const key = cache === null ? undefined : keyOf(app.generation, req, body, contexts);
    const hit = key === undefined ? undefined : cache?.get(key);
    if (hit !== undefined) {
      if (hit.api === true && journal.on) record(req, body, hit.status, started);
      log(req, hit.status, started);
      send(req, res, hit, key);
      return;
    }
    const quick = fast(req, body);
    if (quick === undefined) {
      runApp(req, body)
        .then((fresh) => keepAndSend(req, res, key, fresh))
        .catch((error) => failed(req, res, started, error));
      return;
    }
    const zipped = compress && acceptsGzip(req) ? gzipFromPieces(quick.pieces, outputs) : undefined;
    const fresh = new FastAnswer(quick, zipped, outputs);
    keepAndSend(req, res, key, fresh);
    if (journal.on) record(req, body, 200, started);
    log(req, 200, started);
  }

  /** An answer that could not be made or written: the 500 envelope, and the cause in the log. */
  function failed(req: IncomingMessage, res: ServerResponse, started: number, error: unknown) {
    log(req, 500, started);
    reportInternalError(req.method ?? 'GET', (req.url ?? '/').split('?')[0] as string, error);
    writeServerError(res);
  }

  function keepAndSend(
    req: IncomingMessage,
    res: ServerResponse,
    key: RequestKey | undefined,
    fresh: CachedAnswer,
  ) {
    if (key !== undefined && fresh.status < 500) cache?.set(key, fresh);
    send(req, res, fresh, key);
  }

  /** Journals a request answered here, without Hono (Hono journals the others itself). */
  function record(req: IncomingMessage, body: Buffer | undefined, status: number, started: number) {
    const ms = performance.now() - started;
    // The body as text: a Buffer from the socket may hold a whole slab of memory with it.
    const text = body === undefined || body.length === 0 ? undefined : body.toString();
    journal.record(req.method ?? 'GET', req.url ?? '/', text, req.headers, status, ms);
  }

  function log(req: IncomingMessage, status: number, started: number) {
    if (!app.log) return;
    app.log(
      `${req.method} ${(req.url ?? '/').split('?')[0]} ${status} ${(performance.now() - started).toFixed(1)}ms`,
    );
  }

  /**
   * Writes an answer, gzipped for a client that accepts it: from compressed objects when that was
   * made, else once per cached answer (never per fresh answer without the cache: too slow).
   */
  function send(
    req: IncomingMessage,
    res: ServerResponse,
    answer: CachedAnswer,
    key: RequestKey | undefined,
  ) {
    const gzip = compress && acceptsGzip(req);
    if (
      gzip &&
      answer.gzip === undefined &&
      cache !== null &&
      answer.body.length >= GZIP_FROM_BYTES
    ) {
      answer.gzip = gzipSync(answer.body, { level: 6 });
      if (key !== undefined) cache.grew(key, answer);
    }
    const zipped = gzip && answer.gzip !== undefined;
    const payload = zipped ? (answer.gzip as Buffer) : answer.body;
    if (answer.wire === undefined) answer.wire = {};
    const wire = answer.wire;
    let headers = zipped ? wire.gzip : wire.plain;
    if (headers === undefined) {
      headers = wireHeaders(answer, payload, zipped);
      if (zipped) wire.gzip = headers;
      else wire.plain = headers;
    }
    turn.write(req, res, answer.status, headers, payload, outputs?.owns(payload) === true);
  }

  async function runApp(req: IncomingMessage, body: Buffer | undefined): Promise<CachedAnswer> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
    const init: RequestInit = { method: req.method ?? 'GET', headers };
    if (body !== undefined) init.body = new Uint8Array(body);
    const response = await app.fetch(new Request(url, init));
    const bytes = Buffer.from(await response.arrayBuffer());
    const kept: [string, string][] = [];
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') kept.push([name, value]);
    });
    // Answered through Hono, which journalled it; from the cache, it is journalled here.
    const api = operationPath(req.url ?? '/') !== undefined;
    return { status: response.status, headers: shared(headerLists, kept), body: bytes, api };
  }
}

/** The admin API's answers change with every call: never cached. */
function isAdmin(url: string | undefined): boolean {
  return url !== undefined && url.charCodeAt(1) === 95 && url.startsWith('/_mock/');
}

const SERVER_ERROR_BYTES = Buffer.from(JSON.stringify(SERVER_ERROR));

function writeServerError(res: ServerResponse): void {
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

function acceptsGzip(req: IncomingMessage): boolean {
  return /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
}

/** Per list of an answer's headers, the flat list of them that every such answer starts with. */
const wirePrefixes = new WeakMap<object, { plain: string[]; gzip: string[] }>();

/** The answer's headers as a flat [name, value, …] list, with its length, encoding and Vary. */
function wireHeaders(answer: CachedAnswer, payload: Buffer, gzip: boolean): string[] {
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
function keyOf(
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
function shared<T extends string | [string, string][]>(known: Map<string, T>, value: T): T {
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
function readBody(
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

import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { getRequestListener } from '@hono/node-server';
import { joinPieces } from '../domain/json-writer.ts';
import type { Answer } from '../domain/operations.ts';
import { AnswerCache, type CachedAnswer, type RequestKey } from './answer-cache.ts';
import { gzipFromPieces } from './answer-gzip.ts';
import type { HrmockApp } from './app.ts';
import { closeAfterEarlyAnswer, closeIfEarly } from './connections.ts';
import { createFastPath } from './fast-path.ts';
import { OutputPool } from './output-pool.ts';

export type ListenerOptions = {
  /** Bytes of whole answers kept for repeated requests; 0 turns the cache off. */
  answerCacheBytes: number;
  /**
   * `auto` (the default): gzip for clients that accept it, made from compressed objects for a
   * fresh answer and once for a cached one; `off`: never.
   */
  compress?: 'auto' | 'off';
  /** Answer the operations from the domain when nothing else is needed (default true). */
  fastPath?: boolean;
};

/** Bodies up to this size are read up front so that a POST can be answered without Hono. */
const MAX_CACHED_BODY = 64 * 1024;
const GZIP_FROM_BYTES = 1024;
/** Headers Hono's route and CORS middleware give a 200 of the API. */
const OK_HEADERS: [string, string][] = [
  ['access-control-allow-origin', '*'],
  ['content-type', 'application/json'],
];

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The node:http listener for an app. A request for one of the six operations that needs
 * nothing else of the app is answered from the domain without Hono (`createFastPath`); a repeated
 * request (same method, URL, body and the headers an answer depends on) is answered with the
 * bytes of its first answer without running anything; anything else goes through Hono. Requests
 * whose answer may differ on purpose (a `Prefer` header, random failures) take Hono's path and
 * are never cached.
 */
export function createNodeListener(app: HrmockApp, options: ListenerOptions): Listener {
  const hono = getRequestListener(app.fetch);
  const compress = options.compress !== 'off';
  if (!app.deterministic) {
    return (req, res) => {
      closeAfterEarlyAnswer(req, res);
      hono(req, res);
    };
  }
  const cache = options.answerCacheBytes > 0 ? new AnswerCache(options.answerCacheBytes) : null;
  // Without the cache a fresh answer is written and dropped: its bytes are made in a buffer of
  // the pool, given back when written. With it, an answer may be kept, in buffers of its own.
  const outputs = cache === null ? new OutputPool() : undefined;
  // A wrapper around the app (a test's mutant) answers through its own fetch, always.
  const own = app.fetch === app.settings.fetch;
  const fast = options.fastPath === false || !own ? () => undefined : createFastPath(app);
  const turn = new Turn(outputs, answer);

  return (req, res) => {
    const method = req.method ?? 'GET';
    const length = Number(req.headers['content-length'] ?? 0);
    const plain =
      req.headers.prefer === undefined &&
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
    const key = cache === null ? undefined : keyOf(app.generation, req, body);
    const hit = key === undefined ? undefined : cache?.get(key);
    if (hit !== undefined) {
      log(req, hit.status, started);
      send(req, res, hit);
      return;
    }
    const quick = fast(req, body);
    if (quick === undefined) {
      runApp(req, body)
        .then((fresh) => keepAndSend(req, res, key, fresh))
        .catch(() => res.destroy());
      return;
    }
    const zipped = compress && acceptsGzip(req) ? gzipFromPieces(quick.pieces, outputs) : undefined;
    const fresh = new FastAnswer(quick, zipped, outputs);
    log(req, 200, started);
    keepAndSend(req, res, key, fresh);
  }

  function keepAndSend(
    req: IncomingMessage,
    res: ServerResponse,
    key: RequestKey | undefined,
    fresh: CachedAnswer,
  ) {
    if (key !== undefined && fresh.status < 500) cache?.set(key, fresh);
    send(req, res, fresh);
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
  function send(req: IncomingMessage, res: ServerResponse, answer: CachedAnswer) {
    const gzip = compress && acceptsGzip(req);
    if (
      gzip &&
      answer.gzip === undefined &&
      cache !== null &&
      answer.body.length >= GZIP_FROM_BYTES
    ) {
      answer.gzip = gzipSync(answer.body, { level: 6 });
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
    return { status: response.status, headers: kept, body: bytes };
  }
}

/**
 * The requests of one turn of the event loop, answered together after its poll phase, then
 * their answers written together.
 *
 * Answered together: answered as each arrived, between the reads of the sockets, every
 * operation found its code and data pushed out of the caches by the kernel's and node's work on
 * the socket before it; run back to back, each finds them where the one before left them. Server
 * CPU per request, alternated A/B of two servers (`--answer-cache-mb 0`, 400 distinct requests,
 * 8 rounds): searching 65.2 → 58.4 and 65.4 → 60.5 µs, full grading 58.2 → 52.8 µs, minimal
 * grading 42.6 → 40.6 µs.
 *
 * Written together: each write to a socket wakes the client up, and on loopback the waking costs
 * the writer more than the bytes. Written one by one, as each answer was ready, a client that
 * had fallen asleep between two answers was woken for every one (grading answers were a third
 * slower that way); written in a run, the first write wakes it and the others find it awake.
 *
 * A request waits only for those that arrived in the same turn, never for a timer. An answer
 * made later (through the app, a promise) is written in a turn of its own.
 */
export class Turn {
  readonly #requests: Waiting[] = [];
  readonly #answers: Written[] = [];
  readonly #outputs: OutputPool | undefined;
  readonly #answer: Answerer;
  #scheduled = false;
  #answering = false;

  constructor(outputs: OutputPool | undefined, answer: Answerer) {
    this.#outputs = outputs;
    this.#answer = answer;
  }

  request(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined, started: number) {
    this.#requests.push({ req, res, body, started });
    this.#schedule();
  }

  write(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    headers: string[],
    body: Buffer,
    pooled: boolean,
  ) {
    this.#answers.push({ req, res, status, headers, body, pooled });
    // While the turn's requests are answered, their answers wait for the end of it.
    if (!this.#answering) this.#schedule();
  }

  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#run);
  }

  readonly #run = () => {
    this.#scheduled = false;
    const requests = this.#requests.splice(0);
    this.#answering = true;
    for (const { req, res, body, started } of requests) {
      // A client gone before its answer was made costs nothing.
      if (req.socket.destroyed) continue;
      // A throw ends this one request, never the server nor the others of the turn.
      try {
        this.#answer(req, res, body, started);
      } catch {
        res.destroy();
      }
    }
    this.#answering = false;
    this.#flush();
  };

  #flush() {
    const answers = this.#answers.splice(0);
    const outputs = this.#outputs;
    for (const { req, res, status, headers, body, pooled } of answers) {
      try {
        closeIfEarly(req, res, status, headers);
        // One writeHead with a flat list: no per-header validation on this path.
        res.writeHead(status, headers);
        // A body made in the pool goes back to it once the socket has taken it ('finish').
        if (pooled && outputs !== undefined) res.end(body, () => outputs.release(body));
        else res.end(body);
      } catch {
        res.destroy();
      }
    }
  }
}

export type Answerer = (
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer | undefined,
  started: number,
) => void;

type Waiting = {
  req: IncomingMessage;
  res: ServerResponse;
  body: Buffer | undefined;
  started: number;
};

type Written = {
  req: IncomingMessage;
  res: ServerResponse;
  status: number;
  headers: string[];
  body: Buffer;
  /** Made in the listener's `OutputPool`, to give back once written. */
  pooled: boolean;
};

/**
 * A fast-path answer to write or keep; its plain body is assembled only when it is sent or kept.
 * A class, not an object literal with a `get body()` made per answer: V8 builds such a literal
 * as a dictionary-mode object, and under load what those answers held was promoted out of the
 * young generation instead of dying there (see `AssembledAnswer`). With `outputs` (no answer
 * cache: the answer is written once and dropped), its bytes are made in the pool.
 */
export class FastAnswer implements CachedAnswer {
  readonly status = 200;
  readonly headers = OK_HEADERS;
  gzip?: Buffer;
  wire?: CachedAnswer['wire'];
  /** Until the body is made: then dropped, with the shared glue slabs its pieces are views of. */
  #answer: Answer | undefined;
  readonly #outputs: OutputPool | undefined;
  #body: Buffer | undefined;

  constructor(answer: Answer, gzip: Buffer | undefined, outputs?: OutputPool) {
    this.#answer = answer;
    this.#outputs = outputs;
    if (gzip !== undefined) this.gzip = gzip;
  }

  get body(): Buffer {
    if (this.#body === undefined) {
      const answer = this.#answer as Answer;
      const outputs = this.#outputs;
      const [only] = answer.pieces;
      if (outputs === undefined) {
        // Kept in the cache: bytes of its own, not views that would keep shared slabs alive.
        this.#body = bufferOf(answer.body());
      } else if (answer.pieces.length === 1 && only instanceof Uint8Array) {
        // All glue (a minimal grading answer): written as it is, and dropped with the answer.
        this.#body = bufferOf(only);
      } else {
        this.#body = joinPieces(answer.pieces, (size) => outputs.take(size)) as Buffer;
      }
      this.#answer = undefined;
    }
    return this.#body;
  }
}

function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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
function keyOf(generation: number, req: IncomingMessage, body: Buffer | undefined): RequestKey {
  const { headers } = req;
  return {
    context: `${generation}\n${req.method}\n${headers['content-type'] ?? ''}\n${headers['x-api-key'] ?? ''}\n${headers.origin === undefined ? '' : 'origin'}`,
    url: req.url ?? '/',
    body,
  };
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

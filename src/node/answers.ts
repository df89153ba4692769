import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Answer } from '../hr/operations.ts';
import { answerPreview } from '../http/admin/answer-preview.ts';
import { operationPath } from '../http/admin/operation-paths.ts';
import { WARNING_HEADER } from '../http/api-cors.ts';
import { reportInternalError } from '../http/api-error.ts';
import type { AppFetch } from '../http/app.ts';
import type { AppState } from '../http/app-state.ts';
import { AnswerCache, type CachedAnswer, type RequestKey } from './answer-cache.ts';
import { gzipFromPieces } from './answer-gzip.ts';
import { FastAnswer } from './fast-answer.ts';
import { createFastPath } from './fast-path.ts';
import { OutputPool } from './output-pool.ts';
import { Turn } from './turn.ts';
import { acceptsGzip, keyOf, readBody, shared, wireHeaders, writeServerError } from './wire.ts';

export type AnswerOptions = {
  /** Bytes of whole answers kept for repeated requests; 0 turns the cache off. */
  answerCacheBytes: number;
  /**
   * `auto` (the default): gzip for clients that accept it, made from compressed objects for a
   * fresh answer and once for a cached one; `off`: never.
   */
  compress?: 'auto' | 'off';
  /** Answer the operations straight from `src/hr` when nothing else is needed (default true). */
  fastPath?: boolean;
  /** A cache made by the caller, used instead of one of `answerCacheBytes` (tests measure it). */
  cache?: AnswerCache;
};

const GZIP_FROM_BYTES = 1024;
const WARNING_NAME = WARNING_HEADER.toLowerCase();

/**
 * Answers plain requests of a deterministic app: from the answer cache, from the fast path, or
 * through the app; each answer kept when it may be, journalled and logged, written in turns.
 */
export class Answers {
  readonly #state: AppState;
  /** What answers a request that neither the cache nor the fast path does. */
  readonly #fetch: AppFetch;
  readonly #compress: boolean;
  readonly #cache: AnswerCache | null;
  /** Without the cache, fresh answers are made in buffers of this pool, given back when written. */
  readonly #outputs: OutputPool | undefined;
  readonly #fast: (req: IncomingMessage, body: Buffer | undefined) => Answer | undefined;
  readonly #turn: Turn;
  // Kept answers share these instead of holding copies: nearly all have the same few.
  readonly #headerLists = new Map<string, [string, string][]>();
  readonly #contexts = new Map<string, string>();

  constructor(state: AppState, fetch: AppFetch, options: AnswerOptions) {
    this.#state = state;
    this.#fetch = fetch;
    this.#compress = options.compress !== 'off';
    this.#cache =
      options.cache ??
      (options.answerCacheBytes > 0 ? new AnswerCache(options.answerCacheBytes) : null);
    this.#outputs = this.#cache === null ? new OutputPool() : undefined;
    this.#fast = options.fastPath === false ? () => undefined : createFastPath(state);
    this.#turn = new Turn(
      this.#outputs,
      (req, res, body, started) => this.#answer(req, res, body, started),
      (req, res, started, error) => this.#failed(req, res, started, error),
    );
  }

  /** Reads the request's body (a POST), then answers it in the turn it arrived in. */
  take(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    if (req.method === 'GET') {
      req.resume();
      this.#turn.request(req, res, undefined, started);
      return;
    }
    readBody(
      req,
      (body) => this.#turn.request(req, res, body, started),
      () => res.destroy(),
    );
  }

  /** Answers from the cache or the fast path at once; through the app (a promise) otherwise. */
  #answer(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined, started: number) {
    const cache = this.#cache;
    const key =
      cache === null ? undefined : keyOf(this.#state.generation, req, body, this.#contexts);
    const hit = key === undefined ? undefined : cache?.get(key);
    const { journal } = this.#state.steering;
    if (hit !== undefined) {
      if (hit.api === true && journal.on)
        this.#record(
          req,
          body,
          hit.status,
          started,
          journal.followed ? answerPreview(hit.body) : undefined,
        );
      this.#log(req, hit.status, started, hit.headers);
      this.#send(req, res, hit, key);
      return;
    }
    const quick = this.#fast(req, body);
    if (quick === undefined) {
      this.#runApp(req, body)
        .then((fresh) => this.#keepAndSend(req, res, key, fresh))
        .catch((error) => this.#failed(req, res, started, error));
      return;
    }
    const zipped =
      this.#compress && acceptsGzip(req) ? gzipFromPieces(quick.pieces, this.#outputs) : undefined;
    const fast = new FastAnswer(quick, zipped, this.#outputs);
    // Read before it is written: a written body's bytes may go back to the pool.
    const shown = journal.followed ? answerPreview(fast.body) : undefined;
    this.#keepAndSend(req, res, key, fast);
    if (journal.on) this.#record(req, body, 200, started, shown);
    this.#log(req, 200, started);
  }

  /** An answer that could not be made or written: the 500 envelope, and the cause in the log. */
  #failed(req: IncomingMessage, res: ServerResponse, started: number, error: unknown) {
    this.#log(req, 500, started);
    reportInternalError(req.method ?? 'GET', (req.url ?? '/').split('?')[0] as string, error);
    writeServerError(res);
  }

  #keepAndSend(
    req: IncomingMessage,
    res: ServerResponse,
    key: RequestKey | undefined,
    fresh: CachedAnswer,
  ) {
    if (key !== undefined && fresh.status < 500) this.#cache?.set(key, fresh);
    this.#send(req, res, fresh, key);
  }

  /** Journals a request answered here, without Hono (Hono journals the others itself). */
  #record(
    req: IncomingMessage,
    body: Buffer | undefined,
    status: number,
    started: number,
    answer?: string,
  ) {
    const ms = performance.now() - started;
    this.#state.steering.journal.record(
      req.method ?? 'GET',
      req.url ?? '/',
      body,
      req.headers,
      status,
      ms,
      null,
      answer,
    );
  }

  /** The line Hono's request log writes, its warning (from a kept answer's headers) included. */
  #log(req: IncomingMessage, status: number, started: number, headers?: [string, string][]) {
    const { log } = this.#state;
    if (!log) return;
    let warning = '';
    if (headers !== undefined)
      for (const [name, value] of headers) if (name === WARNING_NAME) warning = ` (${value})`;
    log(
      `${req.method} ${(req.url ?? '/').split('?')[0]} ${status} ${(performance.now() - started).toFixed(1)}ms${warning}`,
    );
  }

  /**
   * Writes an answer, gzipped for a client that accepts it: from compressed objects when that was
   * made, else once per cached answer (never per fresh answer without the cache: too slow).
   */
  #send(
    req: IncomingMessage,
    res: ServerResponse,
    answer: CachedAnswer,
    key: RequestKey | undefined,
  ) {
    const gzip = this.#compress && acceptsGzip(req);
    const cache = this.#cache;
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
    const owned = this.#outputs?.owns(payload) === true;
    this.#turn.write(req, res, answer.status, headers, payload, owned);
  }

  async #runApp(req: IncomingMessage, body: Buffer | undefined): Promise<CachedAnswer> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
    const init: RequestInit = { method: req.method ?? 'GET', headers };
    if (body !== undefined) init.body = new Uint8Array(body);
    const response = await this.#fetch(new Request(url, init));
    const bytes = Buffer.from(await response.arrayBuffer());
    const kept: [string, string][] = [];
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') kept.push([name, value]);
    });
    // Answered through Hono, which journalled it; from the cache, it is journalled here.
    const api = operationPath(req.url ?? '/') !== undefined;
    return { status: response.status, headers: shared(this.#headerLists, kept), body: bytes, api };
  }
}

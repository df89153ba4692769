import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { getRequestListener } from '@hono/node-server';
import { AnswerCache, type CachedAnswer, type RequestKey } from './answer-cache.ts';
import type { HrmockApp } from './app.ts';
import { closeAfterEarlyAnswer } from './connections.ts';

export type ListenerOptions = {
  /** Bytes of whole answers kept for repeated requests; 0 turns the cache (and gzip) off. */
  answerCacheBytes: number;
};

/** Bodies up to this size are read up front so that a POST can be answered from the cache. */
const MAX_CACHED_BODY = 64 * 1024;
const GZIP_FROM_BYTES = 1024;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The node:http listener for an app. A repeated request (same method, URL, body and the headers
 * an answer depends on) is answered with the bytes of the first answer, gzipped for clients that
 * accept it, without running the app again; anything else goes through Hono as usual. Requests
 * whose answer may differ on purpose (a `Prefer` header, random failures) are never cached.
 */
export function createNodeListener(app: HrmockApp, options: ListenerOptions): Listener {
  const hono = getRequestListener(app.fetch);
  const viaHono: Listener = (req, res) => {
    closeAfterEarlyAnswer(req, res);
    hono(req, res);
  };
  if (options.answerCacheBytes <= 0 || !app.deterministic) return viaHono;
  const cache = new AnswerCache(options.answerCacheBytes);

  return (req, res) => {
    closeAfterEarlyAnswer(req, res);
    const method = req.method ?? 'GET';
    const length = Number(req.headers['content-length'] ?? 0);
    const cacheable =
      req.headers.prefer === undefined &&
      (method === 'GET' ||
        (method === 'POST' &&
          req.headers['transfer-encoding'] === undefined &&
          length <= MAX_CACHED_BODY));
    if (!cacheable) {
      hono(req, res);
      return;
    }
    const started = performance.now();
    if (method === 'GET') {
      // A repeated GET is answered right here, without a promise in between.
      req.resume();
      const key = keyOf(app.generation, req, undefined);
      const hit = cache.get(key);
      if (hit !== undefined) {
        send(req, res, hit, started, true);
        return;
      }
      miss(req, res, key, started).catch(() => res.destroy());
      return;
    }
    readBody(req)
      .then(
        (body) => {
          const key = keyOf(app.generation, req, body);
          const hit = cache.get(key);
          if (hit !== undefined) send(req, res, hit, started, true);
          else return miss(req, res, key, started);
        },
        () => res.destroy(),
      )
      .catch(() => res.destroy());
  };

  async function miss(req: IncomingMessage, res: ServerResponse, key: RequestKey, started: number) {
    const answer = await runApp(req, key.body);
    if (answer.status < 500) cache.set(key, answer);
    send(req, res, answer, started, false);
  }

  /** Writes an answer, gzipped for a client that accepts it; a hit is logged here (a miss was, by the app). */
  function send(
    req: IncomingMessage,
    res: ServerResponse,
    cached: CachedAnswer,
    started: number,
    hit: boolean,
  ) {
    if (hit && app.log) {
      app.log(
        `${req.method} ${(req.url ?? '/').split('?')[0]} ${cached.status} ${(performance.now() - started).toFixed(1)}ms`,
      );
    }
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (gzip && cached.gzip === undefined && cached.body.length >= GZIP_FROM_BYTES) {
      cached.gzip = gzipSync(cached.body, { level: 6 });
    }
    const zipped = gzip && cached.gzip !== undefined;
    const payload = zipped ? (cached.gzip as Buffer) : cached.body;
    if (cached.wire === undefined) cached.wire = {};
    const wire = cached.wire;
    let headers = zipped ? wire.gzip : wire.plain;
    if (headers === undefined) {
      headers = wireHeaders(cached, payload, zipped);
      if (zipped) wire.gzip = headers;
      else wire.plain = headers;
    }
    // One writeHead with a flat list: no per-header validation on a path served tens of thousands of times a second.
    res.writeHead(cached.status, headers);
    res.end(payload);
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

/** The answer's headers as a flat [name, value, …] list, with its length, encoding and Vary. */
function wireHeaders(answer: CachedAnswer, payload: Buffer, gzip: boolean): string[] {
  const flat = answer.headers.flat();
  flat.push('vary', 'Accept-Encoding', 'content-length', String(payload.length));
  if (gzip) flat.push('content-encoding', 'gzip');
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

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

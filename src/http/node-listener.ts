import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { getRequestListener } from '@hono/node-server';
import { AnswerCache, type CachedAnswer } from './answer-cache.ts';
import type { HrmockApp } from './app.ts';

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
  const viaHono = getRequestListener(app.fetch);
  if (options.answerCacheBytes <= 0 || !app.deterministic) return viaHono;
  const cache = new AnswerCache(options.answerCacheBytes);

  return (req, res) => {
    const method = req.method ?? 'GET';
    const length = Number(req.headers['content-length'] ?? 0);
    const cacheable =
      req.headers.prefer === undefined &&
      (method === 'GET' ||
        (method === 'POST' &&
          req.headers['transfer-encoding'] === undefined &&
          length <= MAX_CACHED_BODY));
    if (!cacheable) {
      viaHono(req, res);
      return;
    }
    const started = performance.now();
    readBody(req, method === 'POST').then(
      (body) => answer(req, res, body, started),
      () => res.destroy(),
    );
  };

  async function answer(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer | undefined,
    started: number,
  ) {
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const key = [
      req.method,
      req.url,
      req.headers['content-type'] ?? '',
      req.headers['x-api-key'] ?? '',
      req.headers.origin === undefined ? '' : 'origin',
      body?.toString('latin1') ?? '',
    ].join('\n');
    let cached = cache.get(key);
    if (cached === undefined) {
      cached = await runApp(req, body);
      if (cached.status < 500) cache.set(key, cached);
    } else if (app.log) {
      app.log(
        `${req.method} ${(req.url ?? '/').split('?')[0]} ${cached.status} ${(performance.now() - started).toFixed(1)}ms`,
      );
    }
    if (gzip && cached.gzip === undefined && cached.body.length >= GZIP_FROM_BYTES) {
      cached.gzip = gzipSync(cached.body, { level: 6 });
    }
    const payload = gzip && cached.gzip !== undefined ? cached.gzip : cached.body;
    for (const [name, value] of cached.headers) res.setHeader(name, value);
    if (payload !== cached.body) res.setHeader('content-encoding', 'gzip');
    res.setHeader('vary', 'Accept-Encoding');
    res.setHeader('content-length', payload.length);
    res.writeHead(cached.status);
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

function readBody(req: IncomingMessage, wanted: boolean): Promise<Buffer | undefined> {
  if (!wanted) {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

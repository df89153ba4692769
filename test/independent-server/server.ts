import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type Answer, internal, refused } from './answer.ts';
import type { Side } from './criteria.ts';
import { buildStore } from './data.ts';
import { type Raw, readBody, readQuery } from './decode.ts';
import type { DefectName, Defects } from './defects.ts';
import { grade } from './grading.ts';
import { type Context, searchOrScore } from './searching.ts';
import { makeTarget } from './target.ts';
import type { Target } from './types.ts';

const MAX_URL = 16_384;
const MAX_BODY = 1_048_576;

type Operation = (ctx: Context, raw: Raw, origin: 'query' | 'body') => Answer;
type Route = {
  path: string;
  methods: Partial<Record<'GET' | 'POST', Operation>>;
  /** The latency defect that slows this path down. */
  slow?: DefectName;
};

const grading =
  (side: Side): Operation =>
  (ctx, raw) =>
    grade(ctx, side, raw);
const searching =
  (side: Side, scoring: boolean): Operation =>
  (ctx, raw, origin) =>
    searchOrScore(ctx, side, scoring, raw, origin);

const both = (operation: Operation) => ({ GET: operation, POST: operation });

/** The contract's twelve operations on eight paths. */
const ROUTES: Route[] = [
  { path: '/profiles/grading', methods: { GET: grading('profiles') }, slow: 'slow-grading' },
  { path: '/profile/grading', methods: { GET: grading('profiles') }, slow: 'slow-grading' },
  { path: '/jobs/grading', methods: { GET: grading('jobs') } },
  { path: '/job/grading', methods: { GET: grading('jobs') } },
  { path: '/profiles/searching', methods: both(searching('profiles', false)) },
  { path: '/jobs/searching', methods: both(searching('jobs', false)) },
  { path: '/profiles/scoring', methods: both(searching('profiles', true)) },
  { path: '/jobs/scoring', methods: both(searching('jobs', true)), slow: 'slow-jobs-scoring' },
];

const SINGULAR = ['/profile/grading', '/job/grading'];

const sendJson = (res: ServerResponse, answer: Answer, headers: Record<string, string> = {}) => {
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
};

/** What a framework's default handler says for a path it has no route for. */
const sendHtml = (res: ServerResponse, status: number, what: string) => {
  const text = `<!DOCTYPE html>\n<html><head><title>Error</title></head><body><pre>${what}</pre></body></html>\n`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(text);
};

const sendHtml404 = (res: ServerResponse, method: string, path: string) =>
  sendHtml(res, 404, `Cannot ${method} ${path.replace(/[<>&"]/g, '')}`);

/** The body as text, or the status that refuses it (413 when over the limit). */
const readText = (req: IncomingMessage): Promise<string | 413> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY ? 413 : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const drain = (req: IncomingMessage): Promise<void> =>
  new Promise((resolve) => {
    req.on('end', resolve);
    req.on('error', () => resolve());
    req.resume();
  });

const isJson = (type: string | undefined): boolean =>
  type !== undefined && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type.trim());

/** A request's raw parameters, or the answer that refuses them before any operation runs. */
type Params = { raw: Raw } | { answer: Answer };

const postParams = async (req: IncomingMessage, defects: Defects): Promise<Params> => {
  const type = req.headers['content-type'];
  if (!isJson(type)) {
    await drain(req);
    const shown = JSON.stringify(type ?? 'none');
    const message = `Unsupported media type ${shown}: send the parameters as a JSON object with Content-Type: application/json.`;
    return { answer: refused(415, message) };
  }
  const text = await readText(req);
  if (text === 413 && defects.has('large-body-500')) return { answer: internal() };
  if (text === 413)
    return { answer: refused(413, `Request body too large; the limit is ${MAX_BODY} bytes.`) };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const message = `the body is not valid JSON: ${(error as Error).message}`;
    return { answer: refused(400, 'Malformed JSON body.', [{ param: 'body', message }]) };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const message = 'send the parameters as one JSON object, by name';
    return {
      answer: refused(400, 'The body must be a JSON object.', [{ param: 'body', message }]),
    };
  }
  return { raw: readBody(body as Record<string, unknown>) };
};

const getParams = async (req: IncomingMessage, search: string): Promise<Params> => {
  await drain(req);
  const query = readQuery(search);
  return 'raw' in query
    ? query
    : { answer: refused(400, 'Invalid query string.', [query.problem]) };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const handler =
  (ctx: Context, slowMs: number) =>
  async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { defects } = ctx;
    const url = req.url ?? '/';
    const method = req.method ?? 'GET';
    const length = Buffer.byteLength(url);
    if (length > MAX_URL) {
      await drain(req);
      if (defects.has('long-url-html-414')) return sendHtml(res, 414, 'URI Too Long');
      const message = `URL too long (${length} bytes; the limit is ${MAX_URL}). Send the same parameters as a JSON body with POST.`;
      return sendJson(res, refused(414, message));
    }
    const cut = url.indexOf('?');
    const path = cut < 0 ? url : url.slice(0, cut);
    const search = cut < 0 ? '' : url.slice(cut + 1);
    const route = ROUTES.filter((candidate) => candidate.path === path)[0];
    const unrouted = defects.has('no-singular-grading') && SINGULAR.includes(path);
    if (route === undefined || unrouted) {
      await drain(req);
      if (unrouted || defects.has('unknown-path-html')) return sendHtml404(res, method, path);
      const paths = ROUTES.map((r) => r.path).join(', ');
      return sendJson(res, refused(404, `Not found: ${method} ${path}. The paths are ${paths}.`));
    }
    const operation = route.methods[method as 'GET' | 'POST'];
    if (operation === undefined) {
      await drain(req);
      if (defects.has('wrong-method-html-404')) return sendHtml404(res, method, path);
      const allow = Object.keys(route.methods).join(', ');
      const answer = refused(405, `Method not allowed: ${method} ${path}. Allowed: ${allow}.`);
      return sendJson(res, answer, defects.has('no-allow-header') ? {} : { allow });
    }
    const origin = method === 'POST' ? 'body' : 'query';
    const params =
      origin === 'body' ? await postParams(req, defects) : await getParams(req, search);
    if (route.slow !== undefined && defects.has(route.slow)) await sleep(slowMs);
    sendJson(res, 'answer' in params ? params.answer : operation(ctx, params.raw, origin));
  };

export type IndependentServer = { url: string; target: Target; close(): Promise<void> };

/** Starts the server on 127.0.0.1 at a free port, with the defects named switched on. */
export const startIndependentServer = async (
  options: { defects?: DefectName[]; slowMs?: number } = {},
): Promise<IndependentServer> => {
  const store = buildStore();
  const ctx: Context = { store, defects: new Set(options.defects ?? []) };
  const handle = handler(ctx, options.slowMs ?? 2500);
  const server = createServer({ maxHeaderSize: 262_144 }, (req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, internal());
      else res.destroy();
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const tooLong = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLong ? 414 : 400;
    const message = tooLong
      ? 'URL or headers too long. Send the same parameters as a JSON body with POST.'
      : 'Malformed HTTP request.';
    const text = JSON.stringify({ code: status, message });
    if (socket.writable)
      socket.end(
        `HTTP/1.1 ${status} ${tooLong ? 'URI Too Long' : 'Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
      );
    else socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    target: makeTarget(store),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
};

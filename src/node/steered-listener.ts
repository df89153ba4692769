import type { IncomingMessage, ServerResponse } from 'node:http';
import { FAULT_HEADER, faultOf } from '../http/admin/faults.ts';
import type { Fault } from '../http/admin/scenarios.ts';
import type { HrmockApp } from '../http/app.ts';
import { closeAfterEarlyAnswer } from './connections.ts';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The node:http answer of a request a scenario may apply to: through Hono, never cached, and a
 * fault acted on the connection itself (a TCP reset, a hang, a body cut short).
 */
export function steeredListener(app: HrmockApp, hono: Listener, own: boolean): Listener {
  return (req, res) => {
    const length = Number(req.headers['content-length'] ?? 0);
    // A wrapper (not `own`) answers through its own fetch; an oversized body gets Hono's 413.
    if (!own || length > app.state.limits.bodyBytes) {
      closeAfterEarlyAnswer(req, res);
      hono(req, res);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => res.destroy());
    req.on('end', () => {
      answer(app, req, res, chunks).catch(() => res.destroy());
    });
  };
}

async function answer(
  app: HrmockApp,
  req: IncomingMessage,
  res: ServerResponse,
  chunks: Buffer[],
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // The client giving up (its socket closed) is what ends a hang.
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const method = req.method ?? 'GET';
  const init: RequestInit = { method, headers, signal: gone.signal };
  if (method !== 'GET' && method !== 'HEAD') init.body = new Uint8Array(Buffer.concat(chunks));
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  const response = await app.hono.fetch(new Request(url, init));
  const fault = faultOf(response);
  if (fault !== undefined) {
    await writeFault(fault, req, res, response);
    return;
  }
  const body = Buffer.from(await response.arrayBuffer());
  const flat: string[] = [];
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') flat.push(name, value);
  });
  flat.push('content-length', String(body.length));
  if (res.destroyed) return;
  res.writeHead(response.status, flat);
  res.end(body);
}

// Node only: kept out of faults.ts, which the browser bundle includes.
/**
 * A fault on a node:http connection: `reset` closes it at once with a TCP reset and no answer;
 * `hang` has waited for the client to give up and closes it; `truncated` announces the whole
 * Content-Length, writes half of the body and closes; `malformed-json` is an ordinary answer.
 */
async function writeFault(
  fault: Fault,
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
): Promise<true> {
  if (fault === 'reset' || fault === 'hang') {
    req.socket.resetAndDestroy();
    return true;
  }
  const bytes = Buffer.from(await response.arrayBuffer());
  const headers: string[] = [];
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== FAULT_HEADER) headers.push(name, value);
  });
  headers.push('content-length', String(bytes.length));
  if (fault === 'malformed-json') {
    res.writeHead(response.status, headers);
    res.end(bytes);
    return true;
  }
  headers.push('connection', 'close');
  res.writeHead(response.status, headers);
  res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
  return true;
}

import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { closeIfEarly } from '../node/connections.ts';
import type { RequestHead } from './hop-headers.ts';

/**
 * The proxy's own answer, in the API's envelope; a connection whose answer had begun is cut.
 * Never throws: it is the last thing an exchange that went wrong does.
 */
export function errorAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
) {
  try {
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    const body = JSON.stringify({ code: status, message });
    const length = `${Buffer.byteLength(body)}`;
    const headers = ['Content-Type', 'application/json', 'Content-Length', length];
    // A request body still coming is drained and the connection closed, never read as a request.
    closeIfEarly(req, res, status, headers);
    // Its own reason phrase: one the upstream's answer left behind may be one Node refuses.
    res.writeHead(status, STATUS_CODES[status] ?? '', headers);
    res.end(body);
  } catch {
    res.destroy();
  }
}

/**
 * What the proxy answers itself, not forwarding: a target that is not a path (absolute-form
 * `GET http://other.example/ HTTP/1.1`, `*`, authority-form) would name another server, and a
 * body coded by more than `chunked` cannot be forwarded as it was sent.
 */
export function refusal(req: IncomingMessage, head: RequestHead): [number, string] | undefined {
  if (!(req.url ?? '').startsWith('/'))
    return [
      400,
      'hrmock proxy forwards to its upstream only: the request target must be a path such as /profiles/searching, not an absolute URL',
    ];
  if (head.coding !== undefined)
    return [
      501,
      `hrmock proxy forwards a request body framed by Content-Length or Transfer-Encoding: chunked alone, got Transfer-Encoding: ${head.coding}`,
    ];
  return undefined;
}

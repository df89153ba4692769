// The floors for the proxy's overhead: forwarding to UPSTREAM with nothing else (no judging, no
// copies kept, no timeout), as `tsx test/bench/bare-proxy.ts node|undici http://127.0.0.1:PORT`:
// a node:http pipe through node's own client, or each request dispatched to an undici Pool (the
// client hrmock proxy uses) and its answer written back. Prints its URL.
import {
  Agent,
  createServer,
  type IncomingMessage,
  type RequestListener,
  request,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

const [kind, target] = process.argv.slice(2);
const upstream = new URL(target ?? '');
/** Headers of one connection, which undici refuses or sets itself. */
const HOP = /^(connection|keep-alive|transfer-encoding|host|te|upgrade|expect)$/i;

function nodePipe(): RequestListener {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  return (req, res) => {
    const headers = { ...req.headers, host: upstream.host };
    const outgoing = request(
      {
        agent,
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    outgoing.on('error', () => res.destroy());
    req.pipe(outgoing);
  };
}

function undiciDispatch(): RequestListener {
  const pool = new Pool(upstream.origin, { connections: 256 });
  const without = (raw: (string | Buffer)[]) => {
    const headers: string[] = [];
    for (let i = 0; i < raw.length; i += 2) {
      const name = String(raw[i]);
      if (!HOP.test(name)) headers.push(name, String((raw[i + 1] as Buffer).toString('latin1')));
    }
    return headers;
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    const body = req.headers['content-length'] ?? req.headers['transfer-encoding'];
    pool.dispatch(
      {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: without(req.rawHeaders),
        body: body ? req : null,
      },
      {
        onRequestStart: () => {},
        onResponseStart: (controller, status, _headers, reason) => {
          const raw = (controller.rawHeaders ?? []) as Buffer[];
          if (status >= 200) res.writeHead(status, reason ?? '', without(raw));
        },
        onResponseData: (controller, chunk) => {
          if (res.write(chunk)) return;
          controller.pause();
          res.once('drain', () => controller.resume());
        },
        onResponseEnd: () => void res.end(),
        onResponseError: () => void res.destroy(),
      },
    );
  };
}

const server = createServer(kind === 'undici' ? undiciDispatch() : nodePipe());
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(
    `bare proxy at http://127.0.0.1:${(server.address() as AddressInfo).port}\n`,
  );
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

// The floor for the proxy's overhead: node:http forwarding to UPSTREAM with nothing else (no
// judging, no copies), as `tsx test/bench/bare-proxy.ts http://127.0.0.1:PORT`. Prints its URL.
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const upstream = new URL(process.argv[2] ?? '');
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const server = createServer((req, res) => {
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
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(
    `bare proxy at http://127.0.0.1:${(server.address() as AddressInfo).port}\n`,
  );
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

// The limit: a node:http server that answers every request with the same bytes hrmock answered.
// Usage: tsx bare-server.ts <file with the body> [gzip]; prints "listening on http://…".
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = readFileSync(process.argv[2] as string);
const headers: Record<string, string> = {
  'content-type': 'application/json',
  'content-length': String(body.length),
};
if (process.argv[3] === 'gzip') headers['content-encoding'] = 'gzip';
const server = createServer((request, response) => {
  // Read the request body (POST) to the end, as a real server must, then answer.
  request.resume();
  request.on('end', () => {
    response.writeHead(200, headers);
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

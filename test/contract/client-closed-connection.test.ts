import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NoAnswer, SuiteClient } from '../../contract/suite/client.ts';

/**
 * A server that closes a kept-alive connection unanswered the first time a request comes on one
 * it answered before, and answers every other request: the moment a server's idle timeout ends
 * just as the client reuses the connection, made to happen once.
 */
function closingOneReuse(): Promise<{ url: string; server: Server; seen: string[] }> {
  const seen: string[] = [];
  const answered = new WeakSet<object>();
  let closed = false;
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    if (!closed && answered.has(request.socket)) {
      closed = true;
      request.socket.destroy();
      return;
    }
    answered.add(request.socket);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"code":200,"message":"OK","data":{}}');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen }),
    ),
  );
}

/** The requests that reached the server more than once. */
const repeated = (seen: string[]) => seen.filter((request, i) => seen.indexOf(request) !== i);

let running: Server | undefined;
afterEach(async () => {
  running?.closeAllConnections();
  await new Promise((resolve) => running?.close(resolve));
});

describe('a kept-alive connection closed as a request goes out', () => {
  it('sends a GET once more on a new connection and gets its answer', async () => {
    const { url, server, seen } = await closingOneReuse();
    running = server;
    const client = new SuiteClient({ baseUrl: url });
    const statuses = [];
    for (let limit = 1; limit <= 6; limit++)
      statuses.push((await client.get('/profiles/searching', { limit })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    // One GET reached the server twice: closed on the old connection, answered on a new one.
    expect(repeated(seen)).toHaveLength(1);
    expect(seen).toHaveLength(7);
  });

  it('never sends a POST twice: its closed connection is an answer missing', async () => {
    const { url, server, seen } = await closingOneReuse();
    running = server;
    const client = new SuiteClient({ baseUrl: url });
    const outcomes = [];
    for (let limit = 1; limit <= 6; limit++)
      outcomes.push(
        await client.post('/profiles/searching', { limit }).then(
          (exchange) => exchange.status,
          (error: unknown) => (error instanceof NoAnswer ? 'no answer' : String(error)),
        ),
      );
    expect(outcomes.filter((o) => o === 'no answer')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 200)).toHaveLength(5);
    expect(seen).toHaveLength(6);
  });
});

import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startProxy } from '../../src/api/start-proxy.ts';
import { startHrmockProcess } from '../support/hrmock-process.ts';

/**
 * An upstream speaking raw bytes: `answer` gets each request's head (and the socket) and writes
 * what it likes. Counts the connections it accepted. Closed when the test ends.
 */
async function rawUpstream(answer: (head: string, socket: Socket, n: number) => void) {
  const seen = { connections: 0, requests: 0, bodies: [] as string[] };
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    seen.connections++;
    sockets.add(socket);
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        const head = buffered.slice(0, end);
        const chunked = /\r\ntransfer-encoding: chunked/i.test(head);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        const last = buffered.indexOf('\r\n0\r\n\r\n', end + 2);
        const after = chunked ? (last < 0 ? -1 : last + 7) : end + 4 + length;
        if (after < 0 || buffered.length < after) return;
        seen.bodies.push(buffered.slice(end + 4, after));
        buffered = buffered.slice(after);
        answer(head, socket, ++seen.requests);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function proxyTo(upstream: string) {
  const proxy = await startProxy({ upstream, timeoutMs: 5000 });
  onTestFinished(async () => {
    await proxy.close();
  });
  return proxy;
}

/** A request body sent in pieces, which fetch sends chunked. */
const streamOf = (pieces: string[]) =>
  new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece));
      controller.close();
    },
  });

const json = (body: string, extra = '') =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${extra}\r\n${body}`;

describe('hrmock proxy and its connections to the upstream', () => {
  it('sends requests one after another on one kept-alive connection', async () => {
    const upstream = await rawUpstream((_, socket, n) => socket.write(json(`{"n":${n}}`)));
    const proxy = await proxyTo(upstream.url);
    for (let n = 1; n <= 3; n++)
      expect(await (await fetch(`${proxy.url}/profiles/searching`)).text()).toBe(`{"n":${n}}`);
    expect(upstream.seen.connections).toBe(1);
  });

  it('sends a request again on a new connection when a kept-alive one closed under it', async () => {
    // The second request on each connection finds it closed, as after an upstream's idle timeout.
    const upstream = await rawUpstream((_, socket) => {
      if (socket.bytesWritten > 0) socket.destroy();
      else socket.write(json('{"ok":true}'));
    });
    const proxy = await proxyTo(upstream.url);
    const first = await fetch(`${proxy.url}/a`);
    expect(await first.text()).toBe('{"ok":true}');
    const again = await fetch(`${proxy.url}/b`, { method: 'POST', body: '{"x":1}' });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('{"ok":true}');
    expect(upstream.seen.connections).toBe(2);
    // A chunked body too, sent again whole in its chunked framing.
    const init = { method: 'POST', body: streamOf(['{"y":', '2}']), duplex: 'half' };
    const chunked = await fetch(`${proxy.url}/c`, init as RequestInit);
    expect(await chunked.text()).toBe('{"ok":true}');
    expect(upstream.seen.connections).toBe(3);
    expect(upstream.seen.bodies.at(-1)).toBe('7\r\n{"y":2}\r\n0\r\n\r\n');
  });

  it('passes a chunked answer and one framed by the connection close on unchanged', async () => {
    const upstream = await rawUpstream((head, socket) => {
      if (head.startsWith('GET /chunked'))
        socket.write(
          'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Kind: chunked\r\n\r\n3\r\nabc\r\n4;ext=1\r\ndefg\r\n0\r\n\r\n',
        );
      else socket.end('HTTP/1.1 200 OK\r\nX-Kind: close\r\n\r\nuntil the end');
    });
    const proxy = await proxyTo(upstream.url);
    const chunked = await fetch(`${proxy.url}/chunked`);
    expect([chunked.headers.get('x-kind'), await chunked.text()]).toEqual(['chunked', 'abcdefg']);
    const closed = await fetch(`${proxy.url}/closed`);
    expect([closed.headers.get('x-kind'), await closed.text()]).toEqual(['close', 'until the end']);
  });

  it('answers a 502 envelope saying the answer is not HTTP/1.1, and stays up', async () => {
    const upstream = await rawUpstream((head, socket) => {
      if (head.startsWith('GET /bad')) socket.write('SMTP ready\r\n\r\n');
      else socket.write(json('{}'));
    });
    const proxy = await proxyTo(upstream.url);
    const bad = await fetch(`${proxy.url}/bad`);
    expect(bad.status).toBe(502);
    const body = (await bad.json()) as { code: number; message: string };
    expect(body.code).toBe(502);
    expect(body.message).toContain(upstream.url);
    expect(body.message).toMatch(/not HTTP\/1\.1.*status line/);
    expect((await fetch(`${proxy.url}/good`)).status).toBe(200);
  });

  it('sends a chunked request body on, re-chunked', async () => {
    const received: { encoding?: string; body: string }[] = [];
    const server = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        received.push({ encoding: req.headers['transfer-encoding'], body });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const proxy = await proxyTo(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const init = { method: 'POST', body: streamOf(['{"a":', '1}']), duplex: 'half' };
    const answer = await fetch(`${proxy.url}/profiles/searching`, init as RequestInit);
    expect(answer.status).toBe(200);
    expect(received).toEqual([{ encoding: 'chunked', body: '{"a":1}' }]);
  });
});

const tls = (name: string) =>
  readFileSync(fileURLToPath(new URL(`./tls/${name}`, import.meta.url)), 'latin1');

describe('hrmock proxy in front of an https upstream', () => {
  it('forwards over TLS, checking the certificate against the trusted ones', async () => {
    const server = createHttpsServer({ key: tls('key.pem'), cert: tls('cert.pem') }, (req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ path: req.url, host: req.headers.host }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const upstream = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const caFile = fileURLToPath(new URL('./tls/cert.pem', import.meta.url));
    const trusting = await startHrmockProcess(['proxy', '--upstream', upstream, '--port', '0'], {
      NODE_EXTRA_CA_CERTS: caFile,
    });
    const answer = await fetch(`${trusting.url}/profiles/grading`);
    expect(await answer.json()).toEqual({
      path: '/v1/profiles/grading',
      host: new URL(upstream).host,
    });
    // Without the certificate trusted, the same upstream is refused with the reason.
    const wary = await startHrmockProcess(['proxy', '--upstream', upstream, '--port', '0']);
    const refused = await fetch(`${wary.url}/profiles/grading`);
    expect(refused.status).toBe(502);
    expect(((await refused.json()) as { message: string }).message).toMatch(/certificate/i);
  }, 60_000);
});

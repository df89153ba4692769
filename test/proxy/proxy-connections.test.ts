import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startProxy } from '../../src/api/start-proxy.ts';
import { startHrmockProcess } from '../support/hrmock-process.ts';
import { rawExchange, rawUpstream } from '../support/raw-upstream.ts';

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

  it('sends a GET again after a reset before any byte of its answer, never a POST', async () => {
    // The second request on each connection is reset, as by an upstream that went away.
    const upstream = await rawUpstream((_, socket) => {
      if (socket.bytesWritten > 0) socket.resetAndDestroy();
      else socket.write(json('{"ok":true}'));
    });
    const proxy = await proxyTo(upstream.url);
    expect((await fetch(`${proxy.url}/a`)).status).toBe(200);
    const get = await fetch(`${proxy.url}/b`);
    expect([get.status, await get.text()]).toEqual([200, '{"ok":true}']);
    expect(upstream.seen.requests).toBe(3);
    // A POST may have been acted on before the reset: the client gets a 502 and decides.
    const post = await fetch(`${proxy.url}/c`, { method: 'POST', body: '{"x":1}' });
    expect(post.status).toBe(502);
    expect(((await post.json()) as { message: string }).message).toMatch(/ECONNRESET/);
    expect(upstream.seen.requests).toBe(4);
  });

  it('skips an interim 103 answer and forwards the final one', async () => {
    const upstream = await rawUpstream((_, socket) =>
      socket.write(`HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n${json('{"final":1}')}`),
    );
    const proxy = await proxyTo(upstream.url);
    const answer = await fetch(`${proxy.url}/profiles/searching`);
    expect([answer.status, await answer.text()]).toEqual([200, '{"final":1}']);
  });

  it('forwards no body after HEAD, 204 and 304, whatever their Content-Length, and goes on', async () => {
    const upstream = await rawUpstream((head, socket) => {
      if (head.startsWith('HEAD')) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n');
      else if (head.startsWith('GET /204')) socket.write('HTTP/1.1 204 No Content\r\n\r\n');
      else if (head.startsWith('GET /304'))
        socket.write('HTTP/1.1 304 Not Modified\r\nContent-Length: 40\r\n\r\n');
      else socket.write(json('{"after":true}'));
    });
    const proxy = await proxyTo(upstream.url);
    const bytes = await rawExchange(
      proxy.url,
      'HEAD /h HTTP/1.1\r\nHost: x\r\n\r\nGET /204 HTTP/1.1\r\nHost: x\r\n\r\n' +
        'GET /304 HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    const answers = bytes.toString('latin1').split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((a) => a.slice(9, 12))).toEqual(['200', '204', '304', '200']);
    expect(answers.slice(0, 3).map((a) => a.slice(a.indexOf('\r\n\r\n') + 4))).toEqual([
      '',
      '',
      '',
    ]);
    expect(answers[0]).toMatch(/\r\ncontent-length: 40\r\n/i);
    expect(answers[3]).toMatch(/\r\n\r\n\{"after":true\}$/);
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

describe('hrmock proxy and request bodies over the size it keeps', () => {
  it('sends them on as they come, framed as they came', async () => {
    const upstream = await rawUpstream((_, socket) => socket.write(json('{}')));
    const proxy = await startProxy({ upstream: upstream.url, maxBodyBytes: 10 });
    onTestFinished(async () => void (await proxy.close()));
    const long = `{"a":"${'x'.repeat(100)}"}`;
    expect((await fetch(`${proxy.url}/a`, { method: 'POST', body: long })).status).toBe(200);
    const init = {
      method: 'POST',
      body: streamOf([long.slice(0, 50), long.slice(50)]),
      duplex: 'half',
    };
    expect((await fetch(`${proxy.url}/b`, init as RequestInit)).status).toBe(200);
    expect(upstream.seen.heads[0]).toMatch(/\r\ncontent-length: 108(\r\n|$)/i);
    expect(upstream.seen.bodies[0]).toBe(long);
    expect(upstream.seen.heads[1]).toMatch(/\r\ntransfer-encoding: chunked(\r\n|$)/i);
    expect(upstream.seen.bodies[1]?.replace(/\r\n[0-9a-f]+\r\n|^[0-9a-f]+\r\n|\r\n$/g, '')).toBe(
      long,
    );
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

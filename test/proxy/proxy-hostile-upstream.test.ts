import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startProxy } from '../../src/api/start-proxy.ts';
import type { ProxyReport } from '../../src/proxy/proxy-report.ts';
import { startHrmockProcess } from '../support/hrmock-process.ts';
import { rawExchange, rawUpstream } from '../support/raw-upstream.ts';

const json = (body: string) =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;

/** Answers that no HTTP/1.1 reader may take, by the path asked. */
const BROKEN: Record<string, string> = {
  '/nul': 'HTTP/1.1 200 OK\r\nX-Note: a\x00b\r\nContent-Length: 2\r\n\r\n{}',
  '/bare-lf': 'HTTP/1.1 200 OK\r\nX-Note: a\nb\r\nContent-Length: 2\r\n\r\n{}',
  '/del': 'HTTP/1.1 200 OK\r\nX-Note: a\x7fb\r\nContent-Length: 2\r\n\r\n{}',
  '/status-line': 'SMTP ready\r\n\r\n',
  '/reason': 'HTTP/1.1 200 O\x01K\r\nContent-Length: 2\r\n\r\n{}',
  '/te-and-cl':
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 7\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
};

/** The upstream answering each path of BROKEN as written there, and anything else with JSON. */
function brokenUpstream() {
  return rawUpstream((head, socket) => {
    const path = head.split(' ')[1] ?? '/';
    socket.write(BROKEN[path] ?? json('{"fine":true}'), 'latin1');
  });
}

/** The JSON report an `hrmock proxy --reporter json` printed after its first line. */
function reportOf(stdout: string): ProxyReport {
  return JSON.parse(stdout.slice(stdout.indexOf('{'))) as ProxyReport;
}

describe('hrmock proxy in front of an upstream that breaks HTTP/1.1', () => {
  it('answers each bad answer with a 502, serves the next request, and reports each', async () => {
    const upstream = await brokenUpstream();
    const proxy = await startHrmockProcess([
      'proxy',
      ...['--upstream', upstream.url, '--port', '0', '--reporter', 'json'],
    ]);
    for (const path of Object.keys(BROKEN)) {
      const bad = await fetch(`${proxy.url}${path}`);
      expect(bad.status).toBe(502);
      const body = (await bad.json()) as { code: number; message: string };
      expect(body.code).toBe(502);
      expect(body.message).toContain(upstream.url);
      const next = await fetch(`${proxy.url}/next`);
      expect([next.status, await next.text()]).toEqual([200, '{"fine":true}']);
    }
    const stopped = await proxy.stop();
    expect(stopped.code).toBe(0);
    const failures = reportOf(stopped.stdout).upstreamFailures;
    expect(failures.map((f) => [f.path, f.status])).toEqual(
      Object.keys(BROKEN).map((path) => [path, 502]),
    );
    expect(failures.find((f) => f.path === '/nul')?.reason).toMatch(/not HTTP\/1\.1.*header/);
    expect(failures.find((f) => f.path === '/status-line')?.reason).toMatch(/status line/);
    expect(failures.find((f) => f.path === '/te-and-cl')?.reason).toMatch(/framing/);
  }, 60_000);

  it('never hands bytes of an answer with Transfer-Encoding and Content-Length to the next request', async () => {
    const forged = json('{"forged":true}');
    const upstream = await rawUpstream((head, socket) => {
      if (!head.startsWith('GET /first')) {
        socket.write(json('{"real":2}'));
        return;
      }
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n');
      socket.write('5\r\nhello\r\n');
      // The rest comes once the client may have sent its next request on the same connection.
      setTimeout(
        () => socket.write(`${forged.length.toString(16)}\r\n${forged}\r\n0\r\n\r\n`),
        200,
      );
    });
    const proxy = await startProxy({ upstream: upstream.url });
    onTestFinished(async () => void (await proxy.close()));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    onTestFinished(() => agent.destroy());
    const get = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        request(`${proxy.url}${path}`, { agent }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString('latin1');
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          res.on('error', reject);
        })
          .on('error', reject)
          .end();
      });
    const first = await get('/first');
    expect(first.status === 502 || first.body === 'hello').toBe(true);
    expect(await get('/second')).toEqual({ status: 200, body: '{"real":2}' });
  });

  it('sends a Content-Length equal to the bytes it sends, whatever the upstream framed', async () => {
    const upstream = await rawUpstream((head, socket) => {
      const path = head.split(' ')[1];
      if (path === '/length') socket.write(json('{"a":1}'));
      else if (path === '/chunked')
        socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n');
      else if (path === '/close') socket.end('HTTP/1.1 200 OK\r\n\r\nuntil the end');
      else if (path === '/extra')
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA');
      else socket.write(BROKEN['/te-and-cl'] as string);
    });
    const proxy = await startProxy({ upstream: upstream.url });
    onTestFinished(async () => void (await proxy.close()));
    for (const path of ['/length', '/chunked', '/close', '/extra', '/te-and-cl']) {
      const bytes = await rawExchange(
        proxy.url,
        `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      const text = bytes.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)\r\n/i.exec(text.slice(0, end + 2))?.[1];
      if (length === undefined)
        expect(text.slice(0, end)).toMatch(/\r\ntransfer-encoding: chunked/i);
      else expect([path, bytes.length - end - 4]).toEqual([path, Number(length)]);
    }
  });

  it('cuts the connection of an answer the upstream cut short, never sending past it', async () => {
    const upstream = await rawUpstream((_, socket) =>
      socket.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'),
    );
    const proxy = await startProxy({ upstream: upstream.url });
    onTestFinished(async () => void (await proxy.close()));
    const text = (await rawExchange(proxy.url, 'GET /cut HTTP/1.1\r\nHost: x\r\n\r\n')).toString();
    expect(text).toMatch(/\r\ncontent-length: 10\r\n/i);
    expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe('abc');
  });
});

describe('hrmock proxy and the requests it forwards', () => {
  it('refuses an absolute-form or asterisk target with a 400 and forwards nothing', async () => {
    const upstream = await brokenUpstream();
    const proxy = await startProxy({ upstream: upstream.url });
    onTestFinished(async () => void (await proxy.close()));
    for (const line of ['GET http://evil.example/x HTTP/1.1', 'OPTIONS * HTTP/1.1']) {
      const text = (
        await rawExchange(proxy.url, `${line}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`)
      ).toString();
      expect(text.slice(0, 12)).toBe('HTTP/1.1 400');
      const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { code: number };
      expect(body.code).toBe(400);
    }
    expect(upstream.seen.requests).toBe(0);
  });

  it('forwards Transfer-Encoding as the client sent it or not at all, and never TE', async () => {
    const upstream = await rawUpstream((_, socket) => socket.write(json('{}')));
    const proxy = await startProxy({ upstream: upstream.url });
    onTestFinished(async () => void (await proxy.close()));
    const send = (head: string, body = '') =>
      rawExchange(proxy.url, `${head}\r\nHost: x\r\nConnection: close\r\n\r\n${body}`);
    await send('GET /none HTTP/1.1\r\nTE: trailers');
    await send('POST /length HTTP/1.1\r\nContent-Length: 7', '{"a":1}');
    await send('POST /chunked HTTP/1.1\r\nTransfer-Encoding: chunked', '7\r\n{"a":1}\r\n0\r\n\r\n');
    const framing = upstream.seen.heads.map((head) =>
      head
        .toLowerCase()
        .split('\r\n')
        .filter((line) => /^(te|transfer-encoding|content-length):/.test(line)),
    );
    expect(framing).toEqual([[], ['content-length: 7'], ['transfer-encoding: chunked']]);
    expect(upstream.seen.bodies).toEqual(['', '{"a":1}', '7\r\n{"a":1}\r\n0\r\n\r\n']);
    // A coding besides chunked cannot go on as sent: refused, not forwarded without it.
    const coded = await send(
      'POST /coded HTTP/1.1\r\nTransfer-Encoding: gzip, chunked',
      '2\r\nab\r\n0\r\n\r\n',
    );
    expect(coded.toString().slice(0, 12)).toBe('HTTP/1.1 501');
    expect(upstream.seen.requests).toBe(3);
  });
});

describe('hrmock proxy after an error nothing caught', () => {
  it.each(['throw', 'reject'])(
    'writes its report and exits 1 (%s)',
    async (fault) => {
      const upstream = await brokenUpstream();
      const preload = fileURLToPath(new URL('../support/fault-on-signal.mjs', import.meta.url));
      const proxy = await startHrmockProcess(
        ['proxy', '--upstream', upstream.url, '--port', '0', '--reporter', 'json'],
        { NODE_OPTIONS: `--import=${preload}`, HRMOCK_TEST_FAULT: fault },
      );
      expect((await fetch(`${proxy.url}/profiles/searching`)).status).toBe(200);
      process.kill(proxy.pid, 'SIGUSR2');
      // It stops by itself, as on SIGTERM: the exchanges so far are in its report.
      expect(await proxy.exited).toBe(1);
      const { stdout, stderr } = proxy.output();
      expect(stderr).toMatch(
        /stopping on an unexpected error \(Error: an injected (fault|rejection)/,
      );
      expect(reportOf(stdout).exchanges).toBe(1);
    },
    60_000,
  );
});

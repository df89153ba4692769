import { describe, expect, it, onTestFinished } from 'vitest';
import { startProxy } from '../../src/api/start-proxy.ts';
import { httpUpstream } from '../support/http-upstream.ts';
import { rawRequest } from '../support/raw-request.ts';

/** An upstream answering a contract violation to every request, and the paths it was sent. */
async function upstream() {
  const seen: string[] = [];
  const { url } = await httpUpstream((req, res) => {
    seen.push(req.url ?? '');
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end('{"code":200,"message":"ok","data":{"profiles":"not a list"}}');
    });
  });
  return { url, seen };
}

/** A proxy to `url`, closed when the test ends unless the test closed it. */
async function proxyTo(url: string) {
  const proxy = await startProxy({ upstream: url });
  let closed = false;
  onTestFinished(async () => void (closed || (await proxy.close())));
  const close = () => {
    closed = true;
    return proxy.close();
  };
  return { url: proxy.url, port: proxy.port, report: proxy.report, close };
}

type Event = { event: string; data: Record<string, unknown> };

/** The feed at /_mock/events, read event by event as server-sent events. */
async function follow(url: string) {
  const answer = await fetch(`${url}/_mock/events`);
  expect(answer.status).toBe(200);
  const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const events: Event[] = [];
  /** The next event named `name` (those before it are read past). */
  const next = async (name: string): Promise<Event> => {
    for (;;) {
      const found = events.findIndex((e) => e.event === name);
      if (found >= 0) return events.splice(0, found + 1)[found] as Event;
      const { done, value } = await reader.read();
      if (done) throw new Error(`the feed ended before a ${name} event`);
      text += decoder.decode(value, { stream: true });
      for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event !== undefined && data !== undefined)
          events.push({ event, data: JSON.parse(data) });
      }
    }
  };
  /** Resolves when the server ends the feed. */
  const ended = async () => {
    for (;;) if ((await reader.read()).done) return;
  };
  return { next, ended, cancel: () => reader.cancel() };
}

describe('the control page on hrmock proxy’s port', () => {
  it('answers GET /_mock/ui itself, never forwarding it', async () => {
    const up = await upstream();
    const proxy = await proxyTo(up.url);
    const answer = await fetch(`${proxy.url}/_mock/ui?tab=1`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await answer.text()).toContain('<html');
    for (const asset of ['app.js', 'app.css']) {
      const file = await fetch(`${proxy.url}/_mock/ui/${asset}`);
      expect(file.status).toBe(200);
      await file.arrayBuffer();
    }
    expect(up.seen).toEqual([]);
  });

  it('forwards every other /_mock/ path to the upstream', async () => {
    const up = await upstream();
    const proxy = await proxyTo(up.url);
    const answer = await fetch(`${proxy.url}/_mock/scenarios`);
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    expect(up.seen).toEqual(['/_mock/scenarios']);
  });

  it('says hello as a proxy, then tells each exchange and each violation', async () => {
    const up = await upstream();
    const proxy = await proxyTo(up.url);
    const feed = await follow(proxy.url);
    onTestFinished(() => feed.cancel());
    const hello = await feed.next('hello');
    expect(hello.data).toMatchObject({
      kind: 'proxy',
      api: proxy.url,
      requests: [],
      violations: [],
    });
    const answer = await fetch(`${proxy.url}/profiles/searching?source_keys=["a"]&api_key=s3cret`, {
      headers: { 'X-API-KEY': 'the-real-key' },
    });
    await answer.arrayBuffer();
    const request = await feed.next('request');
    expect(request.data).toMatchObject({
      method: 'GET',
      path: '/profiles/searching',
      operation: 'searchProfiles',
      params: { source_keys: '["a"]', api_key: '[redacted]' },
      status: 200,
      state: 'answered',
      scenario: null,
      headers: { 'x-api-key': '[redacted]' },
    });
    expect(request.data.answer).toContain('not a list');
    expect(JSON.stringify(request.data)).not.toMatch(/the-real-key|s3cret/);
    const violation = await feed.next('violation');
    expect(violation.data).toMatchObject({
      side: 'server',
      path: '/profiles/searching',
      status: 200,
    });
  });

  it('tells a page opened later the exchanges and violations so far', async () => {
    const up = await upstream();
    const proxy = await proxyTo(up.url);
    const answer = await fetch(`${proxy.url}/profiles/searching?source_keys=["a"]`);
    await answer.arrayBuffer();
    await proxy.report();
    const feed = await follow(proxy.url);
    onTestFinished(() => feed.cancel());
    const hello = (await feed.next('hello')).data;
    expect(hello.requests).toMatchObject([{ path: '/profiles/searching', status: 200 }]);
    expect((hello.violations as unknown[]).length).toBeGreaterThan(0);
  });

  it('keeps the last 200 exchanges for a page opened later, no more', async () => {
    const up = await upstream();
    const proxy = await proxyTo(up.url);
    for (let i = 0; i < 205; i++)
      await (
        await fetch(`${proxy.url}/profiles/searching?source_keys=["a"]&page=${i}`)
      ).arrayBuffer();
    const feed = await follow(proxy.url);
    onTestFinished(() => feed.cancel());
    const requests = (await feed.next('hello')).data.requests as { params: { page: string } }[];
    expect(requests).toHaveLength(200);
    expect(requests.map((r) => r.params.page).slice(0, 2)).toEqual(['5', '6']);
    expect(requests.at(-1)?.params.page).toBe('204');
  });

  it('shows the proxy’s own 502 as a request row', async () => {
    const proxy = await proxyTo('http://127.0.0.1:1');
    const feed = await follow(proxy.url);
    onTestFinished(() => feed.cancel());
    await feed.next('hello');
    await (await fetch(`${proxy.url}/profiles/searching?source_keys=["a"]`)).arrayBuffer();
    const request = await feed.next('request');
    expect(request.data).toMatchObject({ path: '/profiles/searching', status: 502 });
  });

  it('answers 403 to a cross-origin request for the feed', async () => {
    const up = await upstream();
    const proxy = await proxyTo(up.url);
    const reply = await rawRequest(proxy.port, 'GET', '/_mock/events', {
      origin: 'http://evil.example',
    });
    expect(reply.status).toBe(403);
    expect(up.seen).toEqual([]);
  });

  it('answers 403 to a Host that is not a loopback name', async () => {
    const up = await upstream();
    const proxy = await proxyTo(up.url);
    const reply = await rawRequest(proxy.port, 'GET', '/_mock/events', { host: 'evil.example' });
    expect(reply.status).toBe(403);
    expect(up.seen).toEqual([]);
  });

  it('closes with a page still following, ending its feed', async () => {
    const up = await upstream();
    const proxy = await proxyTo(up.url);
    const feed = await follow(proxy.url);
    await feed.next('hello');
    const report = await proxy.close();
    expect(report.exchanges).toBe(0);
    await feed.ended();
  });
});

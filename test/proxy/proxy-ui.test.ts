import { describe, expect, it, onTestFinished } from 'vitest';
import { startProxy } from '../../src/api/start-proxy.ts';
import { httpUpstream } from '../support/http-upstream.ts';
import { rawRequest } from '../support/raw-request.ts';
import { feedEvents } from '../support/sse.ts';

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
  const feed = feedEvents(answer.body as ReadableStream<Uint8Array>);
  /** The next event named `name` (those before it are read past). */
  const next = async (name: string): Promise<Event> => {
    for (let event = await feed.next(); event !== undefined; event = await feed.next())
      if (event.event === name) return event as Event;
    throw new Error(`the feed ended before a ${name} event`);
  };
  /** Resolves when the server ends the feed. */
  const ended = async () => {
    while ((await feed.next()) !== undefined);
  };
  return { next, ended, cancel: feed.cancel };
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

import { describe, expect, it, onTestFinished } from 'vitest';
import { startProxy } from '../../src/api/start-proxy.ts';
import { httpUpstream } from '../support/http-upstream.ts';

/** A proxy to `upstream`, closed when the test ends unless the test closed it. */
async function proxyTo(upstream: string) {
  const proxy = await startProxy({ upstream });
  let closed = false;
  onTestFinished(async () => void (closed || (await proxy.close())));
  const close = () => {
    closed = true;
    return proxy.close();
  };
  return { url: proxy.url, close };
}

/** NO-5XX as docs/proxy.md states it: the upstream's 5xx is a violation, the proxy's own is not. */
describe('hrmock proxy and 5xx answers', () => {
  it('reports a 502, 503 or 504 the upstream answers as NO-5XX', async () => {
    const upstream = await httpUpstream((req, res) => {
      req.resume();
      const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('limit'));
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: status, message: 'The upstream is unwell.' }));
    });
    const proxy = await proxyTo(upstream.url);
    for (const status of [502, 503, 504]) {
      const answer = await fetch(`${proxy.url}/profiles/searching?source_keys=a&limit=${status}`);
      expect(answer.status).toBe(status);
      await answer.arrayBuffer();
    }
    const report = await proxy.close();
    const no5xx = report.violations.filter((v) => v.rule === 'NO-5XX');
    expect(no5xx.map((v) => v.status)).toEqual([502, 503, 504]);
    expect(report.rules.find((r) => r.id === 'NO-5XX')).toMatchObject({ violations: 3 });
    expect(report.upstreamFailureCount).toBe(0);
  });

  it('counts its own 502 to an unreachable upstream as an upstream failure, not a violation', async () => {
    const proxy = await proxyTo('http://127.0.0.1:1');
    const answer = await fetch(`${proxy.url}/profiles/searching?source_keys=a`);
    expect(answer.status).toBe(502);
    await answer.arrayBuffer();
    const report = await proxy.close();
    expect(report).toMatchObject({ upstreamFailureCount: 1, violationCount: 0, judged: 0 });
  });
});

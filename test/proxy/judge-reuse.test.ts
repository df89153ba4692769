import { describe, expect, it } from 'vitest';
import { startProxy } from '../../src/api/start-proxy.ts';
import { httpUpstream } from '../support/http-upstream.ts';

/**
 * A proxy's judge thread is kept warm for the next proxy of the process (src/proxy/judge-queue.ts):
 * what one proxy saw must never show in the next one's report or callbacks.
 */
describe('a judge thread used by one proxy after another', () => {
  it('starts each proxy with a report of its own, its violations told to its own callback', async () => {
    const upstream = await httpUpstream((req, res) => {
      req.resume();
      const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('limit'));
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: status, message: 'The upstream is unwell.' }));
    });
    const told: string[][] = [];
    for (const statuses of [[502, 503], [504]]) {
      const mine: string[] = [];
      told.push(mine);
      const proxy = await startProxy({
        upstream: upstream.url,
        onViolation: (v) => v.rule === 'NO-5XX' && mine.push(`${v.rule} ${v.status}`),
      });
      for (const status of statuses) {
        const answer = await fetch(`${proxy.url}/profiles/searching?source_keys=a&limit=${status}`);
        await answer.arrayBuffer();
      }
      const report = await proxy.close();
      expect(report.exchanges).toBe(statuses.length);
      const no5xx = report.violations.filter((v) => v.rule === 'NO-5XX');
      expect(no5xx.map((v) => v.status)).toEqual(statuses);
    }
    expect(told).toEqual([['NO-5XX 502', 'NO-5XX 503'], ['NO-5XX 504']]);
  });

  it('judges in a proxy started while another runs, each with its own thread', async () => {
    const upstream = await httpUpstream((req, res) => {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"code": 500, "message": "no"}');
    });
    const [a, b] = await Promise.all([
      startProxy({ upstream: upstream.url }),
      startProxy({ upstream: upstream.url }),
    ]);
    await (await fetch(`${a.url}/profiles/searching?source_keys=a`)).arrayBuffer();
    const [first, second] = await Promise.all([a.close(), b.close()]);
    expect(first.violationCount).toBeGreaterThan(0);
    expect([first.exchanges, second.exchanges, second.violationCount]).toEqual([1, 0, 0]);
  });
});

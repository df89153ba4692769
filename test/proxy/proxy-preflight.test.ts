import { describe, expect, it, onTestFinished } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { startProxy } from '../../src/api/start-proxy.ts';
import { createApp } from '../../src/http/app.ts';
import { startServer } from '../../src/node/server.ts';

describe('hrmock proxy in front of a browser app', () => {
  it('forwards CORS preflights unjudged: a 204 to OPTIONS is no violation', async () => {
    const upstream = await startServer(
      createApp({ data: buildFixtures({ profiles: 30, jobs: 10 }), log: false }),
    );
    const proxy = await startProxy({ upstream: upstream.url });
    onTestFinished(async () => {
      await proxy.close();
      await upstream.close();
    });
    for (const path of ['/profiles/searching', '/jobs/scoring', '/profiles/grading']) {
      const answer = await fetch(`${proxy.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-api-key',
        },
      });
      expect(answer.status).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    }
    const report = await proxy.report();
    expect(report.exchanges).toBe(3);
    expect(report.judged).toBe(0);
    expect(report.violations).toEqual([]);
  });
});

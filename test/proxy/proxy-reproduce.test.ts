import { describe, expect, it } from 'vitest';
import { startProxy } from '../../src/api/start-proxy.ts';
import { renderProxyReport } from '../../src/proxy/proxy-report.ts';
import { brokenUpstream } from '../support/http-upstream.ts';

const KEY = 'key-of-the-test-0123456789';
const TOKEN = 'token-in-the-query-98765';

/** The proxy in front of a broken upstream, `send` run through it; its final report. */
async function reportAfter(send: (url: string) => Promise<unknown>) {
  const upstream = await brokenUpstream();
  const proxy = await startProxy({ upstream: `${upstream}/v1` });
  await send(proxy.url);
  return { upstream, report: await proxy.close() };
}

/** A JSON `body` POSTed to the profile search through the proxy at `url`. */
const postSearch = (body: string) => (url: string) =>
  fetch(`${url}/profiles/searching`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });

describe('the reproduce line of a proxy violation', () => {
  it('sends the request to the upstream again, secret headers as environment references', async () => {
    const { upstream, report } = await reportAfter((url) =>
      fetch(
        `${url}/profiles/searching?source_keys=${encodeURIComponent('["a"]')}&access_token=${TOKEN}`,
        {
          headers: {
            'X-API-KEY': KEY,
            'X-USER-EMAIL': 'someone@example.com',
            Accept: 'application/json',
          },
        },
      ),
    );
    const reproduce = report.violations[0]?.reproduce ?? '';
    expect(reproduce).toMatch(
      new RegExp(`^curl -sS -i -g -X GET '${upstream}/v1/profiles/searching\\?source_keys=`),
    );
    expect(reproduce).toContain('access_token=[redacted]');
    expect(reproduce).toContain('-H "X-API-KEY: $X_API_KEY"');
    expect(reproduce).toContain('-H "X-USER-EMAIL: $X_USER_EMAIL"');
    expect(reproduce.toLowerCase()).not.toContain('accept');
    for (const secret of [KEY, TOKEN, 'someone@example.com'])
      expect(reproduce).not.toContain(secret);
  }, 60_000);

  it('writes a body of up to 4 KB as sent, its secret parameters redacted', async () => {
    const body = JSON.stringify({ source_keys: ['a'], text_keywords: ["it's"], api_key: KEY });
    const { report } = await reportAfter(postSearch(body));
    const reproduce = report.violations[0]?.reproduce ?? '';
    expect(reproduce).toContain(`-H 'Content-Type: application/json'`);
    expect(reproduce).toContain(
      `--data-binary '{"source_keys":["a"],"text_keywords":["it'\\''s"],"api_key":"[redacted]"}'`,
    );
  }, 60_000);

  it('leaves a body over 4 KB to a file, said in a comment, the line under 8 KB', async () => {
    const body = JSON.stringify({ source_keys: ['a'], text_keywords: ['x'.repeat(6000)] });
    const { report } = await reportAfter(postSearch(body));
    const reproduce = report.violations[0]?.reproduce ?? '';
    expect(reproduce).toMatch(/--data-binary @body\.json # its 5\.9 KB body is not shown/);
    expect(reproduce).not.toContain('xxxx');
    expect(Buffer.byteLength(reproduce)).toBeLessThan(8 * 1024);
  }, 60_000);

  it('shows in the pretty report with the time the proxy ran', async () => {
    const { report } = await reportAfter(async (url) => {
      await fetch(`${url}/profiles/searching?source_keys=${encodeURIComponent('["a"]')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    expect(report.ms).toBeGreaterThanOrEqual(200);
    const pretty = renderProxyReport(report, 'pretty');
    expect(pretty).toMatch(/^ {8}reproduce: curl -sS -i -g -X GET 'http/m);
    expect(pretty).not.toContain('reproduce: undefined');
    expect(pretty).not.toMatch(/in 0\.0 s/);
  }, 60_000);
});

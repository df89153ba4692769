import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyReport, startProxy } from '../../src/api/start-proxy.ts';
import { renderProxyReport, violationLine } from '../../src/proxy/proxy-report.ts';

const SECRETS = ['tok-A1-never-shown', 'key-B2-never-shown', 'pw-D4-never-shown'];
const EMAIL = 'mail-C3-never-shown@example.com';

/**
 * An upstream that breaks the contract on every answer (a 200 without its list), echoing the
 * query and body it got: every exchange is a violation, and each answer holds the secrets.
 */
function breakingUpstream(): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.stringify({
        code: 200,
        message: `echo ${req.url} ${Buffer.concat(chunks).toString()}`,
        data: { profiles: `${req.url}` },
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });
}

describe('hrmock proxy with secrets in the requests it judges and records', () => {
  const upstream = breakingUpstream();
  const lines: string[] = [];
  let report: ProxyReport;
  let dir: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    dir = await mkdtemp(join(tmpdir(), 'hrmock-redacted-'));
    const proxy = await startProxy({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      record: dir,
      onViolation: (violation) => lines.push(violationLine(violation)),
    });
    const keys = encodeURIComponent('["s1"]');
    const headers = { 'X-USER-EMAIL': EMAIL, 'content-type': 'application/json' };
    await (
      await fetch(
        `${proxy.url}/profiles/searching?source_keys=${keys}&access_token=${SECRETS[0]}&x_api_key=${SECRETS[1]}`,
        { headers },
      )
    ).arrayBuffer();
    await (
      await fetch(`${proxy.url}/profiles/searching`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ source_keys: ['s2'], auth: { password: SECRETS[2] } }),
      })
    ).arrayBuffer();
    report = await proxy.close();
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  it('judged both exchanges and found violations', () => {
    expect(report.judged).toBe(2);
    expect(lines.length).toBeGreaterThan(1);
  });

  it('shows no secret in a VIOLATION line, and [redacted] where one was', () => {
    for (const secret of [...SECRETS, EMAIL]) expect(lines.join('\n')).not.toContain(secret);
    expect(lines.join('\n')).toContain('access_token=[redacted]');
    expect(lines.join('\n')).toContain('"password":"[redacted]"');
  });

  it.each(['json', 'pretty', 'junit'] as const)('shows no secret in the %s report', (reporter) => {
    const text = renderProxyReport(report, reporter);
    for (const secret of [...SECRETS, EMAIL]) expect(text).not.toContain(secret);
  });

  it('writes no secret to the recordings, [redacted] where one was', async () => {
    const names = await readdir(dir);
    const files = await Promise.all(names.map((name) => readFile(join(dir, name), 'utf8')));
    expect(files).toHaveLength(2);
    const [get, post] = files
      .map((text) => JSON.parse(text))
      .sort((a, b) => (a.key < b.key ? -1 : 1));
    const recorded = [get, post].map((file) => file.request.params);
    expect(recorded).toContainEqual(
      expect.objectContaining({ access_token: '[redacted]', x_api_key: '[redacted]' }),
    );
    expect(recorded).toContainEqual(expect.objectContaining({ auth: { password: '[redacted]' } }));
    // The upstream's answers echo what it got; the requests as recorded hold none of it.
    for (const file of [get, post])
      for (const secret of SECRETS)
        expect(JSON.stringify({ key: file.key, request: file.request })).not.toContain(secret);
  });
});

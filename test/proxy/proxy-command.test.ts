import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startMock } from '../../src/api/start-mock.ts';
import type { ProxyReport } from '../../src/proxy/proxy-report.ts';
import { nodeScript, refused, runHrmock } from '../support/command-run.ts';
import { brokenUpstream } from '../support/http-upstream.ts';
import { tempDir } from '../support/temp-dir.ts';

/** The mock on loopback, stopped when the test ends. */
async function mockUpstream() {
  const mock = await startMock({ port: 0, profiles: 50, jobs: 20, log: false });
  onTestFinished(() => mock.close());
  return mock;
}

/** An upstream that cuts every connection at once: no request ever gets its answer. */
async function cuttingUpstream(): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** CMD: a search through the proxy, its status printed, then `exit`. */
const searchThen = (exit: number, waitMs = 0) =>
  nodeScript(`
    const keys = encodeURIComponent(process.env.TEST_SOURCE_KEYS ?? '["x"]');
    const answer = await fetch(process.env.HRMOCK_PROXY_URL + '/profiles/searching?limit=2&source_keys=' + keys);
    console.log('CMD searched ' + answer.status + ' via port ' + process.env.HRMOCK_PROXY_PORT);
    await new Promise((resolve) => setTimeout(resolve, ${waitMs}));
    process.exit(${exit});
  `);

const proxyAt = (stdout: string) => /hrmock proxy: at (http:\/\/\S+)/.exec(stdout)?.[1] ?? '';

describe('hrmock proxy -- CMD', () => {
  it('runs CMD against the proxy, stops the proxy when CMD ends and exits 0 on clean traffic', async () => {
    const mock = await mockUpstream();
    const run = await runHrmock(
      ['proxy', '--upstream', mock.url, '--port', '0', '--', ...searchThen(0)],
      {
        env: { TEST_SOURCE_KEYS: JSON.stringify(mock.target.profiles.source_keys) },
      },
    );
    expect(run.stderr).not.toContain('VIOLATION');
    const url = proxyAt(run.stdout);
    expect(run.stdout).toContain(`CMD searched 200 via port ${new URL(url).port}`);
    expect(run.stdout).toMatch(/1 exchanges forwarded, 1 judged/);
    expect(run.code).toBe(0);
    expect(await refused(url)).toBe(true);
  }, 120_000);

  it("exits with CMD's status when CMD fails, whatever the traffic", async () => {
    const mock = await mockUpstream();
    const run = await runHrmock(
      ['proxy', '--upstream', mock.url, '--port', '0', '--', ...searchThen(3)],
      {
        env: { TEST_SOURCE_KEYS: JSON.stringify(mock.target.profiles.source_keys) },
      },
    );
    expect(run.stdout).toContain('CMD searched 200');
    expect(run.code).toBe(3);
  }, 120_000);

  it('exits 1 when the traffic had a violation, the report written with a reproduce line and its time', async () => {
    const upstream = await brokenUpstream();
    const output = join(await tempDir('proxy-command'), 'report.txt');
    const run = await runHrmock([
      'proxy',
      ...['--upstream', `${upstream}/v1`, '--port', '0', '--output', output],
      '--',
      ...searchThen(0, 300),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^VIOLATION ENV \(server\) GET \/profiles\/searching/m);
    expect(run.stdout).toContain(`report written to ${output}`);
    const report = await readFile(output, 'utf8');
    expect(report).toContain('FAIL  ENV');
    expect(report).toContain(
      `reproduce: curl -sS -i -g -X GET '${upstream}/v1/profiles/searching?limit=2&source_keys=${encodeURIComponent('["x"]')}'`,
    );
    expect(report).not.toContain('reproduce: undefined');
    // CMD took 300 ms at least: the time is the run's, not 0.
    expect(report).toMatch(/in \d+\.\d s/);
    expect(report).not.toMatch(/in 0\.0 s/);
  }, 120_000);

  it('exits 2 when every request failed upstream, and says it could not judge', async () => {
    const upstream = await cuttingUpstream();
    const output = join(await tempDir('proxy-command'), 'report.json');
    const run = await runHrmock([
      'proxy',
      ...['--upstream', upstream, '--port', '0', '--reporter', 'json', '--output', output],
      '--',
      ...searchThen(0),
    ]);
    expect(run.stdout).toContain('CMD searched 502');
    expect(run.stdout).toMatch(/could not judge: the one request failed upstream \(first: GET /);
    expect(run.code).toBe(2);
    const report = JSON.parse(await readFile(output, 'utf8')) as ProxyReport;
    expect([report.exchanges, report.upstreamFailureCount]).toEqual([0, 1]);
    expect(report.ms).toBeGreaterThan(0);
  }, 120_000);

  it('exits 2 naming a CMD that cannot be started, the proxy stopped', async () => {
    const mock = await mockUpstream();
    const run = await runHrmock([
      'proxy',
      ...['--upstream', mock.url, '--port', '0'],
      '--',
      'hrmock-no-such-command',
    ]);
    expect(run.stderr).toContain('cannot run the command after "--", "hrmock-no-such-command"');
    expect(run.code).toBe(2);
    expect(await refused(proxyAt(run.stdout))).toBe(true);
  }, 120_000);

  it('passes the SIGTERM it receives on to CMD and exits with the status CMD then gives', async () => {
    const mock = await mockUpstream();
    const marker = join(await tempDir('proxy-command'), 'terminated');
    const cmd = nodeScript(`
      import { writeFileSync } from 'node:fs';
      process.on('SIGTERM', () => {
        writeFileSync(${JSON.stringify(marker)}, 'SIGTERM');
        process.exit(7);
      });
      console.log('CMD ' + 'waiting');
      setInterval(() => {}, 1000);
    `);
    const run = await runHrmock(['proxy', '--upstream', mock.url, '--port', '0', '--', ...cmd], {
      terminateWhen: /CMD waiting/,
    });
    expect(existsSync(marker)).toBe(true);
    expect(run.code).toBe(7);
    expect(run.stderr).toMatch(/no exchange went through the proxy/);
  }, 120_000);

  it('exits 128 + 15 when the SIGTERM it passed on ended CMD', async () => {
    const mock = await mockUpstream();
    const cmd = nodeScript(`console.log('CMD ' + 'waiting'); setInterval(() => {}, 1000);`);
    const run = await runHrmock(['proxy', '--upstream', mock.url, '--port', '0', '--', ...cmd], {
      terminateWhen: /CMD waiting/,
    });
    expect(run.code).toBe(143);
  }, 120_000);

  it('takes a SIGTERM sent as soon as its URL is announced, and passes it on', async () => {
    const mock = await mockUpstream();
    const cmd = nodeScript('setInterval(() => {}, 1000);');
    const run = await runHrmock(['proxy', '--upstream', mock.url, '--port', '0', '--', ...cmd], {
      terminateWhen: /hrmock proxy: at http/,
    });
    expect(run.code).toBe(143);
    expect(run.stdout).toMatch(/13 rules: /);
  }, 120_000);
});

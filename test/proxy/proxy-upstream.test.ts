import { execFile } from 'node:child_process';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startMock } from '../../src/api/start-mock.ts';
import { startProxy } from '../../src/api/start-proxy.ts';
import { CLI } from '../support/cli-entry.ts';
import { startHrmockProcess } from '../support/hrmock-process.ts';
import { httpUpstream } from '../support/http-upstream.ts';
import { refusingPort } from '../support/refusing-port.ts';

function hrmock(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { timeout: 60_000 }, (error, _stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

describe('hrmock proxy when the upstream fails', () => {
  it('answers a 502 envelope naming an upstream that refuses connections, and stays up', async () => {
    // A port bound but never listening, for the whole test: a port freed by a stopped mock could
    // be taken by a server of a test running beside this one.
    const mock = refusingPort();
    const proxy = await startHrmockProcess(['proxy', '--upstream', mock.url, '--port', '0']);
    expect((await fetch(`${proxy.url}/openapi.json`)).status).toBe(502);
    for (const attempt of [1, 2]) {
      const answer = await fetch(`${proxy.url}/profiles/searching?limit=${attempt}`);
      expect(answer.status).toBe(502);
      const body = (await answer.json()) as { code: number; message: string };
      expect(body.code).toBe(502);
      expect(body.message).toContain(mock.url);
      expect(body.message).toMatch(/ECONNREFUSED/);
    }
    const stopped = await proxy.stop();
    // The upstream's absence is not a violation of the contract: the report says it apart, and
    // with no exchange judged the run could not judge (exit 2, docs/cli.md's table).
    expect(stopped.code).toBe(2);
    expect(stopped.stdout).toMatch(/3 upstream failures/);
    expect(`${stopped.stdout}${stopped.stderr}`).toMatch(
      /could not judge: all 3 requests failed upstream/,
    );
  }, 60_000);

  it('answers a 504 envelope when the upstream does not answer within --timeout', async () => {
    const silent = await httpUpstream(() => {
      // Never answers: the proxy's timeout must.
    });
    const proxy = await startHrmockProcess([
      'proxy',
      '--upstream',
      silent.url,
      '--port',
      '0',
      '--timeout',
      '0.5',
    ]);
    const answer = await fetch(`${proxy.url}/jobs/searching`);
    expect(answer.status).toBe(504);
    const body = (await answer.json()) as { message: string };
    expect(body.message).toContain(silent.url);
    expect(body.message).toContain('0.5 s');
    // Its one request failed upstream: nothing could be judged.
    const stopped = await proxy.stop();
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toMatch(/could not judge: the one request failed upstream/);
  }, 60_000);
});

describe('hrmock proxy and headers', () => {
  it('passes a redirect back unchanged and never follows it to another origin', async () => {
    let elsewhere = 0;
    const other = await httpUpstream((_req, res) => {
      elsewhere++;
      res.end('{}');
    });
    const seen: (string | undefined)[] = [];
    const upstream = await httpUpstream((req, res) => {
      seen.push(req.headers['x-api-key'] as string | undefined);
      res.writeHead(302, { location: `${other.url}/profiles/searching` });
      res.end();
    });
    const proxy = await startProxy({ upstream: upstream.url });
    onTestFinished(async () => void (await proxy.close()));
    const answer = await fetch(`${proxy.url}/profiles/searching`, {
      headers: { 'x-api-key': 'k-secret' },
      redirect: 'manual',
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(`${other.url}/profiles/searching`);
    expect(seen).toEqual(['k-secret']);
    expect(elsewhere).toBe(0);
  });

  it('forwards an answer longer than it judges unchanged, and counts it unjudged', async () => {
    const mock = await startMock({ profiles: 60, jobs: 20 });
    onTestFinished(() => mock.close());
    const proxy = await startProxy({ upstream: mock.url, maxAnswerBytes: 1000 });
    const path = `/profiles/searching?source_keys=${encodeURIComponent(JSON.stringify(mock.target.profiles.source_keys))}&limit=50`;
    const direct = Buffer.from(await (await fetch(`${mock.url}${path}`)).arrayBuffer());
    const through = Buffer.from(await (await fetch(`${proxy.url}${path}`)).arrayBuffer());
    const report = await proxy.close();
    expect(direct.length).toBeGreaterThan(1000);
    expect(through.equals(direct)).toBe(true);
    expect(report).toMatchObject({ exchanges: 1, judged: 0, unjudged: 1, violationCount: 0 });
  });

  it('relays the early 413 of an upstream to a body over 1 MB, every time, never a 502', async () => {
    // The mock in a process of its own, as in use (in this one, the timing hides the race): it
    // answers 413 before reading the body and closes the connection under the rest of it.
    const mock = await startHrmockProcess(['serve', '--port', '0', '--quiet']);
    const proxy = await startProxy({ upstream: mock.url });
    onTestFinished(async () => void (await proxy.close()));
    const body = JSON.stringify({ source_keys: ['a'], pad: 'x'.repeat(1024 * 1024 + 64) });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await fetch(`${proxy.url}/profiles/searching`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      statuses.push(answer.status);
      expect(((await answer.json()) as { code: number }).code).toBe(answer.status);
    }
    expect(statuses).toEqual([413, 413, 413, 413, 413, 413]);
  }, 60_000);
});

describe('hrmock proxy refusing bad options', () => {
  it.each([
    [[], /--upstream is required/],
    [['--upstream', 'staging.example.com'], /--upstream must be an absolute URL/],
    [['--upstream', 'ftp://example.com'], /--upstream must be an http:\/\/ or https:\/\/ URL/],
    [['--upstream', 'http://a:b@example.com'], /--upstream must not carry credentials/],
    [['--upstream', 'http://127.0.0.1:1', '--timeout', '0'], /--timeout takes seconds/],
    [['--upstream', 'http://127.0.0.1:1', '--reporter', 'xml'], /--reporter must be one of/],
  ])(
    'exits 2 naming the flag for %j',
    async (args, message) => {
      const { code, stderr } = await hrmock(['proxy', ...args]);
      expect(code).toBe(2);
      expect(stderr).toMatch(message);
    },
    60_000,
  );

  it('refuses a bad upstream in the package API with the same message', async () => {
    await expect(startProxy({ upstream: 'nope' })).rejects.toThrow(
      /upstream must be an absolute URL/,
    );
  });
});

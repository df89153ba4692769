import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from './support/cli-entry.ts';
import { rawRequest } from './support/raw-request.ts';
import { tempDir } from './support/temp-dir.ts';
import { until } from './support/until.ts';

const run = promisify(execFile);
const children: ChildProcess[] = [];
/** A small, quiet mock: quick to start. */
const SMALL = ['--profiles', '60', '--jobs', '20', '--quiet'];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

async function hrmock(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Starts `hrmock serve` and resolves with its first stdout line's URL. */
function serve(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; url: string; stdout: () => string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const url = /at (http:\/\/\S+)/.exec(out)?.[1];
      if (url && out.includes('Target')) resolve({ child, url, stdout: () => out });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

type Exchange = { answer: string; startedAt: number; answeredAt: number; closedAt: number };

/**
 * Sends `first` to a server on a raw socket, then `rest` a byte every 100 ms, and waits (8 s at
 * most) for the server to hang up: what it answered, and when.
 */
function trickle(url: string, first: string, rest = ''): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    let answer = '';
    let answeredAt = 0;
    let at = 0;
    socket.setEncoding('latin1');
    socket.on('data', (data) => {
      answeredAt ||= Date.now();
      answer += data;
    });
    socket.on('error', () => {});
    socket.write(first);
    const send = setInterval(() => {
      if (socket.destroyed || at >= rest.length) return;
      socket.write(rest[at] as string);
      at++;
    }, 100);
    const limit = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after 8 s; answered:\n${answer}`));
    }, 8_000);
    socket.on('close', () => {
      clearInterval(send);
      clearTimeout(limit);
      resolve({ answer, startedAt, answeredAt, closedAt: Date.now() });
    });
  });
}

describe('hrmock serve', () => {
  it('prints its base URL and two example curl commands that work', async () => {
    const { url, stdout } = await serve(['--profiles', '120', '--jobs', '40', '--quiet']);
    const curls = [...stdout().matchAll(/curl '([^']+)'/g)].map((m) => m[1] as string);
    expect(curls).toHaveLength(2);
    for (const example of curls) {
      const response = await fetch(example);
      expect(response.status).toBe(200);
      expect((await response.json()).code).toBe(200);
    }
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('logs one line per request on stderr', async () => {
    const { child, url } = await serve(['--profiles', '60', '--jobs', '20']);
    let err = '';
    child.stderr?.on('data', (c) => (err += c));
    await (await fetch(`${url}/jobs/grading`)).arrayBuffer();
    await new Promise((r) => setTimeout(r, 100));
    expect(err).toMatch(/GET \/jobs\/grading 400 [\d.]+ms/);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('stops with exit status 0 on %s', async (signal) => {
    const { child } = await serve(SMALL);
    const exit = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    expect(await exit).toBe(0);
  });

  it('finishes a request in flight on SIGTERM, refuses new ones, and exits 0', async () => {
    const { child, url } = await serve(SMALL);
    const target = `${url}/jobs/searching?board_keys=${encodeURIComponent('[]')}`;
    let settled = false;
    const inFlight = fetch(target, { headers: { Prefer: 'delay=5000' } }).finally(() => {
      settled = true;
    });
    // Events, not sleeps: the journal shows the request pending before the signal goes.
    await until(async () => {
      const journal = await (await fetch(`${url}/_mock/requests?path=/jobs/searching`)).json();
      return journal.data.some((r: { state: string }) => r.state === 'pending');
    });
    const exit = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    // Once the server has taken the signal a new request is refused, while the one in flight
    // is still being answered.
    await until(() =>
      fetch(`${url}/_mock/target`).then(
        () => false,
        () => true,
      ),
    );
    expect(settled).toBe(false);
    const answer = await inFlight;
    expect(answer.status).toBe(400);
    expect((await answer.json()).code).toBe(400);
    expect(await exit).toBe(0);
  });

  // Each limit is set far below its default, so the server can only have been this quick
  // because the flag reached it.
  it('takes its API key from HRMOCK_API_KEY, where ps does not show it', async () => {
    const key = 'key-from-the-environment-51c2';
    const { child, url } = await serve(SMALL, { ...process.env, HRMOCK_API_KEY: key });
    const searching = `${url}/profiles/searching?source_keys=[]`;
    expect((await fetch(searching)).status).toBe(401);
    expect((await fetch(searching, { headers: { 'X-API-KEY': 'wrong' } })).status).toBe(401);
    expect((await fetch(searching, { headers: { 'X-API-KEY': key } })).status).not.toBe(401);
    const commandLine = await readFile(`/proc/${child.pid}/cmdline`, 'utf8');
    expect(commandLine).toContain('serve');
    expect(commandLine).not.toContain(key);
  });

  it('closes an idle keep-alive connection after --keep-alive-timeout', async () => {
    const { url } = await serve([...SMALL, '--keep-alive-timeout', '0.5']);
    const get = 'GET /_mock/target HTTP/1.1\r\nHost: x\r\n\r\n';
    const { answer, answeredAt, closedAt } = await trickle(url, get);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/\r\nconnection: keep-alive\r\n/i);
    // After the 0.5 s given, well before the default 5 s would close it.
    expect(closedAt - answeredAt).toBeGreaterThanOrEqual(400);
    expect(closedAt - answeredAt).toBeLessThan(4_000);
  });

  it('answers a client trickling its headers with the 408 envelope after --headers-timeout', async () => {
    const { url } = await serve([...SMALL, '--headers-timeout', '1']);
    const slow = 'GET /_mock/target HTTP/1.1\r\nHost: x\r\nX-Slow: 12345678901234567890\r\n\r\n';
    const { answer, startedAt, closedAt } = await trickle(url, '', slow);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/"code":408/);
    // Cut by the 1 s limit, well before the headers end (~6.6 s at 10 bytes a second).
    expect(closedAt - startedAt).toBeLessThan(5_000);
  });

  it('answers a client trickling its body with the 408 envelope after --request-timeout', async () => {
    const { url } = await serve([...SMALL, '--request-timeout', '1']);
    const body = JSON.stringify({ source_keys: ['0'.repeat(40)], filler: 'x'.repeat(100) });
    const head = `POST /profiles/searching HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    // The headers at once, then the body a byte at a time: only the whole-request limit applies.
    const { answer, startedAt, closedAt } = await trickle(url, head, body);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/"code":408/);
    // Cut by the 1 s limit, well before the body ends (~15 s at 10 bytes a second).
    expect(closedAt - startedAt).toBeLessThan(7_000);
  });

  // Four processes side by side; a wide time bound for a loaded machine.
  it('exits with status 2 on a malformed --latency, --fail-rate or timeout', async () => {
    const cases = [
      ['--latency', '300-50'],
      ['--fail-rate', '2'],
      ['--headers-timeout', '0'],
      ['--request-timeout', 'soon'],
    ];
    const results = await Promise.all(cases.map((args) => hrmock(['serve', ...args])));
    results.forEach(({ code, stderr }, i) => {
      expect(code).toBe(2);
      expect(stderr).toMatch(new RegExp(cases[i]?.[0] as string));
    });
  }, 60_000);

  it('exits with status 2 and one line when the port is taken', async () => {
    const { url } = await serve(SMALL);
    const port = new URL(url).port;
    const { code, stderr } = await hrmock([
      'serve',
      '--port',
      port,
      '--profiles',
      '60',
      '--jobs',
      '20',
    ]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/already in use/);
  });

  it('answers the admin API to --allowed-host names and gives CORS to --admin-origin only', async () => {
    const { url } = await serve([
      ...SMALL,
      '--allowed-host',
      'mock.internal',
      '--admin-origin',
      'http://localhost:5173',
    ]);
    const asked = async (headers: Record<string, string>) => {
      const reply = await rawRequest(Number(new URL(url).port), 'GET', '/_mock/requests', headers);
      return { status: reply.status, allowOrigin: reply.headers['access-control-allow-origin'] };
    };
    expect((await asked({ host: 'evil.example' })).status).toBe(403);
    expect((await asked({ host: 'mock.internal:4010' })).status).toBe(200);
    expect(await asked({ origin: 'http://localhost:5173' })).toEqual({
      status: 200,
      allowOrigin: 'http://localhost:5173',
    });
    expect(await asked({ origin: 'https://evil.example' })).toEqual({
      status: 403,
      allowOrigin: undefined,
    });
  });

  it('exits with status 2 on an --admin-origin that is not an origin or an --allowed-host with a port', async () => {
    const [origin, host] = await Promise.all([
      hrmock(['serve', '--admin-origin', 'http://localhost:5173/app']),
      hrmock(['serve', '--allowed-host', 'mock:4010']),
    ]);
    expect([origin.code, host.code]).toEqual([2, 2]);
    expect(origin.stderr).toMatch(/--admin-origin takes an origin/);
    expect(host.stderr).toMatch(/--allowed-host takes a host name/);
  });

  it('exits with status 2 on a malformed option', async () => {
    const { code, stderr } = await hrmock(['serve', '--profiles', 'many']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--profiles must be a whole number/);
  });
});

describe('hrmock fixtures and target', () => {
  it('writes the fixtures as JSON files', async () => {
    const dir = await tempDir('fixtures-out');
    const { code } = await hrmock(['fixtures', '--profiles', '50', '--jobs', '10', '--out', dir]);
    expect(code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual([
      'boards.json',
      'jobs.json',
      'profiles.json',
      'sources.json',
    ]);
    expect(JSON.parse(await readFile(join(dir, 'profiles.json'), 'utf8'))).toHaveLength(50);
  });

  it('prints the target', async () => {
    const { code, stdout } = await hrmock(['target', '--profiles', '50', '--jobs', '20']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).profiles.profile_ids.length).toBeGreaterThanOrEqual(10);
  });

  it('prints help for --help and exits 0', async () => {
    const { code, stdout } = await hrmock(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/hrmock serve/);
  });

  it('exits with status 2 on an unknown command', async () => {
    const { code, stderr } = await hrmock(['bake']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown command "bake"/);
  });
});

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Load = {
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
};

export type LoadRequest = { method: 'GET' | 'POST'; path: string; body?: string };

/** What a browser-based client sends: every server gets the same headers. */
export const HEADERS = {
  'x-api-key': 'bench',
  'x-user-email': 'bench@example.com',
  'content-type': 'application/json',
  'accept-encoding': 'gzip, deflate, br',
};

/**
 * wrk (C, from Debian) drives the servers: a JavaScript client spends more time reading large
 * bodies than the servers spend writing them, which would cap every server at the client's speed.
 */
export function ensureWrk(): string {
  const found = spawnSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  if (process.getuid?.() !== 0)
    throw new Error('the bench needs wrk: install it (Debian: apt-get install wrk)');
  process.stderr.write('installing wrk (apt-get install wrk)…\n');
  execFileSync(
    'sh',
    [
      '-c',
      'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null',
    ],
    { stdio: 'inherit' },
  );
  return 'wrk';
}

const scratch = mkdtempSync(join(tmpdir(), 'hrmock-wrk-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
let scripts = 0;

/**
 * A wrk script: one request is set once (wrk then sends it without calling back into Lua, which
 * would cost the client more than some servers spend answering); several are cycled through.
 */
function luaScript(requests: LoadRequest[]): string {
  const quote = (text: string) =>
    `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
  const file = join(scratch, `load-${++scripts}.lua`);
  const [only] = requests;
  if (requests.length === 1 && only !== undefined) {
    writeFileSync(
      file,
      [
        `wrk.method = ${quote(only.method)}`,
        `wrk.path = ${quote(only.path)}`,
        ...(only.body === undefined ? [] : [`wrk.body = ${quote(only.body)}`]),
        ...Object.entries(HEADERS).map(([k, v]) => `wrk.headers[${quote(k)}] = ${quote(v)}`),
        '',
      ].join('\n'),
    );
    return file;
  }
  const headers = `{${Object.entries(HEADERS)
    .map(([k, v]) => `[${quote(k)}] = ${quote(v)}`)
    .join(', ')}}`;
  const lines = requests.map(
    (r) =>
      `  wrk.format(${quote(r.method)}, ${quote(r.path)}, ${headers}, ${r.body === undefined ? 'nil' : quote(r.body)}),`,
  );
  writeFileSync(
    file,
    [
      'local requests = nil',
      'local i = 0',
      'function init(args)',
      '  requests = {',
      ...lines,
      '  }',
      'end',
      'function request()',
      '  i = i % #requests + 1',
      '  return requests[i]',
      'end',
      '',
    ].join('\n'),
  );
  return file;
}

function toMs(text: string | undefined): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text ?? '');
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

/** Drives a server with the same requests, cycling through them, over a fixed number of connections. */
export function drive(
  url: string,
  requests: LoadRequest[],
  options: { connections: number; seconds: number },
): Load {
  const wrk = ensureWrk();
  const output = execFileSync(
    wrk,
    [
      '-t1',
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      '--latency',
      '--timeout',
      '10s',
      '-s',
      luaScript(requests),
      url,
    ],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  return {
    reqPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN),
    p50: toMs(/^\s+50%\s+(\S+)/m.exec(output)?.[1]),
    p99: toMs(/^\s+99%\s+(\S+)/m.exec(output)?.[1]),
    errors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? Number.NaN),
  };
}

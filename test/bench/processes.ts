import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stopChild } from '../../src/stop-child.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

export type Child = { url: string; pid: number; startedMs: number; stop: () => Promise<void> };

/** Spawns a server and resolves with its URL once its output names it. */
export function spawnServer(
  args: string[],
  urlPattern: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<Child> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL within 120 s from ${args.join(' ')}:\n${output}`)),
      120_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = urlPattern.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({
          url,
          pid: child.pid as number,
          startedMs: performance.now() - started,
          stop: () => stopChild(child),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}

export function startHrmock(
  profiles: number,
  options: { answerCacheMb?: number; extra?: string[] } = {},
): Promise<Child> {
  const cache =
    options.answerCacheMb === undefined ? [] : ['--answer-cache-mb', String(options.answerCacheMb)];
  return spawnServer(
    [
      'bin/hrmock.js',
      'serve',
      '--port',
      '0',
      '--quiet',
      '--profiles',
      String(profiles),
      ...cache,
      ...(options.extra ?? []),
    ],
    /at (http:\/\/127\.0\.0\.1:\d+)/,
  );
}

export function startBare(bodyFile: string, gzip: boolean): Promise<Child> {
  return spawnServer(
    [tsx, 'test/bench/bare-server.ts', bodyFile, ...(gzip ? ['gzip'] : [])],
    /listening on (http:\/\/\S+)/,
  );
}

const prism = fileURLToPath(
  new URL('../../node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url),
);

export function startPrismMock(dynamic: boolean): Promise<Child> {
  const args = [
    prism,
    'mock',
    'contract/openapi.yaml',
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    ...(dynamic ? ['--dynamic'] : []),
  ];
  return spawnServer(args, /Prism is listening on (http:\/\/\S+?)\/?\s/, {
    NODE_ENV: 'production',
  });
}

/** `prism proxy contract/openapi.yaml UPSTREAM`, started as the Prism mocks are. */
export function startPrismProxy(upstream: string): Promise<Child> {
  const args = [
    prism,
    'proxy',
    'contract/openapi.yaml',
    upstream,
    '--host',
    '127.0.0.1',
    '--port',
    '0',
  ];
  return spawnServer(args, /Prism is listening on (http:\/\/\S+?)\/?\s/, {
    NODE_ENV: 'production',
  });
}

/**
 * Milliseconds from spawning `hrmock serve` (`entry`: the CLI script, and node's flags before
 * it) to the end of its first answer, the median of `runs` servers started one after another.
 */
export async function firstAnswerMs(
  entry: string[],
  profiles: number,
  runs: number,
): Promise<{ median: number; min: number; max: number }> {
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const started = performance.now();
    const child = await spawnServer(
      [...entry, 'serve', '--port', '0', '--quiet', '--profiles', String(profiles)],
      /at (http:\/\/127\.0\.0\.1:\d+)/,
    );
    await (await fetch(`${child.url}/_mock/target`)).arrayBuffer();
    times.push(performance.now() - started);
    await child.stop();
  }
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)] as number,
    min: times[0] as number,
    max: times.at(-1) as number,
  };
}

/** Resident memory of a process, in MB, from /proc. */
export function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** CPU time a process has used (user and system, all its threads), in ms, from /proc. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * Resolves once a process has gone quiet (under a tenth of a core over half a second), or
 * after `limitMs`: the proxy's judge has caught up with the traffic sent so far.
 */
export async function quiet(pid: number, limitMs = 60_000): Promise<void> {
  const until = performance.now() + limitMs;
  let before = cpuMs(pid);
  while (performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuMs(pid);
    if (now - before < 50) return;
    before = now;
  }
}

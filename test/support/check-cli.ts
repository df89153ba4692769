import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { vi } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { type AppOptions, createApp } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import type { Fetch } from '../mutants/mutants.ts';

const fixtures = buildFixtures({ profiles: 400, jobs: 120 });

/**
 * The mock on 127.0.0.1, port 0, its answers passed through `wrap` (a deliberately broken
 * server). No answer cache and no fast path: every request reaches `wrap`.
 */
export function serveMock(
  wrap: (fetch: Fetch) => Fetch = (f) => f,
  options: Partial<AppOptions> = {},
): Promise<RunningServer> {
  const app = createApp({ data: fixtures, log: false, ...options });
  const fetch = wrap(async (request) => app.fetch(request));
  return startServer(app, {
    fetch,
    answerCacheBytes: 0,
    fastPath: false,
  });
}

/** Runs `hrmock …` in process; what it printed and its exit status. */
export async function hrmockCli(
  args: string[],
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  try {
    const code = await runCli(args);
    return { code, out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

/** Runs `hrmock check …` in process; what it printed and its exit status. */
export function checkCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return hrmockCli(['check', ...args]);
}

export type EveryReport = { code: number; out: string; json: string; junit: string };

/** One run of `check` with the pretty report on stdout and the JSON and JUnit ones in files. */
export async function everyReport(args: string[]): Promise<EveryReport> {
  // Its own folder, gone once read: a run may be shared by tests, or made before them.
  const dir = await mkdtemp(join(tmpdir(), 'hrmock-reports-'));
  try {
    return await reportsInto(dir, args);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function reportsInto(dir: string, args: string[]): Promise<EveryReport> {
  const [json, junit] = [join(dir, 'report.json'), join(dir, 'report.xml')];
  const { code, out } = await checkCli([
    ...args,
    '--reporter',
    'pretty',
    '--reporter',
    'json',
    '--output',
    json,
    '--reporter',
    'junit',
    '--output',
    junit,
  ]);
  return { code, out, json: await readFile(json, 'utf8'), junit: await readFile(junit, 'utf8') };
}

/**
 * Runs a printed reproduce line with bash and the system's curl; the status it got. Fails
 * the test when curl is missing rather than replaying the request some other way.
 */
export async function replay(command: string, env: Record<string, string> = {}): Promise<number> {
  const run = promisify(execFile);
  const { stdout } = await run('bash', ['-c', command], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  const status = /^HTTP\/[\d.]+ (\d{3})/.exec(stdout);
  if (status === null) throw new Error(`curl printed no status line: ${stdout.slice(0, 200)}`);
  return Number(status[1]);
}

/** Whether curl is on the PATH (the reproducer tests need it and install nothing). */
export async function hasCurl(): Promise<boolean> {
  const run = promisify(execFile);
  return run('which', ['curl']).then(
    () => true,
    () => false,
  );
}

import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { collectOutput } from './child-output.ts';
import { CLI } from './cli-entry.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export type CommandRun = { code: number | null; stdout: string; stderr: string };

export type RunOptions = {
  /** Added to the environment hrmock (and so CMD) runs with. */
  env?: NodeJS.ProcessEnv;
  /** Once stdout (hrmock's and CMD's) holds this, hrmock gets SIGTERM, once. */
  terminateWhen?: RegExp;
};

/**
 * `hrmock <args>` (with `-- CMD` in them) run to its end: its exit status and output. Killed when
 * the test ends if it is still running.
 */
export function runHrmock(args: string[], options: RunOptions = {}): Promise<CommandRun> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const written = collectOutput(child);
  let signalled = false;
  child.stdout.on('data', () => {
    if (!signalled && options.terminateWhen?.test(written.stdout)) {
      signalled = true;
      child.kill('SIGTERM');
    }
  });
  return new Promise((resolve) =>
    child.once('close', (code) =>
      resolve({ code, stdout: written.stdout, stderr: written.stderr }),
    ),
  );
}

/** A `node` command line running `script` as an ES module (top-level await allowed). */
export function nodeScript(script: string): string[] {
  return [process.execPath, '--input-type=module', '-e', script];
}

/** Whether a TCP connection to `url`'s port is refused (nothing listens there any more). */
export function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

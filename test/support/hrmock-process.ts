import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { stopChild } from '../../src/stop-child.ts';
import { collectOutput } from './child-output.ts';
import { CLI } from './cli-entry.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export type HrmockProcess = {
  /** The URL its first line announced. */
  url: string;
  pid: number;
  /** Everything it wrote so far, stdout and stderr apart. */
  output: () => { stdout: string; stderr: string };
  /** Its exit status, once it exits by itself. */
  exited: Promise<number | null>;
  /** SIGTERM, then its exit status and output (killed if still running after 60 s). */
  stop: () => Promise<{ code: number | null; stdout: string; stderr: string }>;
};

/**
 * `hrmock <args>` as a process on loopback, resolved once it announces `at URL`; stopped when
 * the test ends if the test did not stop it.
 */
export function startHrmockProcess(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<HrmockProcess> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  onTestFinished(() => stopChild(child));
  const written = collectOutput(child);
  const apart = () => ({ stdout: written.stdout, stderr: written.stderr });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `no URL in 60 s from hrmock ${args.join(' ')}:\n${written.stdout}${written.stderr}`,
          ),
        ),
      60_000,
    );
    const look = () => {
      const url = / at (http:\/\/127\.0\.0\.1:\d+(?:\/\w+)?)/.exec(written.stdout)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      child.stdout.off('data', look);
      resolve({
        url,
        pid: child.pid as number,
        exited,
        output: apart,
        stop: async () => {
          await stopChild(child, 60_000);
          return { code: await exited, ...apart() };
        },
      });
    };
    child.stdout.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new Error(
          `hrmock ${args.join(' ')} exited with ${code}:\n${written.stdout}${written.stderr}`,
        ),
      );
    });
  });
}

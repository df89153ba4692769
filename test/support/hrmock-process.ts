import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { stopChild } from '../../src/stop-child.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/hrmock.js', import.meta.url));

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
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  onTestFinished(() => stopChild(child));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL in 60 s from hrmock ${args.join(' ')}:\n${stdout}${stderr}`)),
      60_000,
    );
    const look = () => {
      const url = / at (http:\/\/127\.0\.0\.1:\d+(?:\/\w+)?)/.exec(stdout)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      child.stdout.off('data', look);
      resolve({
        url,
        pid: child.pid as number,
        exited,
        output: () => ({ stdout, stderr }),
        stop: async () => {
          await stopChild(child, 60_000);
          return { code: await exited, stdout, stderr };
        },
      });
    };
    child.stdout.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`hrmock ${args.join(' ')} exited with ${code}:\n${stdout}${stderr}`));
    });
  });
}

import { spawn } from 'node:child_process';
import { type ChildOutput, collectOutput } from './child-output.ts';

/**
 * `bash --noprofile --norc <args>` run to its end in `cwd` with `env` as its whole environment:
 * its exit status (128 when a signal ended it) and what it wrote.
 */
export function runBash(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<ChildOutput & { code: number }> {
  const child = spawn('bash', ['--noprofile', '--norc', ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const written = collectOutput(child);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 128, ...written }));
  });
}

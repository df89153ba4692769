import type { ChildProcess } from 'node:child_process';

/** What a child process wrote: stdout and stderr apart, and `output`, both as they came. */
export type ChildOutput = { stdout: string; stderr: string; output: string };

/** Gathers what `child` writes from now on; the object it returns grows as the child writes. */
export function collectOutput(child: ChildProcess): ChildOutput {
  const written: ChildOutput = { stdout: '', stderr: '', output: '' };
  child.stdout?.on('data', (chunk: Buffer) => {
    written.stdout += chunk.toString();
    written.output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    written.stderr += chunk.toString();
    written.output += chunk.toString();
  });
  return written;
}

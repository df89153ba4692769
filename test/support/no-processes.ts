// Setup file of the `unit` project: a unit test runs in process, so starting a child process is
// an error that names what to do, rather than a slow test hiding among the fast ones.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const refuse = (name: string) => () => {
  throw new Error(
    `child_process.${name} in a unit test: unit tests start no process. Move the file to the integration project's list in vitest.config.ts, or test the code in process.`,
  );
};

for (const name of [
  'spawn',
  'spawnSync',
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
  'fork',
] as const)
  Object.assign(childProcess, { [name]: refuse(name) });
syncBuiltinESMExports();

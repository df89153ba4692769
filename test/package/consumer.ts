import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// What the package tests share: a copy of this working tree to pack or install from, and an empty
// ESM project, with no TypeScript loader, that installs hrmock as a user would.
export const run = promisify(execFile);
export const root = fileURLToPath(new URL('../../', import.meta.url));
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** npm's output of a whole install is long: a failed one must still say why. */
export const BIG_OUTPUT = 64 * 1024 * 1024;

/**
 * Copies what git would see of the working tree, uncommitted changes included (tracked files and
 * untracked ones not ignored): no node_modules, no dist/, nothing built or generated.
 */
export async function copyWorkingTree(to: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '-co', '--exclude-standard'], {
    cwd: root,
    maxBuffer: BIG_OUTPUT,
  });
  for (const file of stdout.split('\0')) {
    // A tracked file deleted in the working tree is still listed.
    if (file === '' || !existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(root, file), join(to, file));
  }
}

/** A new empty ESM project under the system's temporary folder. */
export function consumerProject(name: string): string {
  const project = mkdtempSync(join(tmpdir(), `hrmock-${name}-`));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  return project;
}

/** Runs `source` as `file` in `project` with plain node: what it printed. */
export function runNode(project: string, file: string, source: string) {
  writeFileSync(join(project, file), source);
  return run(process.execPath, [file], { cwd: project, timeout: 120_000 });
}

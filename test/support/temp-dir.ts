import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A new folder under the system's temporary one, removed once the test that made it ends. */
export async function tempDir(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `hrmock-${name}-`));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

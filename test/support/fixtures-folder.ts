import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { lazyFixtures } from '../../mocks/lazy-fixtures.ts';
import type { Profile } from '../../src/store/types.ts';
import { CLI } from './cli-entry.ts';
import { tempDir } from './temp-dir.ts';

/** The generated data `serve` below runs with. */
export const generated = lazyFixtures({ profiles: 50, jobs: 10 });

/** A profile of one's own: a generated one renamed, with its own key and a word nobody else has. */
export function ownProfile(key: string, word: string): Profile {
  const base = buildFixtures({ seed: 5, profiles: 1, jobs: 0 }).profiles[0] as Profile;
  const source = generated.sources[0];
  return {
    ...base,
    key,
    reference: `own-${word}`,
    source_key: source?.key as string,
    source: source as Profile['source'],
    text: `${base.text} ${word}`,
  };
}

/** `count` own profiles with keys from `first` on, each with `word`, as one JSON array's text. */
export function ownProfilesJson(first: number, count: number, word: string): string {
  const text = JSON.stringify(ownProfile('0'.repeat(40), word));
  const parts: string[] = [];
  for (let i = first; i < first + count; i++)
    parts.push(text.replace('0'.repeat(40), i.toString(16).padStart(40, '0')));
  return `[${parts.join(',')}]`;
}

/** A temporary folder holding these files (objects written as JSON, strings as they are). */
export async function folder(files: Record<string, unknown>): Promise<string> {
  const dir = await tempDir('fixtures');
  for (const [name, content] of Object.entries(files)) {
    await writeFile(
      join(dir, name),
      typeof content === 'string' || content instanceof Uint8Array
        ? content
        : JSON.stringify(content),
    );
  }
  return dir;
}

/** `hrmock serve` on a free port with the generated data above; killed when the test ends. */
export function serve(args: string[]): Promise<{ url: string; stderr: () => string }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI, 'serve', '--port', '0', '--quiet', '--profiles', '50', '--jobs', '10', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (c) => (err += c));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (c) => {
      out += c;
      const url = /at (http:\/\/\S+)/.exec(out)?.[1];
      if (url && out.includes('Target')) resolve({ url, stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

/** The keys of the profiles whose text has `word`, as the server at `url` finds them. */
export async function search(url: string, word: string): Promise<string[]> {
  const keys = encodeURIComponent(JSON.stringify(generated.sources.map((s) => s.key)));
  const response = await fetch(
    `${url}/profiles/searching?source_keys=${keys}&text_keywords=${encodeURIComponent(JSON.stringify([word]))}&limit=100`,
  );
  return ((await response.json()).data.profiles as Profile[]).map((p) => p.key);
}

export { until } from './until.ts';

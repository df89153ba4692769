import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folder, ownProfilesJson, search, serve, until } from './support/fixtures-folder.ts';
import { tempDir } from './support/temp-dir.ts';

/** Profiles in the large file: ~6 KB each, so tens of MB that take a while to load. */
const LARGE = 12_000;

/** The lines that end a reload, one per settled change: reloaded, not reloading, superseded. */
function outcomes(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /reloaded|not reloading|superseded/.test(line));
}

/** Writes `text` beside the folder, then moves it in as `name`: one change, as `mv` makes. */
async function moveIn(dir: string, name: string, text: string): Promise<void> {
  const staging = await tempDir('staging');
  await writeFile(join(staging, name), text);
  await rename(join(staging, name), join(dir, name));
}

describe('reloading a fixtures folder', () => {
  it('serves the last file moved in when a newer one arrives while a large one loads', async () => {
    const dir = await folder({ 'profiles.json': ownProfilesJson(1, 1, 'first') });
    const { url, stderr } = await serve(['--fixtures', dir]);
    const large = ownProfilesJson(100, LARGE, 'bulky');
    const small = ownProfilesJson(100_000, 21, 'final');
    await moveIn(dir, 'profiles.json', large);
    // Past the settling time, so the large file's load has begun when the small one arrives.
    await new Promise((r) => setTimeout(r, 350));
    await moveIn(dir, 'profiles.json', small);
    const last = () => outcomes(stderr()).at(-1) ?? '';
    // The large file's load ends too: superseded, or (had it ended first) served before.
    await until(() => {
      const lines = outcomes(stderr());
      return (
        lines.some((line) => /: 71 profiles/.test(line)) &&
        lines.some((line) => /superseded|: 12050 profiles/.test(line))
      );
    }, 30_000);
    expect(last()).toMatch(/reloaded .*: 71 profiles/);
    expect(await search(url, 'final')).toHaveLength(21);
    expect(await search(url, 'bulky')).toEqual([]);
  }, 60_000);

  it('answers from the old data while a large file loads', async () => {
    const dir = await folder({ 'profiles.json': ownProfilesJson(1, 1, 'before') });
    const { url, stderr } = await serve(['--fixtures', dir]);
    const large = ownProfilesJson(100, LARGE / 2, 'after');
    await moveIn(dir, 'profiles.json', large);
    // Searches one after another until one finds the new data: those before it must have been
    // answered from the old data, many of them (a load that held the event loop would let one or
    // two through, then answer the next only once it ended).
    let fromOld = 0;
    for (;;) {
      if ((await search(url, 'after')).length > 0) break;
      // Empty only if the reload landed between the two searches: the next turn sees it.
      if ((await search(url, 'before')).length === 1) fromOld++;
      if (fromOld > 100_000) throw new Error(`no reload: ${stderr()}`);
    }
    expect(fromOld).toBeGreaterThan(10);
  }, 60_000);

  it('says the folder is gone, and watches it again once it is back', async () => {
    const dir = await folder({ 'profiles.json': ownProfilesJson(1, 1, 'first') });
    const { url, stderr } = await serve(['--fixtures', dir]);
    await rm(dir, { recursive: true });
    await until(() => stderr().includes('is gone'));
    await mkdir(dir);
    await writeFile(join(dir, 'profiles.json'), ownProfilesJson(2, 1, 'phoenix'));
    await until(async () => (await search(url, 'phoenix')).length === 1);
    expect(stderr()).toMatch(/is back: watching it again/);
    await writeFile(join(dir, 'profiles.json'), ownProfilesJson(3, 2, 'later'));
    await until(async () => (await search(url, 'later')).length === 2);
  });
});

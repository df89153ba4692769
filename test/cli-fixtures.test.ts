import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadFixturesDir } from '../src/cli/fixtures-dir.ts';
import type { Profile } from '../src/store/types.ts';
import { CLI } from './support/cli-entry.ts';
import { folder, generated, ownProfile, search, serve } from './support/fixtures-folder.ts';

describe('loading a fixtures folder', () => {
  it('merges its objects with the generated ones', async () => {
    const dir = await folder({ 'profiles.json': [ownProfile('a'.repeat(40), 'zebracorn')] });
    const loaded = await loadFixturesDir(dir, 'merge', generated);
    expect(loaded.ok && loaded.counts).toMatchObject({ profiles: 51, jobs: 10, sources: 3 });
  });

  it('replaces a generated object that has the same key', async () => {
    const first = generated.profiles.at(0) as Profile;
    const dir = await folder({
      'profiles.json': [{ ...ownProfile(first.key, 'quokka'), source_key: first.source_key }],
    });
    const loaded = await loadFixturesDir(dir, 'merge', generated);
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    expect(loaded.counts.profiles).toBe(50);
    expect((loaded.data.profiles.at(0) as Profile).text).toMatch(/quokka/);
  });

  it('still serves every generated profile from a profiles.json holding [] with merge', async () => {
    const dir = await folder({ 'sources.json': generated.sources, 'profiles.json': [] });
    const merged = await loadFixturesDir(dir, 'merge', generated);
    expect(merged.ok && merged.counts).toMatchObject({ profiles: 50, jobs: 10 });
    const replaced = await loadFixturesDir(dir, 'replace', generated);
    expect(replaced.ok && replaced.counts).toMatchObject({ profiles: 0, jobs: 0 });
  });

  it('serves only its objects with replace', async () => {
    const dir = await folder({
      'sources.json': generated.sources,
      'profiles.json': [ownProfile('b'.repeat(40), 'x')],
    });
    const loaded = await loadFixturesDir(dir, 'replace', generated);
    expect(loaded.ok && loaded.counts).toMatchObject({
      profiles: 1,
      jobs: 0,
      sources: 3,
      boards: 0,
    });
  });

  it('names the file and the path of each object that breaks the contract', async () => {
    const broken = {
      ...ownProfile('c'.repeat(40), 'x'),
      info: { ...ownProfile('c'.repeat(40), 'x').info, email: 42 },
    };
    const dir = await folder({
      'profiles.json': `[\n  ${JSON.stringify(ownProfile('d'.repeat(40), 'x'))},\n  ${JSON.stringify(broken)}\n]`,
      'jobs.json': [{ name: 'no key' }],
    });
    const loaded = await loadFixturesDir(dir, 'merge', generated);
    expect(loaded.ok).toBe(false);
    const problems = loaded.ok ? '' : loaded.problems.join('\n');
    expect(problems).toContain(
      `${join(dir, 'profiles.json')}:3:3: [1]/info/email must be string,null`,
    );
    expect(problems).toContain(
      `${join(dir, 'jobs.json')}:1:2: [0] must have required property 'key'`,
    );
  });

  it('names the line of a key that appears twice', async () => {
    const own = JSON.stringify(ownProfile('d'.repeat(40), 'x'));
    const dir = await folder({ 'profiles.json': `[\n${own},\n\n${own}]` });
    const loaded = await loadFixturesDir(dir, 'merge', generated);
    expect(loaded.ok ? '' : loaded.problems.join('\n')).toBe(
      `${join(dir, 'profiles.json')}:4:1: [1].key ${'d'.repeat(40)} appears twice`,
    );
  });

  it('names a profile whose source does not exist', async () => {
    const dir = await folder({
      'profiles.json': [{ ...ownProfile('e'.repeat(40), 'x'), source_key: 'f'.repeat(40) }],
    });
    const loaded = await loadFixturesDir(dir, 'merge', generated);
    expect(loaded.ok ? '' : loaded.problems.join('\n')).toMatch(
      /profiles\.json:1:2: \[0\]\.source_key f{40} names no source/,
    );
  });

  it('says so for a file that is not JSON, or a folder with no fixtures', async () => {
    const notJson = await loadFixturesDir(await folder({ 'jobs.json': '[{' }), 'merge', generated);
    expect(notJson.ok ? '' : notJson.problems[0]).toMatch(/jobs\.json:1:3: not JSON/);
    const empty = await loadFixturesDir(await folder({}), 'merge', generated);
    expect(empty.ok ? '' : empty.problems[0]).toMatch(/holds none of/);
  });
});

describe('hrmock serve --fixtures DIR', () => {
  it('serves the folder merged with the generated data, and reloads it when it changes', async () => {
    const dir = await folder({ 'profiles.json': [ownProfile('1'.repeat(40), 'zebracorn')] });
    const { url, stderr } = await serve(['--fixtures', dir]);
    expect(await search(url, 'zebracorn')).toEqual(['1'.repeat(40)]);
    await writeFile(
      join(dir, 'profiles.json'),
      JSON.stringify([ownProfile('2'.repeat(40), 'okapi')]),
    );
    for (let i = 0; i < 50 && (await search(url, 'okapi')).length === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await search(url, 'okapi')).toEqual(['2'.repeat(40)]);
    expect(await search(url, 'zebracorn')).toEqual([]);
    expect(stderr()).toMatch(/reloaded .*51 profiles/);
  });

  it('keeps serving the previous data when a change breaks the contract', async () => {
    const dir = await folder({ 'profiles.json': [ownProfile('3'.repeat(40), 'narwhal')] });
    const { url, stderr } = await serve(['--fixtures', dir]);
    await writeFile(join(dir, 'profiles.json'), '[{"key": "nope"}]');
    for (let i = 0; i < 50 && !stderr().includes('not reloading'); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(stderr()).toMatch(/not reloading .*\n.*profiles\.json:1:2: \[0\]/);
    expect(await search(url, 'narwhal')).toEqual(['3'.repeat(40)]);
  });

  it('refuses to start on fixtures that break the contract, listing the problems, exit 2', async () => {
    const dir = await folder({ 'jobs.json': [{ key: 'x' }] });
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--fixtures', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onTestFinished(() => {
      child.kill('SIGKILL');
    });
    let err = '';
    child.stderr?.on('data', (c) => (err += c));
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(2);
    expect(err).toMatch(/do not fit the contract:\n {2}\S*jobs\.json:1:2: \[0\]/);
  });
});

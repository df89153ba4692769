import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFixturesDir } from '../src/cli/fixtures-dir.ts';
import { folder, generated, ownProfile } from './support/fixtures-folder.ts';
import { tempDir } from './support/temp-dir.ts';

// Read on a worker (reloads) and on the main thread (start-up): the same verdicts.
describe.each([
  ['on a worker', false],
  ['inline', true],
])('fixture files refused at load, read %s', (_, inline) => {
  /** The problems a folder's fixtures have, one a line, the folder left out; empty when they load. */
  async function problems(files: Record<string, unknown>, maxDepth?: number): Promise<string> {
    const dir = await folder(files);
    const loaded = await loadFixturesDir(dir, 'merge', generated, { maxDepth, inline });
    return loaded.ok ? '' : loaded.problems.join('\n').replaceAll(join(dir, '/'), '');
  }

  /** One own profile as JSON text with `extra: {"a": {"a": … 1 …}}`, `levels` objects deep. */
  function nestedProfile(key: string, levels: number): string {
    const extra = `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    return JSON.stringify(ownProfile(key, 'deep')).replace(/}$/, `,"extra":${extra}}`);
  }

  it('refuses an object nesting deeper than the JSON depth limit, naming file, line, index and path', async () => {
    const flat = JSON.stringify(ownProfile('b'.repeat(40), 'flat'));
    const found = await problems({
      'profiles.json': `[\n${flat},\n  ${nestedProfile('a'.repeat(40), 5_000)}]`,
    });
    expect(found).toMatch(
      /^profiles\.json:3:3: \[1\]\/extra\/a\/a\/.* nests deeper than 64 levels/,
    );
  });

  it('takes the depth limit given, counting the object itself as level 1', async () => {
    const profile = `[${nestedProfile('a'.repeat(40), 8)}]`;
    expect(await problems({ 'profiles.json': profile }, 9)).toBe('');
    expect(await problems({ 'profiles.json': profile }, 8)).toMatch(
      /profiles\.json:1:2: \[0\]\/extra(\/a){7} nests deeper than 8 levels/,
    );
  });

  it('refuses a file that is not UTF-8, naming the line, the column and the byte offset', async () => {
    const text = Buffer.from(`[\n${JSON.stringify(ownProfile('c'.repeat(40), 'caf\u00e9'))}]`);
    const at = text.indexOf(Buffer.from('\u00e9'));
    const column = [...text.subarray(2, at).toString('utf8')].length + 1;
    text[at] = 0xff;
    expect(await problems({ 'profiles.json': text })).toBe(
      `profiles.json:2:${column}: not UTF-8 (byte ${at})`,
    );
  });

  it('refuses a truncated UTF-8 sequence at the end of a string', async () => {
    const text = Buffer.concat([Buffer.from('["ab'), Buffer.from([0xe2, 0x82]), Buffer.from('"]')]);
    expect(await problems({ 'jobs.json': text })).toBe('jobs.json:1:5: not UTF-8 (byte 4)');
  });

  it('names the file, line and column where it stops being JSON, and never quotes the file', async () => {
    const secrets = await tempDir('secrets');
    await writeFile(join(secrets, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    const dir = await folder({});
    await symlink(join(secrets, 'passwd'), join(dir, 'profiles.json'));
    const loaded = await loadFixturesDir(dir, 'merge', generated, { inline });
    const found = loaded.ok ? '' : loaded.problems.join('\n');
    expect(found).toBe(`${join(dir, 'profiles.json')}:1:1: not JSON: expected a value`);
    expect(found).not.toMatch(/root|bash/);
  });

  it('names the line and column of a syntax error in the middle of a file', async () => {
    expect(await problems({ 'jobs.json': '[{"key": tru}]' })).toBe(
      'jobs.json:1:10: not JSON: expected a value',
    );
    expect(await problems({ 'jobs.json': '[{' })).toBe('jobs.json:1:3: not JSON: unexpected end');
  });

  it('counts the lines of a pretty-printed file and the characters of the line', async () => {
    const text = JSON.stringify([{ key: 'a', name: 'x' }, { key: 'b' }], null, 2).replace(
      '"key": "b"',
      '"key": "b"\n    "name": "\u00e9t\u00e9", "more" 1',
    );
    expect(await problems({ 'jobs.json': text })).toBe(
      `jobs.json:8:5: not JSON: expected ',' or '}'`,
    );
    const later = text.replace('"key": "b"\n', '"key": "b",\n');
    expect(await problems({ 'jobs.json': later })).toBe(`jobs.json:8:27: not JSON: expected ':'`);
  });
});

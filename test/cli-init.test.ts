import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_DIST, buildBrowser } from '../scripts/browser-bundle.ts';
import { runHrmock } from './support/command-run.ts';
import { tempDir } from './support/temp-dir.ts';

// `hrmock init DIR`: the one shipped bundle copied into an app's public folder, beside a worker.
beforeAll(() => buildBrowser({ serviceWorker: false }), 60_000);

describe('hrmock init', () => {
  it('writes hrmock-sw.js and the shipped bundle into the folder and says so', async () => {
    const dir = await tempDir('init');
    const run = await runHrmock(['init', dir]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(['hrmock-browser.js', 'hrmock-sw.js']);
    expect(await readFile(join(dir, 'hrmock-browser.js'))).toEqual(
      await readFile(join(BROWSER_DIST, 'hrmock-browser.js')),
    );
    expect(run.stdout).toContain(`wrote ${join(dir, 'hrmock-sw.js')} (the Service Worker`);
    expect(run.stdout).toContain(`wrote ${join(dir, 'hrmock-browser.js')} (the mock it imports`);
    expect(run.stdout).toContain(`register('/hrmock-sw.js', { type: 'module', scope: '/' })`);
  });

  it('writes a module worker with the options given, taking over pages at once', async () => {
    const dir = await tempDir('init');
    const args = ['--seed', '7', '--profiles', '20', '--jobs', '5', '--base-url', '/v1/'];
    expect((await runHrmock(['init', dir, ...args])).code).toBe(0);
    const worker = await readFile(join(dir, 'hrmock-sw.js'), 'utf8');
    expect(worker).toContain(`import { installServiceWorkerMock } from './hrmock-browser.js';`);
    expect(worker).toContain(
      'installServiceWorkerMock(self, {"seed":7,"profiles":20,"jobs":5,"baseUrl":"/v1"});',
    );
    expect(worker).toContain('self.clients.claim()');
  });

  it('replaces the files a previous init wrote', async () => {
    const dir = await tempDir('init');
    await writeFile(join(dir, 'hrmock-sw.js'), 'old');
    expect((await runHrmock(['init', dir, '--seed', '3'])).code).toBe(0);
    expect(await readFile(join(dir, 'hrmock-sw.js'), 'utf8')).toContain('"seed":3');
  });
});

describe('hrmock init refuses, with exit status 2 and one line', () => {
  async function refused(args: string[], said: RegExp, dir?: string) {
    const run = await runHrmock(['init', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(said);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    if (dir !== undefined) expect(await readdir(dir)).not.toContain('hrmock-sw.js');
  }

  it('a folder that does not exist', async () => {
    const dir = join(await tempDir('init'), 'public');
    await refused([dir], /^hrmock: .*\/public does not exist: name your app's public folder/);
  });

  it('a file instead of a folder', async () => {
    const dir = await tempDir('init');
    await writeFile(join(dir, 'index.html'), '');
    await refused([join(dir, 'index.html')], /index\.html is not a folder/, dir);
  });

  it('a folder where its files cannot be written', async () => {
    const dir = await tempDir('init');
    await mkdir(join(dir, 'hrmock-browser.js'));
    await refused(
      [dir],
      /^hrmock: cannot write into .* \(EISDIR\): give a folder you may write to/,
    );
  });

  it.each([
    ['no folder', [], /init takes one folder, .* got none/],
    ['two folders', ['a', 'b'], /init takes one folder, .* got "a" "b"/],
    [
      'a base URL that is not one',
      ['.', '--base-url', 'ftp://x'],
      /--base-url takes the API's base URL/,
    ],
    ['a bad seed', ['.', '--seed', 'x'], /--seed must be a whole number/],
    [
      'a misspelt option',
      ['.', '--sed', '4'],
      /unknown option --sed for init; did you mean --seed\?/,
    ],
  ])('%s', async (_, args, said) => {
    await refused(args, said);
  });
});

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_OUTPUT, consumerProject, copyWorkingTree, npm, run, runNode } from './consumer.ts';

// `npm install git+<url>`: npm clones the repository, installs its devDependencies, runs
// `prepare` (which builds dist/) and installs what `npm pack` would pack. The repository here is
// this working tree, uncommitted changes included, committed into a new one. Slow: one install.
const repository = mkdtempSync(join(tmpdir(), 'hrmock-git-'));
const project = consumerProject('git-consumer');

beforeAll(async () => {
  await copyWorkingTree(repository);
  const git = (...args: string[]) => run('git', args, { cwd: repository, maxBuffer: BIG_OUTPUT });
  await git('init', '--quiet');
  await git('add', '--all');
  await git('-c', 'user.name=hrmock', '-c', 'user.email=hrmock@example.com', 'commit', '-qm', 'x');
  const url = `git+${pathToFileURL(repository).href}`;
  await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', url], {
    cwd: project,
    maxBuffer: BIG_OUTPUT,
  });
}, 900_000);

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(repository, { recursive: true, force: true });
});

describe('hrmock installed from its git repository', () => {
  it('installs the build, not the sources', () => {
    expect(existsSync(join(project, 'node_modules/hrmock/dist/src/cli.js'))).toBe(true);
    expect(existsSync(join(project, 'node_modules/hrmock/src'))).toBe(false);
  });

  it('runs npx --no-install hrmock --help', async () => {
    const { stdout } = await run('npx', ['--no-install', 'hrmock', '--help'], { cwd: project });
    expect(stdout).toMatch(/^ {2}hrmock serve /m);
  }, 60_000);

  it('serves the target from startMock imported from hrmock', async () => {
    const { stdout } = await runNode(
      project,
      'target.mjs',
      `import { startMock } from 'hrmock';
const mock = await startMock({ profiles: 50, jobs: 10 });
const response = await fetch(new URL('/_mock/target', mock.url));
const body = await response.json();
await mock.close();
console.log(JSON.stringify({ status: response.status, sources: body.data.profiles.source_keys.length }));
`,
    );
    expect(JSON.parse(stdout)).toEqual({ status: 200, sources: 3 });
  }, 60_000);
});

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeScript, refused, runHrmock } from './support/command-run.ts';
import { tempDir } from './support/temp-dir.ts';

/** A small, quiet mock on a free port: quick to start. */
const SMALL = ['serve', '--port', '0', '--profiles', '40', '--jobs', '10', '--quiet'];

/** CMD: asks the mock for its target and a search of its first source, prints both, then `exit`. */
const searchThen = (exit: number) =>
  nodeScript(`
    const base = process.env.HRMOCK_URL;
    const target = (await (await fetch(base + '/_mock/target')).json()).data;
    const keys = encodeURIComponent(JSON.stringify(target.profiles.source_keys));
    const answer = await fetch(base + '/profiles/searching?limit=1&source_keys=' + keys);
    console.log('CMD at ' + base + ' port ' + process.env.HRMOCK_PORT + ' searched ' + answer.status);
    process.exit(${exit});
  `);

const mockAt = (stdout: string) => / at (http:\/\/\S+)/.exec(stdout)?.[1] ?? '';

describe('hrmock serve -- CMD', () => {
  it('runs CMD against the mock under its base path, then stops the mock and exits 0', async () => {
    const run = await runHrmock([...SMALL, '--base-path', '/v1', '--', ...searchThen(0)]);
    const url = mockAt(run.stdout);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(run.stdout).toContain(`CMD at ${url} port ${new URL(url).port} searched 200`);
    expect(run.code).toBe(0);
    expect(await refused(url)).toBe(true);
  }, 120_000);

  it("exits with CMD's status when CMD fails", async () => {
    const run = await runHrmock([...SMALL, '--', ...searchThen(5)]);
    expect(run.stdout).toMatch(/CMD at http:\/\/127\.0\.0\.1:\d+ port \d+ searched 200/);
    expect(run.code).toBe(5);
  }, 120_000);

  it('exits 2 naming a CMD that cannot be started, the mock stopped', async () => {
    const run = await runHrmock([...SMALL, '--', 'hrmock-no-such-command', '--flag']);
    expect(run.stderr).toContain('cannot run the command after "--", "hrmock-no-such-command"');
    expect(run.code).toBe(2);
    expect(await refused(mockAt(run.stdout))).toBe(true);
  }, 120_000);

  it('passes the SIGTERM it receives on to CMD and exits with the status CMD then gives', async () => {
    const marker = join(await tempDir('serve-command'), 'terminated');
    const cmd = nodeScript(`
      import { writeFileSync } from 'node:fs';
      process.on('SIGTERM', () => {
        writeFileSync(${JSON.stringify(marker)}, 'SIGTERM');
        process.exit(9);
      });
      console.log('CMD ' + 'waiting');
      setInterval(() => {}, 1000);
    `);
    const run = await runHrmock([...SMALL, '--', ...cmd], { terminateWhen: /CMD waiting/ });
    expect(existsSync(marker)).toBe(true);
    expect(run.code).toBe(9);
  }, 120_000);

  it('leaves a --help after "--" to CMD', async () => {
    const cmd = nodeScript('console.log("CMD args " + process.argv.slice(1).join(" "));');
    const run = await runHrmock([...SMALL, '--', ...cmd, 'x', '--help']);
    expect(run.stdout).toContain('CMD args x --help');
    expect(run.code).toBe(0);
  }, 120_000);

  it('refuses a "--" with no command after it', async () => {
    const run = await runHrmock([...SMALL, '--']);
    expect(run.stderr).toMatch(/"--" must be followed by a command to run/);
    expect(run.code).toBe(2);
  }, 120_000);
});

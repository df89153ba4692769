import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parse } from 'yaml';
import { type Fetch, MUTANTS } from '../mutants/mutants.ts';
import { serveMock } from '../support/check-cli.ts';
import { CLI } from '../support/cli-entry.ts';
import { runBash } from '../support/run-bash.ts';
import { tempDir } from '../support/temp-dir.ts';
import { root } from './github-runner.ts';

type GitlabJob = {
  image: string;
  script: string[];
  artifacts: {
    when: string;
    paths: string[];
    reports: { junit: string };
  };
};

const SECRET = 'gitlab-secret-41b7';
const templateText = readFileSync(join(root, 'ci/gitlab/hrmock.gitlab-ci.yml'), 'utf8');
const template = parse(templateText) as Record<string, unknown> & {
  variables: Record<string, string>;
};
const job = template['hrmock-check'] as GitlabJob;
const installAt = job.script.findIndex((line) => line.startsWith('npm install'));
const renamedField = MUTANTS.find((m) => m.name === 'a minimal field is renamed')?.wrap as (
  f: Fetch,
) => Fetch;

/**
 * The job's script after the install, as the runner runs it (one bash, -e and pipefail), with
 * hrmock from this checkout in place of the one installed from git.
 */
async function runScript(
  variables: Record<string, string>,
): Promise<{ code: number; output: string; dir: string }> {
  const dir = await tempDir('gitlab-job');
  const bin = JSON.stringify(CLI);
  const script = job.script
    .slice(installAt + 1)
    .map((line) => line.replaceAll('npx --no-install hrmock', `node ${bin}`))
    .join('\n');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, CI: 'true', ...variables };
  const { code, output } = await runBash(['-eo', 'pipefail', '-c', script], dir, env);
  return { code, output, dir };
}

describe('the GitLab CI template', () => {
  it('installs hrmock from the git URL variable, without saving it', () => {
    expect(installAt).toBeGreaterThanOrEqual(0);
    expect(job.script[installAt]).toMatch(/^npm install --no-save\b.*"git\+\$\{HRMOCK_GIT_URL\}"/);
    expect(template.variables.HRMOCK_GIT_URL).toMatch(/^https:\/\/.*\.git\b/);
  });

  it('runs hrmock only through npx --no-install, never a bare npx', () => {
    const lines = job.script.filter((line) => /\bnpx\b/.test(line));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toMatch(/\bnpx\s+(?!--no-install\s)/);
  });

  it('keeps the JUnit report as a test report and the HTML report as an artifact, pass or fail', () => {
    expect(job.image).toMatch(/^node:(20|2[2-9])/);
    expect(job.artifacts.when).toBe('always');
    expect(job.artifacts.reports.junit).toBe('hrmock.xml');
    expect(job.artifacts.paths).toContain('hrmock.html');
  });

  it('is shown in docs/ci.md as it is, its comments at the top aside', () => {
    const body = templateText.slice(templateText.indexOf('\nvariables:') + 1);
    expect(readFileSync(join(root, 'docs/ci.md'), 'utf8')).toContain(body);
  });

  it('runs a check hrmock accepts, sending the API key, and writes the artifacts it names', async () => {
    const mock = await serveMock(undefined, { apiKey: SECRET });
    onTestFinished(() => mock.close());
    const { code, output, dir } = await runScript({
      HRMOCK_BASE_URL: mock.url,
      // Extra options as a user sets them: the job, not the rules, is the subject, so two rules
      // (a grading one, which the key guards, and FUZZ) rather than every one.
      HRMOCK_CHECK_ARGS: '--rule GRD-DEFAULT --rule FUZZ --fuzz 20 --seed 3',
      HRFLOW_API_KEY: SECRET,
    });
    expect(code, output).toBe(0);
    // Every word of the variable reached the check, and the rules passed behind the key.
    expect(output).toMatch(/^2 rules: 2 passed, 0 failed, 0 skipped in .*; fuzz seed 3$/m);
    expect(output).not.toContain(SECRET);
    for (const path of [...job.artifacts.paths, job.artifacts.reports.junit])
      expect(existsSync(join(dir, path)), path).toBe(true);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(
      await readFile(join(dir, job.artifacts.reports.junit), 'utf8'),
    );
    expect(junit.testsuites ?? junit.testsuite).toBeDefined();
  });

  it('fails the job on a violation, with the reports written for the artifacts', async () => {
    const broken = await serveMock(renamedField);
    onTestFinished(() => broken.close());
    const { code, output, dir } = await runScript({
      HRMOCK_BASE_URL: broken.url,
      // The rule that catches the renamed field, alone.
      HRMOCK_CHECK_ARGS: '--rule OLD-CLIENT',
    });
    expect(code, output).toBe(1);
    expect(output).toMatch(/^ {2}FAIL {2}OLD-CLIENT /m);
    expect(await readFile(join(dir, 'hrmock.xml'), 'utf8')).toMatch(
      /<testcase [^>]*name="OLD-CLIENT:[^>]*[^/]>\s*<failure/,
    );
    expect(existsSync(join(dir, 'hrmock.html'))).toBe(true);
  });
});

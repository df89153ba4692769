import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { type Fetch, MUTANTS } from '../mutants/mutants.ts';
import { serveMock } from '../support/check-cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { type ActionRun, readAction, runAction } from './github-runner.ts';

const SECRET = 'action-secret-7c2f9e';
const renamedField = MUTANTS.find((m) => m.name === 'a minimal field is renamed')?.wrap as (
  f: Fetch,
) => Fetch;

/**
 * Runs the action in a fresh workspace; the run and that workspace. Its folders go once the test
 * ends, or, made by `folder`, when that says.
 */
async function runInWorkspace(
  inputs: Record<string, string>,
  folder: (name: string) => Promise<string> = tempDir,
): Promise<{ run: ActionRun; workspace: string }> {
  const workspace = await folder('action-workspace');
  const run = await runAction(inputs, workspace, await folder('action-runner'));
  return { run, workspace };
}

/** Folders of a run several tests share, removed once the file's tests are done. */
const sharedFolders: string[] = [];
afterAll(() => Promise.all(sharedFolders.map((dir) => rm(dir, { recursive: true, force: true }))));
async function sharedFolder(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `hrmock-${name}-`));
  sharedFolders.push(dir);
  return dir;
}

/** Everything a reader of the job could see: logs, summary, outputs, every report file. */
async function everythingShown(run: ActionRun, reportDir: string): Promise<string> {
  const entries = await readdir(reportDir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  const reports = await Promise.all(files.map((file) => readFile(file, 'utf8')));
  const logs = run.steps.flatMap((s) => [s.stdout, s.stderr]);
  return [...logs, run.summary, JSON.stringify(run.outputs), ...reports].join('\n');
}

/** The steps' output, to say why a run failed. */
const logOf = (run: ActionRun) => run.steps.map((s) => s.stdout + s.stderr).join('\n');

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('action.yml', () => {
  const action = readAction();

  it('is a composite action whose steps all run in bash', () => {
    expect(action.runs.using).toBe('composite');
    for (const step of action.runs.steps) expect(step.shell).toBe('bash');
  });

  it('takes base-url (required) and the optional check settings, report-dir defaulting to hrmock-report', () => {
    expect(Object.keys(action.inputs).sort()).toEqual(
      [
        'api-key',
        'base-url',
        'fuzz',
        'max-latency',
        'min-coverage',
        'report-dir',
        'seed',
        'target',
      ].sort(),
    );
    expect(action.inputs['base-url']?.required).toBe(true);
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(input.description, name).toBeTruthy();
      if (name !== 'base-url') expect(input.required ?? false, name).toBe(false);
    }
    expect(action.inputs['report-dir']?.default).toBe('hrmock-report');
  });

  it('declares passed, failed and coverage as outputs of its check step', () => {
    expect(Object.keys(action.outputs).sort()).toEqual(['coverage', 'failed', 'passed']);
    for (const [name, output] of Object.entries(action.outputs))
      expect(output.value).toBe(`\${{ steps.check.outputs.${name} }}`);
    expect(action.runs.steps.some((s) => s.id === 'check')).toBe(true);
  });

  it('puts no expression in a script: inputs reach the shell through env only', () => {
    for (const step of action.runs.steps) expect(step.run ?? '').not.toContain('${{');
  });
});

let keyed: Promise<{ run: ActionRun; workspace: string }> | undefined;

/**
 * One run of the action against the mock behind an API key, every check setting given and the
 * reports in a folder of the caller's choosing: the tests that read it share it. The action has
 * no input for more check options (such as --rule), so the check it runs is whole.
 */
function keyedRun(): Promise<{ run: ActionRun; workspace: string }> {
  keyed ??= (async () => {
    const mock = await serveMock(undefined, { apiKey: SECRET });
    try {
      return await runInWorkspace(
        {
          'base-url': mock.url,
          'api-key': SECRET,
          fuzz: '20',
          seed: '7',
          'min-coverage': '50',
          'max-latency': '60000',
          'report-dir': 'reports/hrmock',
        },
        sharedFolder,
      );
    } finally {
      await mock.close();
    }
  })();
  return keyed;
}

describe('running the action', () => {
  it('passes against the mock behind an API key, with reports in report-dir, summary and outputs', async () => {
    const { run, workspace } = await keyedRun();
    expect(run.ok, logOf(run)).toBe(true);
    expect(run.outputs.failed).toBe('0');
    expect(Number(run.outputs.passed)).toBeGreaterThan(0);
    expect(run.outputs.coverage).toMatch(/^\d+(\.\d+)?$/);
    expect(run.summary).toMatch(/^\|.*\|\s*$/m);
    expect(run.summary).toMatch(/^\|\s*:?-{3,}/m);

    const dir = join(workspace, 'reports/hrmock');
    for (const file of ['hrmock.xml', 'hrmock.html', 'hrmock.json'])
      expect(existsSync(join(dir, file)), file).toBe(true);
    const report = JSON.parse(await readFile(join(dir, 'hrmock.json'), 'utf8'));
    expect(report.fuzz.seed).toBe(7);
    expect(report.coverage.min).toBe(50);
    expect(String(report.coverage.percent)).toBe(run.outputs.coverage);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(
      await readFile(join(dir, 'hrmock.xml'), 'utf8'),
    );
    expect(junit.testsuites ?? junit.testsuite).toBeDefined();
  });

  it('never shows the API key except in the mask command it gives the runner', async () => {
    const { run, workspace } = await keyedRun();
    expect(run.ok, logOf(run)).toBe(true);
    const shown = await everythingShown(run, join(workspace, 'reports/hrmock'));
    expect(shown.replace(`::add-mask::${SECRET}`, '')).not.toContain(SECRET);
  });

  it('fails the step on a violation, after writing the summary and the outputs', async () => {
    const broken = await serveMock(renamedField);
    onTestFinished(() => broken.close());
    // report-dir left to its default, hrmock-report.
    const { run, workspace } = await runInWorkspace({ 'base-url': broken.url });
    const check = run.steps.at(-1);
    expect(run.ok).toBe(false);
    expect(check?.code).toBe(1);
    expect(Number(run.outputs.failed)).toBeGreaterThan(0);
    expect(Number(run.outputs.passed)).toBeGreaterThan(0);
    expect(run.outputs.coverage).toMatch(/^\d+(\.\d+)?$/);
    expect(run.summary).toContain('OLD-CLIENT');
    expect(run.summary).toMatch(/^\|.*\|\s*$/m);
    for (const file of ['hrmock.xml', 'hrmock.html', 'hrmock.json'])
      expect(existsSync(join(workspace, 'hrmock-report', file)), file).toBe(true);
  });

  it('fails the step with empty counts when the check cannot run, and runs nothing an input says', async () => {
    const port = await closedPort();
    const { run, workspace } = await runInWorkspace({
      'base-url': `http://127.0.0.1:${port}/v1/$(touch injected)';touch injected;'`,
      target: '`touch injected`',
    });
    expect(run.ok).toBe(false);
    expect(run.steps.at(-1)?.code).toBe(2);
    expect(run.outputs).toEqual({ passed: '', failed: '', coverage: '' });
    expect(run.summary).toMatch(/could not run/i);
    expect(existsSync(join(workspace, 'injected'))).toBe(false);
  });
});

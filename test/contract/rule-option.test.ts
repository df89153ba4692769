import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUZZ_ID } from '../../contract/suite/fuzz/fuzz-rule.ts';
import { OPTIONAL_RULES, type Report } from '../../contract/suite/run-suite.ts';
import { runCheck } from '../../src/api/run-check.ts';
import type { RunningServer } from '../../src/node/server.ts';
import { MUTANTS } from '../mutants/mutants.ts';
import { checkCli, serveMock } from '../support/check-cli.ts';
import { tempDir } from '../support/temp-dir.ts';

let mock: RunningServer;
let broken: RunningServer;

beforeAll(async () => {
  mock = await serveMock();
  const mutant = MUTANTS.find((m) => m.rule === 'DEFAULTS' && m.wrap !== undefined);
  broken = await serveMock(mutant?.wrap);
});

afterAll(async () => {
  await mock.close();
  await broken.close();
});

/** `hrmock check … --reporter json --output FILE`: its exit status, stdout and report. */
async function narrowed(args: string[]) {
  const file = join(await tempDir('rule-option'), 'report.json');
  const { code, out } = await checkCli([...args, '--reporter', 'json', '--output', file]);
  const report = JSON.parse(await readFile(file, 'utf8')) as Report;
  return { code, out, report, ids: report.results.map((r) => r.id) };
}

describe('hrmock check --rule', () => {
  it('runs only the rule named, in any case, and says so in the line that runs it again', async () => {
    const { code, ids, report } = await narrowed(['--base-url', mock.url, '--rule', 'defaults']);
    expect(ids).toEqual(['DEFAULTS']);
    expect(report.results[0]?.outcome).toMatchObject({ status: 'pass' });
    expect(report.rerun).toMatch(/ --rule DEFAULTS$/);
    expect(code).toBe(0);
  });

  it('runs several, repeated, in the order of a whole run, ENV judging their answers', async () => {
    const { ids, report } = await narrowed([
      '--base-url',
      mock.url,
      '--rule',
      'PAGE',
      '--rule',
      'ENV',
    ]);
    expect(ids).toEqual(['ENV', 'PAGE']);
    const env = report.results[0]?.outcome;
    expect(env?.status === 'pass' ? env.checks : 0).toBeGreaterThan(0);
  });

  it('fails a server that breaks the rule named (exit 1)', async () => {
    const { code, report } = await narrowed(['--base-url', broken.url, '--rule', 'DEFAULTS']);
    expect(report.results.map((r) => [r.id, r.outcome.status])).toEqual([['DEFAULTS', 'fail']]);
    expect(code).toBe(1);
  });

  it.each([
    [
      ['--rule', 'NOPE'],
      /--rule takes a rule id, one of ENV, GRD-DEFAULT, .*FUZZ, LATENCY .* got "NOPE"/,
    ],
    [['--rule', 'LATENCY'], /--rule LATENCY runs only with --max-latency MS/],
    [['--rule', 'FUZZ'], /--rule FUZZ runs only with --fuzz N/],
    [['--rule', 'PRISM'], /--rule PRISM runs only with --via-prism/],
  ])('refuses %j before sending anything, saying what to send (exit 2)', async (args, said) => {
    const { code, err } = await checkCli(['--base-url', 'http://127.0.0.1:9', ...args]);
    expect(err).toMatch(said);
    expect(code).toBe(2);
  });

  it('runs LATENCY with the option that turns it on, timing the answers of the rules run', async () => {
    const args = ['--base-url', mock.url, '--max-latency', '60000', '--rule', 'LATENCY'];
    const alone = await narrowed(args);
    expect(alone.report.results.map((r) => [r.id, r.outcome.status])).toEqual([
      ['LATENCY', 'skip'],
    ]);
    const timed = await narrowed([...args, '--rule', 'GRD-DEFAULT']);
    expect(timed.report.results.map((r) => [r.id, r.outcome.status])).toEqual([
      ['GRD-DEFAULT', 'pass'],
      ['LATENCY', 'pass'],
    ]);
    expect([alone.code, timed.code]).toEqual([0, 0]);
  });

  it('narrows runCheck the same way, and refuses an unknown id there too', async () => {
    const report = await runCheck({ baseUrl: mock.url, rules: ['grd-default'] });
    expect(report.results.map((r) => [r.id, r.outcome.status])).toEqual([['GRD-DEFAULT', 'pass']]);
    await expect(runCheck({ baseUrl: mock.url, rules: ['NOPE'] })).rejects.toThrow(
      /--rule takes a rule id, one of ENV, .* got "NOPE"/,
    );
  });

  it('knows FUZZ by the id its rule carries', () => {
    expect(Object.keys(OPTIONAL_RULES)).toContain(FUZZ_ID);
  });
});

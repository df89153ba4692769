import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { type DefectName, type IndependentServer, startIndependentServer } from './index.ts';

/** What rule a defect of each kind is meant to be caught by (it may be caught by others too). */
export const CAUGHT_BY: Record<DefectName, string> = {
  'jobs-limit-20': 'DEFAULTS',
  'order-asc-default': 'DEFAULTS',
  'use-algorithm-default-0': 'DEFAULTS',
  'sort-updated-default': 'DEFAULTS',
  'no-singular-grading': 'ROUTES',
  'wrong-method-html-404': 'ROUTES',
  'no-allow-header': 'ROUTES',
  'unknown-path-html': 'ROUTES',
  'scoring-requires-algorithm-key': 'OLD-CLIENT',
  'single-grading-refused': 'CROSS-PARAM',
  'old-sort-names-refused': 'OLD-CLIENT',
  'created-range-unchecked': 'CROSS-PARAM',
  'timestamp-range-unchecked': 'CROSS-PARAM',
  'distance-without-point-accepted': 'CROSS-PARAM',
  'geo-ignored': 'FILTERS',
  'tags-ignored': 'FILTERS',
  'languages-ignored': 'FILTERS',
  'skills-ignored': 'FILTERS',
  'stage-ignored': 'FILTERS',
  'non-ascii-500': 'ODD-TEXT',
  'quote-500': 'ODD-TEXT',
  'long-text-500': 'ODD-TEXT',
  'long-url-html-414': 'REFUSALS',
  'large-body-500': 'REFUSALS',
  'slow-jobs-scoring': 'LATENCY',
  'slow-grading': 'LATENCY',
};

export type RuleReport = {
  id: string;
  outcome: { status: string; evidence?: { request: string; expected: string }; more?: unknown[] };
};

/** `hrmock check --base-url … --target FILE` in process, quietly: its exit status and JSON report. */
export async function checkIndependent(server: IndependentServer, extra: string[] = []) {
  const dir = await tempDir('independent');
  const targetFile = join(dir, 'target.json');
  const reportFile = join(dir, 'report.json');
  await writeFile(targetFile, JSON.stringify(server.target));
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const args = ['check', '--base-url', server.url, '--target', targetFile, ...extra];
    const code = await runCli([...args, '--reporter', 'json', '--output', reportFile]);
    const report = JSON.parse(await readFile(reportFile, 'utf8'));
    const failed = (report.results as RuleReport[]).filter((r) => r.outcome.status !== 'pass');
    return { code, report, failed, failedIds: failed.map((r) => r.id) };
  } finally {
    stdout.mockRestore();
  }
}

/**
 * The rule meant for `name` fails the server with that defect alone (exit 1), run by itself as
 * `hrmock check --rule ID` does: rules share nothing but the client, so a whole check fails it
 * the same way (proof-a.test.ts shows one plain run with every defect on catching them all).
 */
export async function expectCaught(name: DefectName, extra: string[] = []): Promise<void> {
  const server = await startIndependentServer({ defects: [name] });
  try {
    const rule = CAUGHT_BY[name];
    const { code, failedIds, failed } = await checkIndependent(server, ['--rule', rule, ...extra]);
    expect(failedIds, JSON.stringify(failed).slice(0, 2000)).toEqual([rule]);
    expect(code).toBe(1);
  } finally {
    await server.close();
  }
}
